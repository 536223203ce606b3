import { and, count, eq, sql, type Placeholder, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
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

/**
 * A list's total (X-Total-Count): the kept count of (tabela, regiao, dono) when the service found the
 * key that counts exactly what its caller may see with the filters set (`dono` defined), otherwise a
 * count of `where` over `table`. The one shape every paged list's total takes.
 */
export const keptOrCounted = (
  db: Db,
  kept: { tabela: string; regiao: string | Placeholder; dono: string | Placeholder | undefined },
  table: SQLiteTable,
  where: SQL | undefined,
) =>
  kept.dono === undefined
    ? db.select({ n: count() }).from(table).where(where)
    : keptCount(db, kept.tabela, kept.regiao, kept.dono);

/** The same kept count as a column of a select, keyed by a column of its row (`dono`): one primary-key read per row. */
export const keptCountOf = (tabela: string, regiao: string, dono: SQLWrapper) =>
  sql<number>`coalesce((select ${contagens.n} from ${contagens} where ${keptKey(tabela, regiao, dono)}), 0)`.mapWith(
    Number,
  );

/** A count's primary key; `dia` '' (the per-day counts are summed by the job listings' own query). */
const keptKey = (tabela: string, regiao: string | Placeholder, dono: string | Placeholder | SQLWrapper) =>
  and(eq(contagens.tabela, tabela), eq(contagens.regiao, regiao), eq(contagens.dono, dono), eq(contagens.dia, ''));
