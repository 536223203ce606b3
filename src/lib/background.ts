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
