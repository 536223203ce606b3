import { createDb } from '../db/client';
import type { Bindings } from '../env';
import { sendReminders } from '../services/operations/lembretes';

/** Push messages per queue sendBatch call (the Queues limit is 100). */
const PUSH_PER_BATCH = 100;

/**
 * Reminders before events (docs/decisions-2 D16; services/operations/lembretes.ts): each (invitation, kind)
 * once whatever the number or overlap of runs. Push goes through the push queue, after the batch
 * that wrote the notifications; a failed enqueue leaves the in-app notification.
 */
export async function lembretes(env: Bindings, now: Date) {
  const { push, ...counts } = await sendReminders(createDb(env.DB), now);
  if (env.PUSH_QUEUE) {
    for (let i = 0; i < push.length; i += PUSH_PER_BATCH) {
      await env.PUSH_QUEUE.sendBatch(push.slice(i, i + PUSH_PER_BATCH).map((body) => ({ body }))).catch(
        (err: unknown) =>
          console.error(
            JSON.stringify({
              level: 'error',
              message: `reminder push enqueue failed: ${err instanceof Error ? err.message : String(err)}`,
            }),
          ),
      );
    }
  }
  return counts;
}
