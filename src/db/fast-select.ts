import type { Db } from './client';
import { execute, rows, type Ready } from './cached-batch';
import type { Selectable } from './row-mapper';

export type { Selectable } from './row-mapper';

/** What fastSelect runs: a drizzle select, or a cached one bound to its values (cachedSelect). */
export type Item = Selectable | Ready<unknown[]>;

export type SelectRows<T extends readonly Item[]> = {
  -readonly [K in keyof T]: T[K] extends Ready<infer R> ? R : Awaited<T[K]>;
};

const isReady = (q: Item): q is Ready<unknown[]> => typeof (q as Ready<unknown[]>).read === 'function';

/**
 * Runs selects (drizzle-built, or cached ones: db/cached-batch.ts cachedSelect) in ONE D1 batch
 * (one round trip) and maps their rows with compiled mappers (db/row-mapper.ts). The results equal
 * `db.batch()`'s for selections of columns, aliased SQL and tables from FROM or inner joins; a
 * left-joined table selected as a whole object is not supported (its absence would not become
 * null), and a repeated column name is an error, never a silent overwrite.
 */
export async function fastSelect<T extends readonly [Item, ...Item[]]>(db: Db, queries: T): Promise<SelectRows<T>> {
  const ready = queries.map((q) => (isReady(q) ? q : rows(q)));
  const results = await execute(db, ready);
  return results.map((r, i) => ready[i]!.read(r)) as SelectRows<T>;
}
