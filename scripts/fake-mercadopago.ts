/**
 * A local stand-in for Mercado Pago, so that an order goes from `pendente` to `pago` on `npm run dev`
 * without an account (docs/guide/payments.md). Nothing leaves the machine.
 *
 *   npm run fake:mercadopago                      serves the fake on :8790 (MP_API_URL of .dev.vars)
 *   npm run fake:mercadopago -- pay <pedido_id> [approved|rejected]
 *                                                 pays the order's checkout: creates the payment and sends
 *                                                 the worker a signed notification, as Mercado Pago does
 *                                                 (again on a paid order: a second payment, which the
 *                                                 worker records as a duplicate to refund, order unchanged)
 *   npm run fake:mercadopago -- refund <payment_id> [refunded|charged_back]
 *   npm run fake:mercadopago -- notify <payment_id>  only sends a signed notification
 *
 * Options: --port (8790), --api (the worker, http://localhost:8787), --secret (MP_WEBHOOK_SECRET of
 * .dev.vars). The server serves what the payment consumer calls: POST /checkout/preferences and
 * GET /v1/payments/{id}; the commands talk to the server's /_fake/* endpoints. Opening a checkout url
 * (init_point) in a browser shows a page with "approve" and "reject" links that do the same as `pay`.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { CliError, fail, readDevVars, ROOT } from './lib.ts';

interface Preference {
  id: string;
  external_reference: string;
  amount: number;
  title: string;
}
interface Payment {
  id: string;
  status: string;
  external_reference: string;
  transaction_amount: number;
  currency_id: 'BRL';
  date_created: string;
}

function options(argv: string[]) {
  const vars = existsSync(path.join(ROOT, '.dev.vars')) ? readDevVars(path.join(ROOT, '.dev.vars')) : {};
  const rest: string[] = [];
  const opts = { port: 8790, api: 'http://localhost:8787', secret: vars.MP_WEBHOOK_SECRET ?? '' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--port') opts.port = Number(argv[++i]);
    else if (a === '--api') opts.api = argv[++i]!.replace(/\/+$/, '');
    else if (a === '--secret') opts.secret = argv[++i]!;
    else rest.push(a);
  }
  if (!Number.isInteger(opts.port) || opts.port <= 0) throw new CliError('--port needs a port number');
  return { ...opts, rest };
}

/** Mercado Pago's signature: HMAC-SHA256 of `id:<data.id>;request-id:<x-request-id>;ts:<ts>;` (the worker checks it). */
export function signNotification(secret: string, dataId: string, now = Date.now()) {
  const requestId = randomUUID();
  const ts = String(Math.floor(now / 1000));
  const v1 = createHmac('sha256', secret)
    .update(`id:${dataId.toLowerCase()};request-id:${requestId};ts:${ts};`)
    .digest('hex');
  return { 'x-signature': `ts=${ts},v1=${v1}`, 'x-request-id': requestId };
}

async function sendNotification(api: string, secret: string, paymentId: string) {
  if (!secret)
    throw new CliError('no webhook secret: set MP_WEBHOOK_SECRET in .dev.vars (npm run dev adds one) or pass --secret');
  const url = `${api}/webhooks/mercadopago?data.id=${encodeURIComponent(paymentId)}&type=payment`;
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...signNotification(secret, paymentId) },
    body: JSON.stringify({ action: 'payment.updated', type: 'payment', data: { id: paymentId } }),
  });
  console.log(`POST ${url} → ${res.status} ${await res.text()}`);
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

async function readJson(req: IncomingMessage): Promise<any> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text ? JSON.parse(text) : {};
}

