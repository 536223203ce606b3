import { createDb } from '../db/client';
import type { Db } from '../db/client';
import { getConfig } from '../env';
import { enqueueAll } from '../lib/background';
import { createLogger } from '../lib/logger';
import type { PaymentMessage, PushMessage } from '../lib/messages';
import { applyPayment, ignoreNotification, notificationById } from '../services/payments/pagamentos';
import { pedidoForPreference, savePreference } from '../services/payments/pedidos';
import { gatewayFor, type Gateway, type GatewayResult } from '../services/payments/gateways';
import { ACK, backoff, queueConsumer, retryDelay } from './consume';

/**
 * The payment queue consumer (docs/decisions.md#d19). Two kinds of message:
 *
 * - `preferencia`: creates the checkout of a `pendente` order that has none yet and stores its url
 *   (guarded: a redelivered message never replaces it; the order id is the gateway's idempotency key);
 * - `notificacao`: reads the payment of a recorded webhook notification from the gateway (the
 *   notification's body is never trusted) and applies it to its order (services/payments/pagamentos.ts: every
 *   effect exactly once, whatever the order or repetition of notifications); the push of the
 *   notifications it wrote (a duplicate payment's, to the administrators) goes to PUSH_QUEUE after.
 *
 * A transient gateway failure (network, timeout, 5xx, 429) retries the message with backoff; a
 * refusal (other 4xx) is logged and acknowledged. Messages that still fail land in the dead-letter
 * queue; the scheduled job `requeue-payments` enqueues again what is left undone (orders without a
 * checkout, notifications still `recebida`).
 */

/** Backoff from the delivery attempt (1, 2, 3, ...): 10 s, 20 s, 40 s, ... at most 15 minutes. */
export const paymentRetryDelaySeconds = backoff(10, 900);

const log = createLogger({ fields: { consumer: 'payments' } });

type Done = { kind: 'done' } | { kind: 'retry'; error: string; after?: number };

/** A gateway answer that is not `ok`: retry, or log the refusal and stop. */
function notOk(result: Exclude<GatewayResult<unknown>, { kind: 'ok' }>, what: Record<string, unknown>): Done {
  if (result.kind === 'retry') return result;
  log.error(`gateway refused: ${result.error}`, what);
  return { kind: 'done' };
}

async function createCheckout(db: Db, gateway: Gateway, pedidoId: string): Promise<Done> {
  const order = await pedidoForPreference(db, pedidoId);
  if (!order || order.status !== 'pendente' || order.urlPagamento) return { kind: 'done' };
  const result = await gateway.createPreference({
    pedidoId: order.id,
    titulo: order.pacoteNome,
    valorCentavos: order.valorCentavos,
    parcelas: order.parcelas,
    expiraEm: order.expiraEm,
    comprador: { nome: order.compradorNome, email: order.compradorEmail, cpf: order.compradorCpf },
  });
  if (result.kind !== 'ok') return notOk(result, { pedidoId });
  await savePreference(db, order.id, result.value);
  return { kind: 'done' };
}

async function processNotification(
  db: Db,
  gateway: Gateway,
  pushQueue: Queue<PushMessage> | undefined,
  notificacaoId: string,
  now: () => Date,
): Promise<Done> {
  const notification = await notificationById(db, notificacaoId);
  if (!notification || notification.status !== 'recebida') return { kind: 'done' };
  const result = await gateway.getPayment(notification.pagamentoId);
  if (result.kind !== 'ok') {
    if (result.kind === 'failed') {
      await ignoreNotification(db, notificacaoId, result.error);
      if (!result.notFound) log.error(`gateway refused: ${result.error}`, { notificacaoId });
      return { kind: 'done' };
    }
    return result;
  }
  const { outcome, push } = await applyPayment({ db, now: now() }, notification, result.value);
  if (outcome === 'divergente') log.warn('payment amount does not match its order: nothing paid', { notificacaoId });
  // The push of the notifications the payment wrote (a duplicate's, to the administrators): a
  // failed enqueue leaves the in-app ones.
  await enqueueAll(pushQueue, push, 'push enqueue failed', log);
  return { kind: 'done' };
}

/**
 * Handles a batch of PAYMENT_QUEUE messages. `fetchImpl` (the gateway's HTTP) and `now` are
 * injectable so that tests stand in for Mercado Pago and the clock.
 */
export const handlePaymentBatch = queueConsumer<PaymentMessage>(
  {
    log,
    backoff: paymentRetryDelaySeconds,
    failure: 'payment message failed',
    fields: (body) => ({ payment_message: body ?? null }),
  },
  (env, fetchImpl, now) => {
    const gateway = gatewayFor(getConfig(env), fetchImpl);
    const db = createDb(env.DB);
    return async (msg) => {
      const body = msg.body;
      let done: Done;
      if (body?.kind === 'preferencia' && typeof body.pedidoId === 'string')
        done = await createCheckout(db, gateway, body.pedidoId);
      else if (body?.kind === 'notificacao' && typeof body.notificacaoId === 'string')
        done = await processNotification(db, gateway, env.PUSH_QUEUE, body.notificacaoId, now);
      else {
        log.error('malformed payment message dropped');
        return ACK;
      }
      if (done.kind === 'done') return ACK;
      const delaySeconds = retryDelay(paymentRetryDelaySeconds(msg.attempts), done.after);
      return { kind: 'retry', delaySeconds, error: done.error, fields: { payment_message: body } };
    };
  },
);
