/**
 * A local fake of Mercado Pago's API for the payment consumer (injected fetch: no test reaches the
 * network), and signed webhook requests as Mercado Pago sends them.
 */
import { createExecutionContext, createMessageBatch, env, getQueueResult } from 'cloudflare:test';
import { vi } from 'vitest';
import type { Bindings } from '../../src/env';
import { PAYMENT_QUEUE_NAME, type PaymentMessage } from '../../src/lib/messages';
import { handlePaymentBatch } from '../../src/queue/payment-consumer';
import { hmacHex, signatureManifest } from '../../src/services/payments/mercadopago';
import { uniq } from './factories';
import { recordRetryDelays } from './queue';
import { send } from './request';
import { MP_TEST_TOKEN } from '../setup/vars';

export interface FakePayment {
  id: string;
  status: string;
  external_reference: string | null;
  transaction_amount: number;
  currency_id?: string;
}

/** Records each call; payments are served from `payments` (mutable: a test changes a payment's status between notifications). */
export function fakeMercadoPago(opts: { answer?: (url: URL, init: RequestInit) => Response | undefined } = {}) {
  const payments = new Map<string, FakePayment>();
  const calls: { method: string; url: URL; headers: Headers; body: any }[] = [];
  const fetchImpl = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input));
    const method = init.method ?? 'GET';
    calls.push({
      method,
      url,
      headers: new Headers(init.headers),
      body: init.body ? JSON.parse(String(init.body)) : undefined,
    });
    const forced = opts.answer?.(url, init);
    if (forced) return forced;
    if (method === 'POST' && url.pathname === '/checkout/preferences') {
      const id = `pref-${uniq()}`;
      return Response.json(
        { id, init_point: `https://www.mercadopago.com.br/checkout/v1/redirect?pref_id=${id}` },
        { status: 201 },
      );
    }
    const m = /^\/v1\/payments\/([^/]+)$/.exec(url.pathname);
    if (method === 'GET' && m) {
      const p = payments.get(decodeURIComponent(m[1]!));
      return p
        ? Response.json({ currency_id: 'BRL', ...p })
        : Response.json({ message: 'Payment not found' }, { status: 404 });
    }
    return Response.json({ message: 'not found' }, { status: 404 });
  }) as unknown as typeof fetch;
  return { payments, calls, fetchImpl };
}

/**
 * Runs the payment consumer on these messages; the pool's result (acked, retried) plus each retry's
 * delay. `bindings` replaces some of the env's (a capturing PUSH_QUEUE).
 */
export async function runPayments(
  messages: PaymentMessage[],
  fetchImpl: typeof fetch,
  now: () => Date = () => new Date(),
  bindings: Partial<Bindings> = {},
) {
  const batch = createMessageBatch<PaymentMessage>(
    PAYMENT_QUEUE_NAME,
    messages.map((body, i) => ({ id: `p-${i}-${uniq()}`, timestamp: new Date(), attempts: 1, body })),
  );
  const delays = recordRetryDelays(batch);
  const ctx = createExecutionContext();
  await handlePaymentBatch(batch, { ...env, MP_ACCESS_TOKEN: MP_TEST_TOKEN, ...bindings }, fetchImpl, now);
  return { ...(await getQueueResult(batch, ctx)), delays, ids: batch.messages.map((m) => m.id) };
}

export const WEBHOOK_SECRET = env.MP_WEBHOOK_SECRET as string;

/** The headers of a notification as Mercado Pago signs it (override any part to tamper with it). */
export async function signedHeaders(
  dataId: string,
  o: { requestId?: string; ts?: number; secret?: string; signId?: string } = {},
) {
  const requestId = o.requestId ?? crypto.randomUUID();
  const ts = String(o.ts ?? Math.floor(Date.now() / 1000));
  const v1 = await hmacHex(o.secret ?? WEBHOOK_SECRET, signatureManifest(o.signId ?? dataId, requestId, ts));
  return { 'x-signature': `ts=${ts},v1=${v1}`, 'x-request-id': requestId };
}

/** POST /webhooks/mercadopago as Mercado Pago sends it (body: the usual payment.updated notification). */
export async function notify(
  dataId: string,
  headers: Record<string, string>,
  o: { body?: unknown; type?: string } = {},
) {
  const qs = new URLSearchParams({ 'data.id': dataId, type: o.type ?? 'payment' });
  const body = o.body ?? {
    action: 'payment.updated',
    api_version: 'v1',
    type: 'payment',
    data: { id: dataId },
    id: Date.now(),
  };
  return send('POST', `/webhooks/mercadopago?${qs}`, {
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}