function serve(port: number, api: string, secret: string) {
  const preferences = new Map<string, Preference>();
  const payments = new Map<string, Payment>();
  let nextPayment = 1_000_000_000 + Math.floor(Math.random() * 1_000_000);
  const base = `http://localhost:${port}`;

  /** Pays the latest checkout of an order (or changes a payment) and notifies the worker. */
  async function pay(ref: string, status: string) {
    const pref = [...preferences.values()].reverse().find((p) => p.external_reference === ref);
    if (!pref) return undefined;
    const payment: Payment = {
      id: String(nextPayment++),
      status,
      external_reference: ref,
      transaction_amount: pref.amount,
      currency_id: 'BRL',
      date_created: new Date().toISOString(),
    };
    payments.set(payment.id, payment);
    await sendNotification(api, secret, payment.id);
    return payment;
  }

  createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', base);
      console.log(`${req.method} ${url.pathname}${url.search}`);
      if (req.method === 'POST' && url.pathname === '/checkout/preferences') {
        if (!req.headers.authorization?.startsWith('Bearer ')) return json(res, 401, { message: 'no access token' });
        const body = await readJson(req);
        const item = body.items?.[0];
        const id = `fake-pref-${randomUUID()}`;
        preferences.set(id, {
          id,
          external_reference: String(body.external_reference),
          amount: Number(item?.unit_price) * Number(item?.quantity ?? 1),
          title: String(item?.title ?? ''),
        });
        return json(res, 201, {
          id,
          init_point: `${base}/checkout/${id}`,
          external_reference: body.external_reference,
        });
      }
      const payment = /^\/v1\/payments\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'GET' && payment) {
        const p = payments.get(decodeURIComponent(payment[1]!));
        return p ? json(res, 200, p) : json(res, 404, { message: 'Payment not found', status: 404 });
      }
      const checkout = /^\/checkout\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'GET' && checkout) {
        const pref = preferences.get(checkout[1]!);
        if (!pref) return json(res, 404, { message: 'preference not found' });
        const status = url.searchParams.get('status');
        if (status === 'approved' || status === 'rejected') {
          const p = await pay(pref.external_reference, status);
          return json(res, 200, { paid: p });
        }
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return res.end(
          `<!doctype html><meta charset="utf-8"><h1>Mercado Pago (fake local)</h1><p>${pref.title}: R$ ${pref.amount.toFixed(2)}</p>` +
            `<p><a href="?status=approved">Aprovar pagamento</a> · <a href="?status=rejected">Recusar</a></p>`,
        );
      }
      if (req.method === 'POST' && url.pathname === '/_fake/pay') {
        const { pedido_id, status } = await readJson(req);
        const p = await pay(String(pedido_id), String(status ?? 'approved'));
        return p ? json(res, 200, p) : json(res, 404, { message: 'no checkout for this order yet' });
      }
      if (req.method === 'POST' && url.pathname === '/_fake/refund') {
        const { payment_id, status } = await readJson(req);
        const p = payments.get(String(payment_id));
        if (!p) return json(res, 404, { message: 'payment not found' });
        p.status = String(status ?? 'refunded');
        await sendNotification(api, secret, p.id);
        return json(res, 200, p);
      }
      return json(res, 404, { message: 'not found' });
    } catch (err) {
      console.error(err);
      return json(res, 500, { message: String(err) });
    }
  }).listen(port, '127.0.0.1', () =>
    console.log(`Fake Mercado Pago on ${base} (notifies ${api}/webhooks/mercadopago). Ctrl-C stops it.`),
  );
}

async function command(port: number, route: string, body: unknown) {
  const res = await fetch(`http://localhost:${port}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).catch(() => {
    throw new CliError(`the fake is not running on port ${port}: start it with npm run fake:mercadopago`);
  });
  console.log(`${res.status} ${await res.text()}`);
  if (!res.ok) process.exitCode = 1;
}

async function main() {
  const { port, api, secret, rest } = options(process.argv.slice(2));
  const [cmd, arg, status] = rest;
  if (!cmd || cmd === 'serve') return serve(port, api, secret);
  if (!arg) throw new CliError(`${cmd} needs an id`);
  if (cmd === 'pay') return command(port, '/_fake/pay', { pedido_id: arg, status: status ?? 'approved' });
  if (cmd === 'refund') return command(port, '/_fake/refund', { payment_id: arg, status: status ?? 'refunded' });
  if (cmd === 'notify') return sendNotification(api, secret, arg);
  throw new CliError(`unknown command ${cmd} (serve, pay, refund, notify)`);
}

main().catch(fail);
