import { and, eq, sql, type Placeholder, type SQLWrapper } from 'drizzle-orm';
import type { Db } from './client';
import { contagens } from './schema';

/**
 * A list's total from the row SQLite triggers keep in contagens (drizzle/0022, 0023, 0025, 0028, 0030;
 * docs/architecture.md, "Kept by triggers") instead of a count: one primary-key read, however many
 * rows it counts. `dono` '' is the whole region; a user's own counts (unread notifications) have
 * regiao ''. A key no row has had yet answers 0. The service decides when its caller's
 * visibility and filters are exactly what the key counts; otherwise it counts.
 */
export const keptCount = (db: Db, tabela: string, regiao: string | Placeholder, dono: string | Placeholder) =>
  db
    .select({ n: sql<number>`coalesce(sum(${contagens.n}), 0)`.mapWith(Number) })
    .from(contagens)
    .where(keptKey(tabela, regiao, dono));

/** The same kept count as a column of a select, keyed by a column of its row (`dono`): one primary-key read per row. */
export const keptCountOf = (tabela: string, regiao: string, dono: SQLWrapper) =>
  sql<number>`coalesce((select ${contagens.n} from ${contagens} where ${keptKey(tabela, regiao, dono)}), 0)`.mapWith(
    Number,
  );

/** A count's primary key; `dia` '' (the per-day counts are summed by the job listings' own query). */
const keptKey = (tabela: string, regiao: string | Placeholder, dono: string | Placeholder | SQLWrapper) =>
  and(eq(contagens.tabela, tabela), eq(contagens.regiao, regiao), eq(contagens.dono, dono), eq(contagens.dia, ''));
