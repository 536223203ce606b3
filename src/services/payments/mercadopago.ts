import * as z from 'zod';
import { exactCentavos } from '../../lib/money';
import type { Gateway, GatewayPayment, GatewayResult, PreferenceInput } from './gateway';

/**
 * Mercado Pago behind the Gateway interface (docs/decisions.md#d19): Checkout Pro preferences
 * (`POST /checkout/preferences`) and payment lookup (`GET /v1/payments/{id}`), with the access token
 * as a bearer and a timeout on every call; and the verification of its webhook signature.
 */

const FETCH_TIMEOUT_MS = 10_000;

const errText = (err: unknown) => (err instanceof Error ? `${err.name}: ${err.message}` : String(err));

const PreferenceAnswer = z.object({ id: z.string().min(1), init_point: z.string().url() });
const PaymentAnswer = z.object({
  id: z.union([z.number(), z.string()]).transform(String),
  status: z.string().min(1),
  external_reference: z.string().nullish(),
  transaction_amount: z.number().nonnegative(),
  currency_id: z.string().nullish(),
});

/** One call: a transient failure (network, timeout, 5xx, 429) is `retry`, another refusal `failed`. */
async function call<T>(
  fetchImpl: typeof fetch,
  url: string,
  init: RequestInit,
  parse: (body: unknown) => T | undefined,
): Promise<GatewayResult<T>> {
  let res: Response;
  try {
    res = await fetchImpl(url, { ...init, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  } catch (err) {
    return { kind: 'retry', error: `mercadopago unreachable: ${errText(err)}` };
  }
  const body = await res.json().catch(() => undefined);
  if (res.ok) {
    const value = parse(body);
    return value === undefined
      ? { kind: 'failed', error: `mercadopago answered ${res.status} with an unexpected body` }
      : { kind: 'ok', value };
  }
  const message =
    typeof (body as { message?: unknown })?.message === 'string' ? `: ${(body as { message: string }).message}` : '';
  const detail = `mercadopago answered ${res.status}${message}`;
  if (res.status >= 500 || res.status === 429) {
    const after = Number(res.headers.get('retry-after'));
    return { kind: 'retry', error: detail, after: Number.isFinite(after) && after > 0 ? after : undefined };
  }
  return { kind: 'failed', error: detail, notFound: res.status === 404 };
}

export function mercadoPagoGateway(
  config: { MP_API_URL: string; MP_ACCESS_TOKEN?: string },
  fetchImpl: typeof fetch = fetch,
): Gateway {
  const headers = (extra: Record<string, string> = {}) => ({
    authorization: `Bearer ${config.MP_ACCESS_TOKEN ?? ''}`,
    'content-type': 'application/json',
    ...extra,
  });
  const missingToken = { kind: 'retry', error: 'MP_ACCESS_TOKEN is not set' } as const;
  return {
    async createPreference(p: PreferenceInput) {
      if (!config.MP_ACCESS_TOKEN) return missingToken;
      const body = {
        external_reference: p.pedidoId,
        items: [
          { id: p.pedidoId, title: p.titulo, quantity: 1, currency_id: 'BRL', unit_price: p.valorCentavos / 100 },
        ],
        payer: {
          name: p.comprador.nome,
          email: p.comprador.email,
          identification: { type: 'CPF', number: p.comprador.cpf },
        },
        payment_methods: { installments: p.parcelas },
        // The checkout refuses payments after the order expires (a late one is still handled: docs/guide/payments.md).
        expires: true,
        expiration_date_to: p.expiraEm,
      };
      return call(
        fetchImpl,
        `${config.MP_API_URL}/checkout/preferences`,
        // The order id as idempotency key: a retried call does not make a second checkout.
        { method: 'POST', headers: headers({ 'x-idempotency-key': p.pedidoId }), body: JSON.stringify(body) },
        (b) => {
          const parsed = PreferenceAnswer.safeParse(b);
          return parsed.success ? { id: parsed.data.id, url: parsed.data.init_point } : undefined;
        },
      );
    },
    async getPayment(id: string) {
      if (!config.MP_ACCESS_TOKEN) return missingToken;
      return call<GatewayPayment>(
        fetchImpl,
        `${config.MP_API_URL}/v1/payments/${encodeURIComponent(id)}`,
        { method: 'GET', headers: headers() },
        (b) => {
          const parsed = PaymentAnswer.safeParse(b);
          if (!parsed.success) return undefined;
          const d = parsed.data;
          return {
            id: d.id,
            status: d.status,
            externalReference: d.external_reference ?? null,
            valor: d.transaction_amount,
            valorCentavos: exactCentavos(d.transaction_amount),
            moeda: d.currency_id ?? 'BRL',
          };
        },
      );
    },
  };
}

// --- Webhook signature ---------------------------------------------------------------------------

/** Notifications signed more than this long ago (or ahead) are refused: a captured request cannot be replayed later. */
export const SIGNATURE_TOLERANCE_MS = 5 * 60 * 1000;

const enc = new TextEncoder();

const hmacKeys = new Map<string, Promise<CryptoKey>>();
function hmacKey(secret: string) {
  let key = hmacKeys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey('raw', enc.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    if (hmacKeys.size >= 4) hmacKeys.clear(); // a rotated secret must not pin the old keys
    hmacKeys.set(secret, key);
  }
  return key;
}

const toHex = (buf: ArrayBuffer) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, '0')).join('');

