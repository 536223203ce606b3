import type { Bindings } from '../env';
import { marcarFaltasProvaveis } from '../services/checkin/faltas';

/** Push messages per queue sendBatch call (the Queues limit is 100). */
const PUSH_PER_BATCH = 100;

/**
 * Probable no-shows (docs/decisions.md#d27): every accepted invitation without an entrada once its
 * event's entries have closed is flagged `provavel` once, and the region's administrators are told per
 * event (services/checkin/faltas.ts). Push goes through the push queue after the batch that wrote the
 * notifications; a failed enqueue leaves the in-app notification.
 */
export async function faltasProvaveisJob(env: Bindings, now: Date) {
  const { push, ...counts } = await marcarFaltasProvaveis(env, now);
  if (env.PUSH_QUEUE)
    for (let i = 0; i < push.length; i += PUSH_PER_BATCH)
      await env.PUSH_QUEUE.sendBatch(push.slice(i, i + PUSH_PER_BATCH).map((body) => ({ body }))).catch(
        (err: unknown) =>
          console.error(
            JSON.stringify({
              level: 'error',
              message: `no-show push enqueue failed: ${err instanceof Error ? err.message : String(err)}`,
            }),
          ),
      );
  return counts;
}
