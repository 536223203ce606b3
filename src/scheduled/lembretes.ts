import { createDb } from '../db/client';
import { getConfig, type Bindings } from '../env';
import { enqueueAll } from '../lib/background';
import { sendReminders } from '../services/operations/lembretes';

/**
 * Reminders before events (docs/decisions.md#d16; services/operations/lembretes.ts): each (invitation, kind)
 * once whatever the number or overlap of runs. Push goes through the push queue, after the batch
 * that wrote the notifications; a failed enqueue leaves the in-app notification. The D-2/D-1
 * WhatsApp messages of the same batch go to the WhatsApp queue (a failed enqueue leaves them to
 * requeue-pending-whatsapp).
 */
export async function lembretes(env: Bindings, now: Date) {
  const { push, whatsapp, ...counts } = await sendReminders({ db: createDb(env.DB), config: getConfig(env) }, now);
  await enqueueAll(env.PUSH_QUEUE, push, 'reminder push enqueue failed');
  await enqueueAll(
    env.WHATSAPP_QUEUE,
    whatsapp.map((outboxId) => ({ outboxId })),
    'reminder whatsapp enqueue failed (the scheduled re-enqueue will send it)',
  );
  return { ...counts, whatsapp: whatsapp.length };
}