/** HMAC-SHA256 of `message` with `secret`, lowercase hex (also what scripts/fake-mercadopago.ts signs with). */
export async function hmacHex(secret: string, message: string) {
  return toHex(await crypto.subtle.sign('HMAC', await hmacKey(secret), enc.encode(message)));
}

/**
 * Mercado Pago's manifest: `id:<data.id>;request-id:<x-request-id>;ts:<ts>;`, data.id as the query
 * string carries it, lowercased (alphanumeric ids are signed in lowercase). A part whose value the
 * notification lacks is left out, as Mercado Pago's documentation says.
 */
export function signatureManifest(dataId: string, requestId: string | undefined, ts: string) {
  return `id:${dataId.toLowerCase()};${requestId ? `request-id:${requestId};` : ''}ts:${ts};`;
}

/** `ts=<ts>,v1=<hex>` (in any order, spaces tolerated), or undefined when malformed. */
export function parseSignatureHeader(header: string | undefined) {
  if (!header) return undefined;
  let ts: string | undefined;
  let v1: string | undefined;
  for (const part of header.split(',')) {
    const [k, ...rest] = part.split('=');
    const key = k?.trim();
    const value = rest.join('=').trim();
    if (key === 'ts') ts = value;
    else if (key === 'v1') v1 = value.toLowerCase();
  }
  if (!ts || !/^\d{1,16}$/.test(ts) || !v1 || !/^[0-9a-f]{64}$/.test(v1)) return undefined;
  return { ts, v1 };
}

/** `ts` in milliseconds: Mercado Pago sends seconds; a 13-digit value is read as milliseconds. */
const tsMillis = (ts: string) => (ts.length >= 13 ? Number(ts) : Number(ts) * 1000);

export type SignatureCheck = { ok: true; manifest: string } | { ok: false; reason: string };

/**
 * Verifies a notification: the HMAC of the manifest compared in constant time, then the timestamp
 * within SIGNATURE_TOLERANCE_MS of `now`. The body is not signed and not read here.
 */
export async function verifyWebhookSignature(opts: {
  secret: string | undefined;
  header: string | undefined;
  requestId: string | undefined;
  dataId: string | undefined;
  now: Date;
}): Promise<SignatureCheck> {
  if (!opts.secret) return { ok: false, reason: 'MP_WEBHOOK_SECRET is not set' };
  const parsed = parseSignatureHeader(opts.header);
  if (!parsed) return { ok: false, reason: 'missing or malformed x-signature' };
  if (!opts.dataId || !/^[0-9A-Za-z_-]{1,64}$/.test(opts.dataId)) return { ok: false, reason: 'missing data.id' };
  const manifest = signatureManifest(opts.dataId, opts.requestId, parsed.ts);
  const expected = enc.encode(await hmacHex(opts.secret, manifest));
  const given = enc.encode(parsed.v1);
  // Both are 64 hex characters (parseSignatureHeader): equal lengths, so the comparison is constant time.
  if (
    !(crypto.subtle as unknown as { timingSafeEqual(a: ArrayBufferView, b: ArrayBufferView): boolean }).timingSafeEqual(
      expected,
      given,
    )
  )
    return { ok: false, reason: 'signature mismatch' };
  if (Math.abs(opts.now.getTime() - tsMillis(parsed.ts)) > SIGNATURE_TOLERANCE_MS)
    return { ok: false, reason: 'timestamp outside the tolerance' };
  return { ok: true, manifest };
}
