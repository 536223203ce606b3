import { errorText, logger, type Logger } from './logger';
import type { Context } from 'hono';

/** Work that must not delay the answer (waitUntil); outside a Workers request it just runs. */
export function inBackground(c: Context): (p: Promise<unknown>) => void {
  return (p) => {
    try {
      c.executionCtx.waitUntil(p);
    } catch {
      void p;
    }
  };
}

/**
 * Sends queue messages in the background: never failing or delaying the request. A failed send is
 * one error line (`what` says what was lost and what recovers it); without a binding nothing is sent.
 */
export function enqueueInBackground<T>(
  queue: Queue<T> | undefined,
  waitUntil: (p: Promise<unknown>) => void,
  bodies: T[],
  what: string,
  extra: Record<string, unknown> = {},
) {
  if (!queue || bodies.length === 0) return;
  waitUntil(
    queue.sendBatch(bodies.map((body) => ({ body }))).catch((err: unknown) => {
      logger.error(`${what}: ${errorText(err)}`, extra);
    }),
  );
}

/** The Queues limit of messages per sendBatch call. */
export const SEND_BATCH_MAX = 100;

/**
 * Sends queue messages awaited, 100 per sendBatch call, never throwing: a failed send is one error
 * line on `log` (`what` says what was lost); without a binding nothing is sent.
 */
export async function enqueueAll<T>(queue: Queue<T> | undefined, bodies: T[], what: string, log: Logger = logger) {
  if (!queue) return;
  for (let i = 0; i < bodies.length; i += SEND_BATCH_MAX)
    await queue
      .sendBatch(bodies.slice(i, i + SEND_BATCH_MAX).map((body) => ({ body })))
      .catch((err: unknown) => log.error(`${what}: ${errorText(err)}`));
}
