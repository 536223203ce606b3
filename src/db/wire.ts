import { getTableColumns } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';

/**
 * Where a table's column names are the wire names, rows and bodies convert generically:
 * no hand-written field list to keep in step with the schema.
 */
export function rowToWire<T extends SQLiteTable>(table: T, row: T['$inferSelect']): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, col] of Object.entries(getTableColumns(table))) out[col.name] = (row as Record<string, unknown>)[key];
  return out;
}

/** The body fields that are columns of the table, as a partial row (absent fields stay absent). */
export function wireToRow<T extends SQLiteTable>(table: T, body: Record<string, unknown>): Partial<T['$inferInsert']> {
  const out: Record<string, unknown> = {};
  for (const [key, col] of Object.entries(getTableColumns(table))) if (body[col.name] !== undefined) out[key] = body[col.name];
  return out as Partial<T['$inferInsert']>;
}
