import { getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Db } from './client';

/**
 * `INSERT INTO t (every column) SELECT <exprs> <from>`: a set-based insert (one statement for any
 * number of rows, a handful of bound parameters), batchable. A column without an expression gets its
 * default (a $defaultFn is evaluated once, so give per-row columns such as ids an expression).
 */
export function insertSelect<T extends SQLiteTable>(
  db: Db,
  table: T,
  exprs: Partial<Record<keyof T['$inferInsert'], SQL>>,
  from: SQL,
) {
  const given = exprs as Record<string, SQL | undefined>;
  const cols = Object.entries(getTableColumns(table)).map(([key, col]) => {
    const e = given[key];
    if (e) return e;
    const v = col.defaultFn ? col.defaultFn() : (col.default ?? null);
    return v === null ? sql`null` : sql.param(v, col);
  });
  return db.insert(table).select(sql`select ${sql.join(cols, sql`, `)} ${from}`);
}
