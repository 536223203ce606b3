import type { BatchItem } from 'drizzle-orm/batch';
import type { Db } from './client';
import { isPaged, type Page } from '../lib/pagination';

type Query<T> = BatchItem<'sqlite'> & PromiseLike<T>;

/**
 * A list and its X-Total-Count. A whole list (no `limit` or `offset`) is its own total: its length,
 * without a count that would read every matching row a second time. A page batches its count with
 * it: one round trip either way (docs/api-conventions.md, "Offset lists").
 */
export async function withTotal<T>(
  db: Db,
  page: Page,
  list: Query<T[]>,
  count: Query<{ n: number }[]>,
): Promise<{ rows: T[]; total: number }> {
  if (!isPaged(page)) {
    // A batch of one: D1 answers its meta (rows read) as for a page, where a bare select would not.
    const [rows] = (await db.batch([list])) as [T[]];
    return { rows, total: rows.length };
  }
  const [rows, [n]] = (await db.batch([list, count])) as [T[], { n: number }[]];
  return { rows, total: n?.n ?? 0 };
}
