import { lt, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Db } from './client';

/**
 * The requeue jobs' one query (scheduled: requeue-pending-emails, requeue-payments): rows whose queue
 * message was lost are found by their state and their age. The consumer's steps are guarded, so a
 * row sent to the queue again changes nothing twice.
 */

/** Rows per run of a requeue job: one sendBatch holds at most 100 messages. */
export const REQUEUE_LIMIT = 100;

/** `column` (an ISO-8601 timestamp) is more than `ms` before `now`: stale for `ms`. */
export const olderThan = (column: SQLiteColumn, now: Date, ms: number) =>
  lt(column, new Date(now.getTime() - ms).toISOString());

/** The ids (`id`, the table's id column) of at most REQUEUE_LIMIT rows where `stale` holds (built with `olderThan`). */
export const staleIds = <C extends SQLiteColumn>(db: Db, id: C, stale: SQL) =>
  db.select({ id }).from(id.table).where(stale).limit(REQUEUE_LIMIT);
