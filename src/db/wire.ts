import { getTableColumns } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';

/**
 * Where a table's column names are the wire names, rows and bodies convert generically:
 * no hand-written field list to keep in step with the schema.
 */
export function rowToWire<T extends SQLiteTable>(table: T, row: T['$inferSelect']): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, name] of namesOf(table)) out[name] = (row as Record<string, unknown>)[key];
  return out;
}

// (property, column name) pairs per table, computed once: lists convert thousands of rows.
const names = new WeakMap<SQLiteTable, [string, string][]>();
function namesOf(table: SQLiteTable): [string, string][] {
  let pairs = names.get(table);
  if (!pairs) {
    pairs = Object.entries(getTableColumns(table)).map(([key, col]) => [key, col.name]);
    names.set(table, pairs);
  }
  return pairs;
}

/** The body fields that are columns of the table, as a partial row (absent fields stay absent). */
export function wireToRow<T extends SQLiteTable>(table: T, body: Record<string, unknown>): Partial<T['$inferInsert']> {
  const out: Record<string, unknown> = {};
  for (const [key, col] of Object.entries(getTableColumns(table))) if (body[col.name] !== undefined) out[key] = body[col.name];
  return out as Partial<T['$inferInsert']>;
}
