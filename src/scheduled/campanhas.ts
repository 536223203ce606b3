import type { Bindings } from '../env';
import { enqueueAll } from '../lib/background';
import { lembrarCampanhas } from '../services/availability/campanhas';

/**
 * The season poll's reminder to the silent, two days before `prazo`, once per campaign whatever the
 * number or overlap of runs (services/availability/campanhas.ts). Push goes through the push queue
 * after the batch that wrote the notifications; a failed enqueue leaves the in-app notification.
 */
export async function lembrarCampanhasJob(env: Bindings, now: Date) {
  const { push, ...counts } = await lembrarCampanhas(env, now);
  await enqueueAll(env.PUSH_QUEUE, push, 'campaign reminder push enqueue failed');
  return counts;
}
