import { and, eq, gte, inArray, or, sql } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Db } from './client';
import { olderThan, staleIds } from './stale';

/**
 * The claim and settle steps of an outbox consumer (the e-mail and WhatsApp queues): the row is
 * taken by ONE guarded UPDATE (`pendente` → `enviando`, attempts + 1), so that of two deliveries of
 * one message only one sends; the outcome is written only while the claim holds (status `enviando`).
 * And the scheduled requeue's one statement. Any outbox table with `id`, `status`, `tentativas`,
 * `disponivel_em`, `erro` and `updated_at` columns.
 */
type Outbox = SQLiteTable & {
  id: SQLiteColumn;
  status: SQLiteColumn;
  tentativas: SQLiteColumn;
  disponivelEm: SQLiteColumn;
  erro: SQLiteColumn;
  updatedAt: SQLiteColumn;
};

/** When the requeue takes a row back: its ages, and the claims after which a dead claim is given up. */
export interface RequeueBounds {
  /** A `pendente` row this long past its `disponivel_em` lost its queue message. */
  requeueAfterMs: number;
  /** An `enviando` row claimed this long ago lost its consumer (it died mid-send). */
  leaseMs: number;
  /** Claims per row: the outbox's one bound, the consumer's `maxAttempts` too. */
  maxAttempts: number;
}

/** The `erro` of a row whose last claim died: the provider may have taken it, so it is not sent again. */
export const givenUpError = (maxAttempts: number) =>
  `sem confirmação do envio após ${maxAttempts} tentativas: a mensagem pode ter chegado`;

/** The ids of the rows `requeue` put back to `pendente`: the ones to enqueue. */
export const requeuedIds = (rows: { id: unknown; status: unknown }[]) =>
  rows.filter((r) => r.status === 'pendente').map((r) => r.id as string);

export function outboxSteps<T extends Outbox>(table: T) {
  // drizzle cannot type an update of a table known only by these columns: the values are checked by
  // the callers' `Partial<T['$inferInsert']>`.
  const update = (db: Db) => db.update(table as SQLiteTable);
  return {
    /** The row, if this delivery won it. */
    async claim(db: Db, id: string, at: string): Promise<T['$inferSelect'] | undefined> {
      const [row] = await update(db)
        .set({ status: 'enviando', tentativas: sql`${table.tentativas} + 1`, updatedAt: at } as never)
        .where(and(eq(table.id, id), eq(table.status, 'pendente')))
        .returning();
      return row as T['$inferSelect'] | undefined;
    },
    /** The outcome's write, guarded by the claim. */
    settle: (db: Db, id: string, set: Partial<T['$inferInsert']>) =>
      update(db)
        .set(set as never)
        .where(and(eq(table.id, id), eq(table.status, 'enviando'))),
    /**
     * The scheduled requeue's ONE guarded UPDATE (for the job's batch), over at most REQUEUE_LIMIT
     * rows: a `pendente` row whose queue message was lost, or an `enviando` row past the lease,
     * goes back to `pendente` with `disponivel_em` = now (so an overlapping run does not take it
     * again); an `enviando` row past the lease that already has `maxAttempts` claims becomes
     * `falhou` instead. A consumer that dies after the provider accepted the message and before its
     * settle would otherwise have it sent again on every requeue: this bounds the copies to
     * `maxAttempts`. Answers each row taken with its new status: enqueue the `pendente` ones.
     */
    requeue(db: Db, now: Date, bounds: RequeueBounds) {
      const at = now.toISOString();
      const abandoned = and(eq(table.status, 'enviando'), olderThan(table.updatedAt, now, bounds.leaseMs))!;
      const stale = or(
        and(eq(table.status, 'pendente'), olderThan(table.disponivelEm, now, bounds.requeueAfterMs)),
        abandoned,
      )!;
      // SQLite evaluates every SET expression against the row as it was: both CASEs see `enviando`.
      const spent = and(abandoned, gte(table.tentativas, bounds.maxAttempts));
      return update(db)
        .set({
          status: sql`case when ${spent} then 'falhou' else 'pendente' end`,
          erro: sql`case when ${spent} then ${givenUpError(bounds.maxAttempts)} else ${table.erro} end`,
          disponivelEm: at,
          updatedAt: at,
        } as never)
        .where(and(inArray(table.id, staleIds(db, table.id, stale)), stale))
        .returning({ id: table.id, status: table.status });
    },
  };
}
