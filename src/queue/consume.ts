import type { Bindings } from '../env';
import { errorText, type LogFields, type Logger } from '../lib/logger';

/**
 * What the queue consumers share (docs/architecture.md#a-queue-consumer): backoff, the retry
 * delay, the loop that handles a batch's messages one by one, each acknowledged or retried once, and
 * the batch handler built around it (`queueConsumer`); the outbox consumers' steps are in outbox.ts.
 * Queues deliver at least once, so every handler's effects are guarded (a claim, a guarded UPDATE):
 * a redelivered message changes nothing twice.
 */

/** Exponential backoff from an attempt count (1, 2, 3, ...): base, 2 × base, 4 × base, ... at most `cap` seconds. */
export const backoff =
  (baseSeconds: number, capSeconds: number) =>
  (attempts: number): number =>
    Math.min(baseSeconds * 2 ** Math.max(0, attempts - 1), capSeconds);

/** An error's own message (a provider's, a network failure's): what an outcome's `error` says. */
export const errText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** The delay of a retry: the backoff, or longer if the provider asked (`Retry-After`), at most an hour. */
export const retryDelay = (backoffSeconds: number, after?: number) =>
  Math.min(3600, Math.max(after ?? 0, backoffSeconds));

/**
 * What handling one message came to: acknowledge it; retry it in `delaySeconds` (`error` says why); or
 * give it up to the dead-letter queue (its handler logged why): retried once more, past max_retries.
 */
export type Handled =
  | { kind: 'ack' }
  | { kind: 'retry'; delaySeconds: number; error: string; fields?: LogFields }
  | { kind: 'dead-letter' };

export const ACK: Handled = { kind: 'ack' };

export interface ConsumeOptions<T> {
  log: Logger;
  /** The backoff of a message whose handler threw. */
  backoff: (attempts: number) => number;
  /** The error line's message, before the error: `delivery failed`. */
  failure: string;
  /** The error line's fields: what identifies the message (never a secret). */
  fields: (body: T | undefined) => LogFields;
}

/**
 * Handles each message of a batch at the same time: acknowledged, or retried with a warning line.
 * A handler that throws (D1 unreachable, or a bug) gets one error line and a retry with backoff;
 * after max_retries (wrangler.toml) the queue moves the message to its dead-letter queue.
 */
export async function consumeEach<T>(
  batch: MessageBatch<T>,
  opts: ConsumeOptions<T>,
  handle: (msg: Message<T>) => Promise<Handled>,
): Promise<void> {
  await Promise.all(
    batch.messages.map(async (msg) => {
      try {
        const handled = await handle(msg);
        if (handled.kind === 'ack') {
          msg.ack();
          return;
        }
        if (handled.kind === 'dead-letter') {
          msg.retry();
          return;
        }
        opts.log.warn(`will retry in ${handled.delaySeconds} s: ${handled.error}`, handled.fields);
        msg.retry({ delaySeconds: handled.delaySeconds });
      } catch (err) {
        opts.log.error(`${opts.failure}: ${errorText(err)}`, opts.fields(msg.body));
        msg.retry({ delaySeconds: opts.backoff(msg.attempts) });
      }
    }),
  );
}

/** A message's handler, made once per batch (its config, db and adapter) by `queueConsumer`'s setup. */
export type Setup<T> = (
  env: Bindings,
  fetchImpl: typeof fetch,
  now: () => Date,
) => (msg: Message<T>) => Promise<Handled>;

/**
 * A queue's batch handler, `(batch, env, fetchImpl = fetch, now = () => new Date())`: `setup` runs
 * once (a bad config throws for the whole batch), then `consumeEach` hands it each message. The
 * injectable `fetchImpl` and `now` let tests stand in for the provider and the clock.
 */
export const queueConsumer =
  <T>(opts: ConsumeOptions<T>, setup: Setup<T>) =>
  async (
    batch: MessageBatch<T>,
    env: Bindings,
    fetchImpl: typeof fetch = fetch,
    now: () => Date = () => new Date(),
  ): Promise<void> =>
    consumeEach(batch, opts, setup(env, fetchImpl, now));
