import type { BatchItem } from 'drizzle-orm/batch';
import type { Db } from './client';

export interface Page {
  limit?: number;
  offset?: number;
}

export const isPaged = (p: Page) => p.limit !== undefined || (p.offset ?? 0) > 0;

/** A list's count query, batched only when paged: a whole list is its own total (totalOf). */
export const whenPaged = <T>(page: Page, count: T): T[] => (isPaged(page) ? [count] : []);

/** A list's total: its count query's answer when paged, else (no count run) the whole list's length. */
export const totalOf = (counted: { n: number }[] | undefined, length: number) =>
  counted ? (counted[0]?.n ?? 0) : length;

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
  // Unpaged, a batch of one: D1 answers its meta (rows read) as for a page, where a bare select would not.
  const [rows, counted] = (await db.batch([list, ...whenPaged(page, count)])) as [T[], { n: number }[]?];
  return { rows, total: totalOf(counted, rows.length) };
}
