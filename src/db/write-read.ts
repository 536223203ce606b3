import type { BatchItem, BatchResponse } from 'drizzle-orm/batch';
import type { Db } from './client';

type Stmt = BatchItem<'sqlite'>;

/**
 * Writes and the reads that see their result, in ONE atomic D1 batch (one round trip; a failing
 * statement rolls back all of them). A write answered by reading its row back costs one round trip
 * instead of two. Answers the results of `last` (reads, or a write whose `meta.changes` tells
 * whether it happened), typed, without the casts a spread `db.batch([...writes, read])` needs.
 * Equality with db.batch(): test/perf/fast-select.test.ts; every route that writes and answers its row uses it.
 */
export async function writeThenRead<const L extends readonly [Stmt, ...Stmt[]]>(
  db: Db,
  writes: readonly Stmt[],
  last: L,
): Promise<BatchResponse<L extends readonly [Stmt, ...Stmt[]] ? [...L] : never>> {
  const results = await db.batch([...writes, ...last] as unknown as [Stmt, ...Stmt[]]);
  return results.slice(writes.length) as never;
}
