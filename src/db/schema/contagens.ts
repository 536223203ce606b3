import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * Rows of a table per region (`dono` '') and per owner in a region, kept by SQLite triggers
 * (drizzle/0022; docs/architecture.md, "Kept by triggers"), whatever writes the rows. A list's
 * unfiltered total (X-Total-Count) reads one row here instead of counting one index entry per row.
 * Today: `agenda` per region and per creator (`user_id`, an agenda_viewer's own events).
 */
export const contagens = sqliteTable(
  'contagens',
  {
    tabela: text('tabela').notNull(),
    regiao: text('regiao').notNull(),
    dono: text('dono').notNull().default(''),
    n: integer('n').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tabela, t.regiao, t.dono] })],
);
