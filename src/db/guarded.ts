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
    // A given null binds (as its placeholder would in a cached batch); an absent column's null is SQL.
    if (v === null && row[key] === undefined) return sql`null`;
    return is(v, SQL) ? v : sql.param(v, col);
  });
  return db.insert(table).select(sql`select ${sql.join(exprs, sql`, `)} where ${condition}`);
}

/**
 * insertWhere of the `columns` of `row` for a cached batch (db/cached-batch.ts: `row` holds its
 * placeholders, or in its uncached path the values); the table's other columns take their defaults.
 * A column with a $defaultFn (ids, timestamps) must be among them: its default would be made once
 * and frozen into the cached SQL.
 */
export function insertColumnsWhere<T extends SQLiteTable>(
  db: Db,
  table: T,
  columns: readonly string[],
  row: Readonly<Record<string, unknown>>,
  condition: SQL,
) {
  for (const [key, col] of Object.entries(getTableColumns(table)))
    if (col.defaultFn && !columns.includes(key)) throw new Error(`insertColumnsWhere: ${key} needs a value`);
  const values = Object.fromEntries(columns.map((k) => [k, row[k]]));
  return insertWhere(db, table, values as T['$inferInsert'], condition);
}
