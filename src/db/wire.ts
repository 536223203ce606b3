import { getTableColumns } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';

/**
 * Where a table's column names are the wire names, rows and bodies convert generically:
 * no hand-written field list to keep in step with the schema.
 */
type WireColumns<T extends SQLiteTable> = {
  [K in keyof T['_']['columns'] as T['_']['columns'][K]['_']['name']]: T['_']['columns'][K];
};

/** A table's columns keyed by column name, to select rows that come out already in wire names. */
export function wireColumns<T extends SQLiteTable>(table: T): WireColumns<T> {
  return Object.fromEntries(Object.values(getTableColumns(table)).map((col) => [col.name, col])) as WireColumns<T>;
}

/** The body fields that are columns of the table, as a partial row (absent fields stay absent). */
export function wireToRow<T extends SQLiteTable>(table: T, body: Record<string, unknown>): Partial<T['$inferInsert']> {
  const out: Record<string, unknown> = {};
  for (const [key, col] of Object.entries(getTableColumns(table)))
    if (body[col.name] !== undefined) out[key] = body[col.name];
  return out as Partial<T['$inferInsert']>;
}
