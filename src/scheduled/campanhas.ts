import type { Bindings } from '../env';
import { lembrarCampanhas } from '../services/availability/campanhas';

/** Push messages per queue sendBatch call (the Queues limit is 100). */
const PUSH_PER_BATCH = 100;

/**
 * The season poll's reminder to the silent, two days before `prazo`, once per campaign whatever the
 * number or overlap of runs (services/availability/campanhas.ts). Push goes through the push queue
 * after the batch that wrote the notifications; a failed enqueue leaves the in-app notification.
 */
export async function lembrarCampanhasJob(env: Bindings, now: Date) {
  const { push, ...counts } = await lembrarCampanhas(env, now);
  if (env.PUSH_QUEUE)
    for (let i = 0; i < push.length; i += PUSH_PER_BATCH)
      await env.PUSH_QUEUE.sendBatch(push.slice(i, i + PUSH_PER_BATCH).map((body) => ({ body }))).catch(
        (err: unknown) =>
          console.error(
            JSON.stringify({
              level: 'error',
              message: `campaign reminder push enqueue failed: ${err instanceof Error ? err.message : String(err)}`,
            }),
          ),
      );
  return counts;
}
