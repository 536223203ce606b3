import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';

/**
 * Every column of a joined table under `<prefix>_<column>`. Inside db.batch(), D1 returns rows as
 * objects keyed by column name, so two joined tables that share column names (`id`, `nome`,
 * `email`...) would overwrite each other; selecting one of them through this keeps both intact.
 * Values are decoded like the columns (mapWith), and a row of a left join that found nothing has
 * every field null.
 */
export function aliasedColumns<T extends SQLiteTable>(table: T, prefix: string) {
  const out: Record<string, SQL.Aliased> = {};
  for (const [key, col] of Object.entries(getTableColumns(table))) {
    out[key] = sql`${col}`.mapWith(col).as(`${prefix}_${col.name}`);
  }
  return out as { [K in keyof T['$inferSelect']]: SQL.Aliased<T['$inferSelect'][K] | null> };
}
