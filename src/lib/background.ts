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
      const reason = err instanceof Error ? err.message : String(err);
      console.error(JSON.stringify({ level: 'error', message: `${what}: ${reason}`, ...extra }));
    }),
  );
}
