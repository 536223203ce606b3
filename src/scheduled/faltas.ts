import type { Bindings } from '../env';
import { enqueueAll } from '../lib/background';
import { marcarFaltasProvaveis } from '../services/checkin/faltas';

/**
 * Probable no-shows (docs/decisions.md#d27): every accepted invitation without an entrada once its
 * event's entries have closed is flagged `provavel` once, and the region's administrators are told per
 * event (services/checkin/faltas.ts). Push goes through the push queue after the batch that wrote the
 * notifications; a failed enqueue leaves the in-app notification.
 */
export async function faltasProvaveisJob(env: Bindings, now: Date) {
  const { push, ...counts } = await marcarFaltasProvaveis(env, now);
  await enqueueAll(env.PUSH_QUEUE, push, 'no-show push enqueue failed');
  return counts;
}
