import { createDb } from '../db/client';
import type { Bindings } from '../env';
import type { PaymentMessage } from '../lib/messages';
import { staleNotifications } from '../services/payments/pagamentos';
import { expirePedidos, ordersWithoutCheckout } from '../services/payments/pedidos';

/** `expirar-pedidos`: pendente orders past expira_em become expirado (services/payments/pedidos.ts, guarded). */
export const expirarPedidos = (env: Bindings, now: Date) => expirePedidos(createDb(env.DB), now);

/**
 * `requeue-payments`: what a lost queue message left undone goes to the payment queue again:
 * pendente orders still without a checkout 2 minutes after creation, and notifications still
 * `recebida` 5 minutes after arriving. The consumer's steps are guarded, so a message sent twice
 * changes nothing twice. Answers how many it enqueued.
 */
export async function requeuePayments(env: Bindings, now: Date): Promise<number> {
  const db = createDb(env.DB);
  const [orders, notes] = await db.batch([ordersWithoutCheckout(db, now), staleNotifications(db, now)]);
  const messages: PaymentMessage[] = [
    ...orders.map((o) => ({ kind: 'preferencia' as const, pedidoId: o.id })),
    ...notes.map((n) => ({ kind: 'notificacao' as const, notificacaoId: n.id })),
  ];
  // Awaited (not in the background): a failure leaves them to the next run.
  if (messages.length > 0 && env.PAYMENT_QUEUE) await env.PAYMENT_QUEUE.sendBatch(messages.map((body) => ({ body })));
  return messages.length;
}
