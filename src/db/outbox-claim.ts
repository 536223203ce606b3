import { and, eq, sql } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Db } from './client';

/**
 * The claim and settle steps of an outbox consumer (the e-mail and WhatsApp queues): the row is
 * taken by ONE guarded UPDATE (`pendente` → `enviando`, attempts + 1), so that of two deliveries of
 * one message only one sends; the outcome is written only while the claim holds (status `enviando`).
 * Any outbox table with `id`, `status`, `tentativas` and `updated_at` columns.
 */
type Outbox = SQLiteTable & {
  id: SQLiteColumn;
  status: SQLiteColumn;
  tentativas: SQLiteColumn;
  updatedAt: SQLiteColumn;
};

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
  };
}
