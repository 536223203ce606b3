import { createDb } from '../db/client';
import type { Bindings } from '../env';
import { enqueueAll } from '../lib/background';
import { lembrarCredenciamento } from '../services/rules/credenciamento';

/**
 * The credential list's reminder (docs/decisions.md#d25; services/rules/credenciamento.ts): 2 business
 * days before the call sheet's `prazo_credenciamento`, to the region's administrators, once per event,
 * while `credenciamento_enviado_em` is not set. Push goes through the push queue after the batch.
 */
export async function lembrarCredenciamentoJob(env: Bindings, now: Date) {
  const { push, ...counts } = await lembrarCredenciamento(createDb(env.DB), now);
  await enqueueAll(env.PUSH_QUEUE, push, 'credential reminder push enqueue failed');
  return counts;
}
