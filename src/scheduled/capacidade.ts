import type { Bindings } from '../env';
import { alertarDeficits } from '../services/planning/alertas';

/** Push messages per queue sendBatch call (the Queues limit is 100). */
const PUSH_PER_BATCH = 100;

/**
 * The weekly capacity check (docs/decisions.md#d26): each region's (date, function) pairs in deficit
 * over the next PLANEJAMENTO_HORIZONTE_DIAS days, notified to its administrators once per week
 * (services/planning/alertas.ts). Push goes through the push queue after the batch that wrote the
 * notifications; a failed enqueue leaves the in-app notification.
 */
export async function capacidadeDeficitJob(env: Bindings, now: Date) {
  const { push, ...counts } = await alertarDeficits(env, now);
  if (env.PUSH_QUEUE)
    for (let i = 0; i < push.length; i += PUSH_PER_BATCH)
      await env.PUSH_QUEUE.sendBatch(push.slice(i, i + PUSH_PER_BATCH).map((body) => ({ body }))).catch(
        (err: unknown) =>
          console.error(
            JSON.stringify({
              level: 'error',
              message: `capacity deficit push enqueue failed: ${err instanceof Error ? err.message : String(err)}`,
            }),
          ),
      );
  return counts;
}
