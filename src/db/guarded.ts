import { getTableColumns, is, SQL, sql } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Db } from './client';

/**
 * `INSERT INTO t (...) SELECT <values> WHERE <condition>`: a write guarded by a condition that is
 * checked in the same statement, so it holds under concurrency (D1 has no interactive
 * transactions). Batchable, unlike `db.run(sql)` with parameters. `meta.changes` says if it ran.
 */
export function insertWhere<T extends SQLiteTable>(db: Db, table: T, values: T['$inferInsert'], condition: SQL) {
  const row = values as Record<string, unknown>;
  const exprs = Object.entries(getTableColumns(table)).map(([key, col]) => {
    let v = row[key];
    if (v === undefined) v = col.defaultFn ? col.defaultFn() : (col.default ?? null);
    if (v === null) return sql`null`;
    return is(v, SQL) ? v : sql.param(v, col);
  });
  return db.insert(table).select(sql`select ${sql.join(exprs, sql`, `)} where ${condition}`);
}

/**
 * insertWhere for a statement built once per shape (db/prepared-statement.ts): the value of each of
 * `keys` is the placeholder of that name. A column with a $defaultFn (ids, timestamps) must be among
 * them: its default would be evaluated once and frozen into the cached SQL. Every value must be
 * given (undefined does not bind).
 */
export function insertWhereTemplate<T extends SQLiteTable>(db: Db, table: T, keys: string[], condition: SQL) {
  for (const [key, col] of Object.entries(getTableColumns(table))) {
    if (col.defaultFn && !keys.includes(key)) throw new Error(`insertWhereTemplate: ${key} needs a value`);
    // A bound null goes through the column's encoder (drizzle's fillPlaceholders): a nullable
    // boolean would store 0 and a nullable JSON column the text 'null'. None is templated today.
    if (
      keys.includes(key) &&
      !col.notNull &&
      (col.columnType === 'SQLiteBoolean' || col.columnType === 'SQLiteTextJson')
    )
      throw new Error(`insertWhereTemplate: ${key} is a nullable ${col.columnType}: bind it outside a template`);
  }
  const values = Object.fromEntries(keys.map((k) => [k, sql.placeholder(k)]));
  return insertWhere(db, table, values as T['$inferInsert'], condition);
}
