import type { BatchItem } from 'drizzle-orm/batch';
import { createDb, type Db } from '../db/client';
import { outboxSteps } from '../db/outbox-claim';
import { getConfig, type Bindings, type Config } from '../env';
import type { Logger } from '../lib/logger';
import { ACK, queueConsumer, retryDelay, type Handled } from './consume';

/**
 * One consumer for every outbox queue (the e-mail and WhatsApp ones: docs/architecture.md#a-queue-consumer).
 * A message carries an outbox id; the consumer
 *
 * 1. claims the row with ONE guarded UPDATE (`pendente` → `enviando`, attempts + 1: db/outbox-claim.ts).
 *    A row already sent or failed, or claimed by another delivery of the same message, changes
 *    nothing and the message is acknowledged without calling the provider: a message delivered twice
 *    (queues deliver at least once) is sent once;
 * 2. hands the row to the outbox's own `send` (render it, call the provider's adapter);
 * 3. records the outcome, guarded by the claim (status still `enviando`): `enviado` with the outbox's
 *    own columns (and statements of its own in the same batch); `falhou` when the provider refused
 *    it; on a transient failure, back to `pendente` and a retry after the backoff of the row's claims
 *    (or the provider's `Retry-After`); once the row has `maxAttempts` claims, `falhou` and the message
 *    acknowledged or, with `deadLetter`, retried once more past the queue's max_retries so
 *    that it lands in the dead-letter queue.
 *
 * A message that cannot be processed at all (D1 failing) throws: `consumeEach` retries it with
 * backoff, then the queue dead-letters it; its row stays `pendente` and the outbox's scheduled
 * re-enqueue sends it once D1 is back.
 */

type Table = Parameters<typeof outboxSteps>[0];

/** What an adapter's send came to (it never throws); `S` is what a sent message tells (a provider id). */
export type Outcome<S extends object = object> =
  ({ kind: 'sent' } & S) | { kind: 'retry'; error: string; after?: number } | { kind: 'failed'; error: string };

export interface OutboxSpec<T extends Table, A, S extends object> {
  table: T;
  log: Logger;
  /** Claims per row; the last transient failure marks it `falhou`. */
  maxAttempts: number;
  /** Whether the message of a row given up after `maxAttempts` goes to the dead-letter queue (else acknowledged). */
  deadLetter: boolean;
  /** Backoff from the row's claim count (1, 2, 3, ...). */
  backoff: (attempts: number) => number;
  /** The provider's adapter, made once per batch. */
  adapter: (env: Bindings, config: Config, fetchImpl: typeof fetch) => A;
  /** Step 2: renders the claimed row and sends it. */
  send: (row: T['$inferSelect'], adapter: A, config: Config) => Promise<Outcome<S>>;
  /** The sent row's own columns (the provider's id). */
  sentColumns: (sent: S) => Partial<T['$inferInsert']>;
  /** Statements that join the `enviado` write's batch. */
  alsoSent?: (db: Db, sent: S, at: string) => BatchItem<'sqlite'>[];
}

/** The batch handler of an outbox queue: `(batch, env, fetchImpl = fetch, now = () => new Date())`. */
export function outboxConsumer<T extends Table, A, S extends object>(spec: OutboxSpec<T, A, S>) {
  const { log, maxAttempts } = spec;
  const { claim, settle } = outboxSteps(spec.table);
  return queueConsumer<{ outboxId: string }>(
    {
      log,
      backoff: spec.backoff,
      failure: 'delivery failed',
      fields: (body) => ({ outboxId: body?.outboxId ?? null }),
    },
    (env, fetchImpl, now) => {
      const config = getConfig(env);
      const db = createDb(env.DB);
      const adapter = spec.adapter(env, config, fetchImpl);
      return async (msg): Promise<Handled> => {
        const id = msg.body?.outboxId;
        if (typeof id !== 'string') {
          log.error('message without outboxId dropped');
          return ACK;
        }
        const row = await claim(db, id, now().toISOString());
        if (!row) return ACK; // sent or failed already, claimed by another delivery, or no such row
        const attempts = row.tentativas as number;
        const outcome = await spec.send(row, adapter, config);
        const at = now().toISOString();
        // The columns every outbox has (db/outbox-claim.ts), which drizzle cannot type on a generic table.
        const settled = (set: Record<string, unknown>) =>
          settle(db, id, { ...set, updatedAt: at } as Partial<T['$inferInsert']>);
        if (outcome.kind === 'sent') {
          const sent = settled({ status: 'enviado', enviadoEm: at, erro: null, ...spec.sentColumns(outcome) });
          const also = spec.alsoSent?.(db, outcome, at) ?? [];
          if (also.length) await db.batch([sent, ...also]);
          else await sent;
          return ACK;
        }
        const failed = () => settled({ status: 'falhou', erro: outcome.error });
        if (outcome.kind === 'failed') {
          log.error(`not sent: ${outcome.error}`, { outboxId: id, attempts });
          await failed();
          return ACK;
        }
        if (attempts >= maxAttempts) {
          log.error(`gave up after ${attempts} attempts: ${outcome.error}`, { outboxId: id, attempts });
          await failed();
          // A redelivery finds `falhou`: it sends nothing.
          return spec.deadLetter ? { kind: 'dead-letter' } : ACK;
        }
        // The backoff counts the row's attempts (its claims), not this message's deliveries.
        const delaySeconds = retryDelay(spec.backoff(attempts), outcome.after);
        await settled({
          status: 'pendente',
          erro: outcome.error,
          disponivelEm: new Date(Date.parse(at) + delaySeconds * 1000).toISOString(),
        });
        return { kind: 'retry', delaySeconds, error: outcome.error, fields: { outboxId: id, attempts } };
      };
    },
  );
}
