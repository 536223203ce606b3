import { createDb } from '../db/client';
import type { Bindings } from '../env';
import { enqueueAll } from '../lib/background';
import { sendReminders } from '../services/operations/lembretes';

/**
 * Reminders before events (docs/decisions.md#d16; services/operations/lembretes.ts): each (invitation, kind)
 * once whatever the number or overlap of runs. Push goes through the push queue, after the batch
 * that wrote the notifications; a failed enqueue leaves the in-app notification.
 */
export async function lembretes(env: Bindings, now: Date) {
  const { push, ...counts } = await sendReminders(createDb(env.DB), now);
  await enqueueAll(env.PUSH_QUEUE, push, 'reminder push enqueue failed');
  return counts;
}
