import { env } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  categoriasFinanceiras,
  empresas,
  lancamentos,
  pagamentoNotificacoes,
  pagamentosDuplicados,
  pedidos,
} from '../../../src/db/schema';
import type { PushMessage } from '../../../src/lib/messages';
import { runScheduled } from '../../../src/scheduled';
import { expirarPedidos, requeuePayments } from '../../../src/scheduled/pedidos';
import {
  db,
  makeAdmin,
  makeFot,
  makeUser,
  systemCategoryId,
  uniq,
  type TestUser,
  makePacote,
  makeRegionAdmin,
} from '../../helpers/factories';
import { capturingQueue } from '../../helpers/queue';
import { entriesOf } from '../../helpers/activity-log';
import { fakeMercadoPago, notify, runPayments, signedHeaders } from '../../helpers/mercadopago';
import { api, expectError, send, UNKNOWN_ID } from '../../helpers/request';
import { expectPageTotal, keptCountsAfterAll } from '../../helpers/kept-columns';
import { hmacHex, signatureManifest, verifyWebhookSignature } from '../../../src/services/payments/mercadopago';
import { MP_TEST_TOKEN } from '../../setup/vars';

const CPF = '529.982.247-25';

// Page totals come from counts kept by triggers (drizzle/0032): checked after the file.
keptCountsAfterAll('pedidos');
keptCountsAfterAll('pacotes');

const orderBody = (fotId: string, pacoteId: string, over: Record<string, unknown> = {}) => ({
  fot_id: fotId,
  pacote_id: pacoteId,
  comprador_nome: 'Maria da Silva',
  comprador_email: 'Maria@Example.com',
  comprador_cpf: CPF,
  parcelas: 3,
  ...over,
});

/** POST /api/pedidos; `key` null sends no Idempotency-Key. */
function order(user: TestUser, body: unknown, key: string | null = uniq('k'), regiao = 'SP') {
  return api('POST', '/api/pedidos', {
    token: user.token,
    regiao,
    body,
    headers: { 'idempotency-key': key },
  });
}

async function world(regiao = 'SP') {
  const admin = await makeAdmin();
  const fot = await makeFot(regiao);
  const pacote = await makePacote(regiao);
  return { admin, fot, pacote };
}

/** A pendente order straight through the API; its row. */
async function placeOrder(w: Awaited<ReturnType<typeof world>>, over: Record<string, unknown> = {}) {
  const res = await order(w.admin, orderBody(w.fot.id, w.pacote.id, over));
  expect(res.status).toBe(201);
  return res.body as { id: string; valor: number };
}

const rowOf = async (id: string) => (await db.select().from(pedidos).where(eq(pedidos.id, id)))[0]!;

describe('packages (/api/pacotes)', () => {
  it('an administrator creates, reads, changes and deletes a package; each write is logged', async () => {
    const admin = await makeAdmin();
    const created = await api('POST', '/api/pacotes', {
      token: admin.token,
      body: { nome: '  Álbum 30 fotos ', descricao: 'Capa dura', preco: 890.5, parcelas_max: 10 },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      nome: 'Álbum 30 fotos',
      preco: 890.5,
      parcelas_max: 10,
      ativo: true,
      regiao: 'SP',
    });
    const id = created.body.id;
    expect((await api('GET', `/api/pacotes/${id}`, { token: admin.token })).body.preco).toBe(890.5);
    const changed = await api('PUT', `/api/pacotes/${id}`, { token: admin.token, body: { preco: 990, ativo: false } });
    expect(changed.body).toMatchObject({ preco: 990, ativo: false, nome: 'Álbum 30 fotos' });
    expect((await api('DELETE', `/api/pacotes/${id}`, { token: admin.token })).status).toBe(204);
    expectError(await api('GET', `/api/pacotes/${id}`, { token: admin.token }), 404, 'NOT_FOUND');
    const acoes = (await entriesOf(id)).map((e) => e.acao);
    expect(acoes).toEqual(['pacotes.delete', 'pacotes.update', 'pacotes.create']);
  });

  it('any active user reads the active packages of the region; administrators also the inactive ones', async () => {
    const admin = await makeAdmin();
    const viewer = await makeUser({ role: 'profissional' });
    const active = await makePacote('MG');
    const inactive = await makePacote('MG', { ativo: false });
    const seen = await api('GET', '/api/pacotes', { token: viewer.token, regiao: 'MG' });
    expect(seen.status).toBe(200);
    const ids = seen.body.map((p: { id: string }) => p.id);
    expect(ids).toContain(active.id);
    expect(ids).not.toContain(inactive.id);
    expect(Number(seen.headers.get('x-total-count'))).toBe(seen.body.length);
    expectError(
      await api('GET', `/api/pacotes/${inactive.id}`, { token: viewer.token, regiao: 'MG' }),
      404,
      'NOT_FOUND',
    );
    const all = await api('GET', '/api/pacotes?ativo=false&limit=500', { token: admin.token, regiao: 'MG' });
    expect(all.body.map((p: { id: string }) => p.id)).toContain(inactive.id);
    expect(all.body.every((p: { ativo: boolean }) => !p.ativo)).toBe(true);
  });

  it("the page totals (all, active; an administrator's and a client's) follow creation, (de)activation and deletion", async () => {
    const admin = await makeAdmin();
    const viewer = await makeUser({ role: 'profissional' });
    const totals = async () => [
      await expectPageTotal('/api/pacotes', { token: admin.token, regiao: 'MG' }),
      await expectPageTotal('/api/pacotes?ativo=true', { token: admin.token, regiao: 'MG' }),
      await expectPageTotal('/api/pacotes', { token: viewer.token, regiao: 'MG' }),
    ];
    const [all, active] = await totals();
    const created = await api('POST', '/api/pacotes', {
      token: admin.token,
      regiao: 'MG',
      body: { nome: uniq('Álbum'), preco: 100, parcelas_max: 1 },
    });
    expect(created.status).toBe(201);
    expect(await totals()).toEqual([all! + 1, active! + 1, active! + 1]);
    const path = `/api/pacotes/${created.body.id}`;
    expect((await api('PUT', path, { token: admin.token, regiao: 'MG', body: { ativo: false } })).status).toBe(200);
    expect(await totals()).toEqual([all! + 1, active, active]);
    expect((await api('PUT', path, { token: admin.token, regiao: 'MG', body: { ativo: true } })).status).toBe(200);
    expect((await api('DELETE', path, { token: admin.token, regiao: 'MG' })).status).toBe(204);
    expect(await totals()).toEqual([all, active, active]);
  });

  it('refuses invalid bodies and ids, other regions and unknown ids', async () => {
    const admin = await makeAdmin();
    const p = await makePacote('SP');
    for (const body of [
      { nome: 'X', preco: 0 },
      { nome: 'X', preco: 10.001 },
      { nome: 'X', preco: 10, parcelas_max: 13 },
      { nome: 'X', preco: 10, parcelas_max: 0 },
      { nome: '', preco: 10 },
      { preco: 10 },
      { nome: 'a\u0000b', preco: 10 },
    ])
      expectError(await api('POST', '/api/pacotes', { token: admin.token, body }), 400, 'VALIDATION_FAILED');
    expectError(await api('GET', '/api/pacotes/nope', { token: admin.token }), 400, 'INVALID_ID');
    expectError(await api('GET', `/api/pacotes/${p.id}`, { token: admin.token, regiao: 'MG' }), 404, 'NOT_FOUND');
    expectError(
      await api('PUT', `/api/pacotes/${p.id}`, { token: admin.token, regiao: 'MG', body: { preco: 1 } }),
      404,
      'NOT_FOUND',
    );
    expectError(await api('DELETE', `/api/pacotes/${UNKNOWN_ID}`, { token: admin.token }), 404, 'NOT_FOUND');
    expectError(
      await api('PUT', `/api/pacotes/${p.id}`, { token: admin.token, body: { parcelas_max: 20 } }),
      400,
      'VALIDATION_FAILED',
    );
  });

  it('a package with orders cannot be deleted (409 IN_USE) and nothing is logged', async () => {
    const w = await world();
    await placeOrder(w);
    expectError(await api('DELETE', `/api/pacotes/${w.pacote.id}`, { token: w.admin.token }), 409, 'IN_USE');
    expect((await entriesOf(w.pacote.id, 'pacotes.delete')).length).toBe(0);
  });
});

describe('orders (/api/pedidos)', () => {
  it('creates a pendente order with the package price, expira_em after PEDIDO_TTL_SECONDS, url_pagamento null; logged', async () => {
    const w = await world();
    const before = Date.now();
    const res = await order(w.admin, orderBody(w.fot.id, w.pacote.id));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'pendente',
      valor: 890,
      parcelas: 3,
      url_pagamento: null,
      fot_id: w.fot.id,
      pacote_id: w.pacote.id,
      pacote_nome: w.pacote.nome,
      comprador_email: 'maria@example.com',
      comprador_cpf: '52998224725',
      pago_em: null,
    });
    const ttl = Number(env.PEDIDO_TTL_SECONDS) * 1000;
    const expira = Date.parse(res.body.expira_em);
    expect(expira).toBeGreaterThanOrEqual(before + ttl - 1000);
    expect(expira).toBeLessThanOrEqual(Date.now() + ttl + 1000);
    const [entry] = await entriesOf(res.body.id, 'pedidos.create');
    expect(entry?.dados.valor_centavos?.depois).toBe(89_000);
    expect(entry?.dados.comprador_cpf?.depois).toBe('***4725');
    expect((await api('GET', `/api/pedidos/${res.body.id}`, { token: w.admin.token })).body).toEqual(res.body);
  });

  it('the same Idempotency-Key and body answer the same order (200); another body is 409 IDEMPOTENCY_MISMATCH', async () => {
    const w = await world();
    const key = uniq('key');
    const first = await order(w.admin, orderBody(w.fot.id, w.pacote.id), key);
    expect(first.status).toBe(201);
    const again = await order(w.admin, orderBody(w.fot.id, w.pacote.id), key);
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    expectError(
      await order(w.admin, orderBody(w.fot.id, w.pacote.id, { parcelas: 2 }), key),
      409,
      'IDEMPOTENCY_MISMATCH',
    );
    // Keys belong to their caller: another administrator's same key is a new order.
    const other = await makeAdmin();
    expect((await order(other, orderBody(w.fot.id, w.pacote.id), key)).status).toBe(201);
    expect((await entriesOf(first.body.id, 'pedidos.create')).length).toBe(1);
  });

  it('five identical requests racing with one key make one order', async () => {
    const w = await world();
    const key = uniq('race');
    const results = await Promise.all(
      Array.from({ length: 5 }, () => order(w.admin, orderBody(w.fot.id, w.pacote.id), key)),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    const rows = await db
      .select()
      .from(pedidos)
      .where(and(eq(pedidos.criadoPor, w.admin.id), eq(pedidos.idempotencyKey, key)));
    expect(rows.length).toBe(1);
    expect((await entriesOf(rows[0]!.id, 'pedidos.create')).length).toBe(1);
  });

  it('refuses a missing or long Idempotency-Key and invalid bodies', async () => {
    const w = await world();
    const ok = orderBody(w.fot.id, w.pacote.id);
    expectError(await order(w.admin, ok, null), 400, 'VALIDATION_FAILED');
    expectError(await order(w.admin, ok, ''), 400, 'VALIDATION_FAILED');
    expectError(await order(w.admin, ok, 'k'.repeat(65)), 400, 'VALIDATION_FAILED');
    expect((await order(w.admin, ok, 'k'.repeat(64))).status).toBe(201);
    for (const over of [
      { comprador_cpf: '529.982.247-24' },
      { comprador_cpf: '11.222.333/0001-81' },
      { comprador_cpf: '111.111.111-11' },
      { comprador_email: 'nao-e-email' },
      { comprador_nome: '' },
      { parcelas: 0 },
      { parcelas: 13 },
      { fot_id: 'x' },
    ])
      expectError(await order(w.admin, orderBody(w.fot.id, w.pacote.id, over)), 400, 'VALIDATION_FAILED');
    const res = await order(w.admin, orderBody(w.fot.id, w.pacote.id, { parcelas: 11 }));
    expectError(res, 400, 'VALIDATION_FAILED');
    expect(res.body.error).toMatch(/^parcelas: .*10/);
  });

  it('404 for an unknown, other-region or inactive package and an unknown or other-region FOT; nothing stored', async () => {
    const w = await world();
    const mg = await world('MG');
    const inactive = await makePacote('SP', { ativo: false });
    for (const body of [
      orderBody(w.fot.id, UNKNOWN_ID),
      orderBody(w.fot.id, mg.pacote.id),
      orderBody(w.fot.id, inactive.id),
      orderBody(UNKNOWN_ID, w.pacote.id),
      orderBody(mg.fot.id, w.pacote.id),
    ])
      expectError(await order(w.admin, body), 404, 'NOT_FOUND');
    expect((await db.select().from(pedidos).where(eq(pedidos.criadoPor, w.admin.id))).length).toBe(0);
  });

  it("an EVENT_OWNER orders and reads only on its company's FOT records", async () => {
    const w = await world();
    const owner = await makeUser({ role: 'EVENT_OWNER', empresaId: w.fot.empresaId });
    const otherFot = await makeFot('SP');
    const mine = await order(owner, orderBody(w.fot.id, w.pacote.id));
    expect(mine.status).toBe(201);
    expectError(await order(owner, orderBody(otherFot.id, w.pacote.id)), 404, 'NOT_FOUND');
    const foreign = await order(w.admin, orderBody(otherFot.id, w.pacote.id));
    expectError(await api('GET', `/api/pedidos/${foreign.body.id}`, { token: owner.token }), 404, 'NOT_FOUND');
    const list = await api('GET', '/api/pedidos', { token: owner.token });
    const ids = list.body.map((p: { id: string }) => p.id);
    expect(ids).toContain(mine.body.id);
    expect(ids).not.toContain(foreign.body.id);
    const lonely = await makeUser({ role: 'EVENT_OWNER' });
    expect((await api('GET', '/api/pedidos', { token: lonely.token })).body).toEqual([]);
    expectError(await order(lonely, orderBody(w.fot.id, w.pacote.id)), 404, 'NOT_FOUND');
    void empresas;
  });

  it('lists by fot_id and status, newest first, with X-Total-Count and paging', async () => {
    const w = await world();
    const a = await placeOrder(w);
    const b = await placeOrder(w);
    await api('POST', `/api/pedidos/${a.id}/cancelar`, { token: w.admin.token });
    const all = await api('GET', `/api/pedidos?fot_id=${w.fot.id}`, { token: w.admin.token });
    expect(all.body.map((p: { id: string }) => p.id).sort()).toEqual([a.id, b.id].sort());
    expect(all.headers.get('x-total-count')).toBe('2');
    const pend = await api('GET', `/api/pedidos?fot_id=${w.fot.id}&status=pendente`, { token: w.admin.token });
    expect(pend.body.map((p: { id: string }) => p.id)).toEqual([b.id]);
    const page = await api('GET', `/api/pedidos?fot_id=${w.fot.id}&limit=1`, { token: w.admin.token });
    expect(page.body.length).toBe(1);
    expect(page.headers.get('x-total-count')).toBe('2');
    expectError(await api('GET', '/api/pedidos?status=pago2', { token: w.admin.token }), 400, 'VALIDATION_FAILED');
    expectError(await api('GET', '/api/pedidos?fot_id=x', { token: w.admin.token }), 400, 'VALIDATION_FAILED');
    expect((await api('GET', `/api/pedidos?fot_id=${w.fot.id}`, { token: w.admin.token, regiao: 'MG' })).body).toEqual(
      [],
    );
  });

  it("an administrator's page totals (all, by status, by FOT record, by both) follow orders placed and cancelled", async () => {
    const w = await world();
    const paths = [
      '/api/pedidos',
      '/api/pedidos?status=pendente',
      '/api/pedidos?status=cancelado',
      `/api/pedidos?fot_id=${w.fot.id}`,
      `/api/pedidos?fot_id=${w.fot.id}&status=pendente`,
      `/api/pedidos?fot_id=${w.fot.id}&status=cancelado`,
    ];
    const totals = async () => {
      const out: number[] = [];
      for (const p of paths) out.push(await expectPageTotal(p, { token: w.admin.token }));
      return out;
    };
    const [all, pend, canc] = await totals();
    const a = await placeOrder(w);
    await placeOrder(w);
    expect(await totals()).toEqual([all! + 2, pend! + 2, canc, 2, 2, 0]);
    expect((await api('POST', `/api/pedidos/${a.id}/cancelar`, { token: w.admin.token })).status).toBe(200);
    expect(await totals()).toEqual([all! + 2, pend! + 1, canc! + 1, 2, 1, 1]);
  });

  it('get: invalid id 400, unknown 404, other region 404', async () => {
    const w = await world();
    const o = await placeOrder(w);
    expectError(await api('GET', '/api/pedidos/abc', { token: w.admin.token }), 400, 'INVALID_ID');
    expectError(await api('GET', `/api/pedidos/${UNKNOWN_ID}`, { token: w.admin.token }), 404, 'NOT_FOUND');
    expectError(await api('GET', `/api/pedidos/${o.id}`, { token: w.admin.token, regiao: 'MG' }), 404, 'NOT_FOUND');
  });

  it('cancels a pendente order once; then 409 INVALID_STATE; unknown or other region 404', async () => {
    const w = await world();
    const o = await placeOrder(w);
    expectError(
      await api('POST', `/api/pedidos/${o.id}/cancelar`, { token: w.admin.token, regiao: 'MG' }),
      404,
      'NOT_FOUND',
    );
    const done = await api('POST', `/api/pedidos/${o.id}/cancelar`, { token: w.admin.token });
    expect(done.status).toBe(200);
    expect(done.body.status).toBe('cancelado');
    expectError(await api('POST', `/api/pedidos/${o.id}/cancelar`, { token: w.admin.token }), 409, 'INVALID_STATE');
    expectError(await api('POST', `/api/pedidos/${UNKNOWN_ID}/cancelar`, { token: w.admin.token }), 404, 'NOT_FOUND');
    expect((await entriesOf(o.id, 'pedidos.cancelar')).length).toBe(1);
  });
});

describe('checkout creation (payment consumer, preferencia)', () => {
  it('creates the Mercado Pago preference with the order as external_reference and stores init_point once', async () => {
    const w = await world();
    const o = await placeOrder(w);
    const mp = fakeMercadoPago();
    const result = await runPayments([{ kind: 'preferencia', pedidoId: o.id }], mp.fetchImpl);
    expect(result.explicitAcks).toEqual(result.ids);
    expect(mp.calls.length).toBe(1);
    const call = mp.calls[0]!;
    expect(call.url.href).toBe(`${env.MP_API_URL}/checkout/preferences`);
    expect(call.headers.get('authorization')).toBe(`Bearer ${MP_TEST_TOKEN}`);
    expect(call.headers.get('x-idempotency-key')).toBe(o.id);
    expect(call.body).toMatchObject({
      external_reference: o.id,
      items: [{ quantity: 1, currency_id: 'BRL', unit_price: 890, title: w.pacote.nome }],
      payer: { email: 'maria@example.com', identification: { type: 'CPF', number: '52998224725' } },
      payment_methods: { installments: 3 },
      expires: true,
    });
    const got = await api('GET', `/api/pedidos/${o.id}`, { token: w.admin.token });
    expect(got.body.url_pagamento).toMatch(
      /^https:\/\/www\.mercadopago\.com\.br\/checkout\/v1\/redirect\?pref_id=pref-/,
    );
    // The same key again answers the order with its url; a redelivered message calls nobody.
    const again = await runPayments([{ kind: 'preferencia', pedidoId: o.id }], mp.fetchImpl);
    expect(again.explicitAcks).toEqual(again.ids);
    expect(mp.calls.length).toBe(1);
    expect((await entriesOf(o.id, 'pedidos.checkout')).length).toBe(1);
  });

  it('a gateway 500 or timeout retries the message with backoff and leaves the url null; a 400 is acknowledged', async () => {
    const w = await world();
    const o = await placeOrder(w);
    const down = fakeMercadoPago({ answer: () => Response.json({ message: 'boom' }, { status: 500 }) });
    const r1 = await runPayments([{ kind: 'preferencia', pedidoId: o.id }], down.fetchImpl);
    expect(r1.retryMessages.map((m: { msgId: string }) => m.msgId)).toEqual(r1.ids);
    expect(r1.delays[r1.ids[0]!]).toBe(10);
    const unreachable = fakeMercadoPago({
      answer: () => {
        throw new TypeError('fetch failed');
      },
    });
    const r2 = await runPayments([{ kind: 'preferencia', pedidoId: o.id }], unreachable.fetchImpl);
    expect(r2.retryMessages.length).toBe(1);
    const refused = fakeMercadoPago({ answer: () => Response.json({ message: 'invalid token' }, { status: 401 }) });
    const r3 = await runPayments([{ kind: 'preferencia', pedidoId: o.id }], refused.fetchImpl);
    expect(r3.explicitAcks).toEqual(r3.ids);
    expect((await rowOf(o.id)).urlPagamento).toBeNull();
  });
});

/** The finance entries of an order: its revenue entry (chave_externa pedido:<id>) and the mirror of it. */
async function financeOf(orderId: string) {
  const receitas = await db
    .select({ l: lancamentos, categoria: categoriasFinanceiras.label })
    .from(lancamentos)
    .innerJoin(categoriasFinanceiras, eq(categoriasFinanceiras.id, lancamentos.categoriaId))
    .where(eq(lancamentos.chaveExterna, `pedido:${orderId}`));
  const mirrors = receitas.length
    ? await db.select().from(lancamentos).where(eq(lancamentos.estornoDe, receitas[0]!.l.id))
    : [];
  return { receitas, mirrors };
}

const notificationsOf = (pagamentoId: string) =>
  db.select().from(pagamentoNotificacoes).where(eq(pagamentoNotificacoes.pagamentoId, pagamentoId));

/** A notification of payment `payId` sent to the webhook (signed, through HTTP); the id it was recorded with. */
async function notifiedOf(payId: string) {
  const requestId = crypto.randomUUID();
  expect((await notify(payId, await signedHeaders(payId, { requestId }))).status).toBe(200);
  const rows = await notificationsOf(payId);
  return rows.find((n) => n.chave.includes(`request-id:${requestId};`))!.id;
}

describe('POST /webhooks/mercadopago (signature)', () => {
  it('a correctly signed notification is recorded once, logged, and answered 200; the body is not part of it', async () => {
    const payId = String(Date.now()) + Math.floor(Math.random() * 1000);
    const headers = await signedHeaders(payId);
    const res = await notify(payId, headers);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: 'recebida' });
    const [row] = await notificationsOf(payId);
    expect(row).toMatchObject({ status: 'recebida', provedor: 'mercadopago' });
    expect(row!.chave).toBe(
      `id:${payId};request-id:${headers['x-request-id']};ts:${headers['x-signature'].slice(3, 13)};`,
    );
    expect((await entriesOf(row!.id, 'pagamentos.notificacao')).length).toBe(1);
    // The same signed request with another body (a tampered amount): the body is never trusted nor
    // signed, so this is the same notification, recorded once.
    const tampered = await notify(payId, headers, { body: { data: { id: '999' }, transaction_amount: 0.01 } });
    expect(tampered.status).toBe(200);
    expect((await notificationsOf(payId)).length).toBe(1);
  });

  it('alphanumeric data.id is signed lowercased', async () => {
    const payId = `ABC${Date.now()}`;
    const headers = await signedHeaders(payId, { signId: payId.toLowerCase() });
    expect((await notify(payId, headers)).status).toBe(200);
    expect((await notificationsOf(payId)).length).toBe(1);
  });

  it('refuses with 401 INVALID_SIGNATURE and no effect: tampered id, wrong secret, old or future ts, missing or malformed header', async () => {
    const payId = `9${Date.now()}`;
    const now = Math.floor(Date.now() / 1000);
    const good = await signedHeaders(payId);
    const cases: Record<string, string>[] = [
      await signedHeaders(payId, { signId: `${payId}1` }), // signed for another payment
      await signedHeaders(payId, { secret: 'another-secret' }),
      await signedHeaders(payId, { ts: now - 6 * 60 }),
      await signedHeaders(payId, { ts: now + 6 * 60 }),
      { ...good, 'x-request-id': crypto.randomUUID() }, // another request id than signed
      { 'x-request-id': good['x-request-id'] }, // no signature
      { ...good, 'x-signature': 'v1=abc' },
      { ...good, 'x-signature': `ts=${now},v1=${'z'.repeat(64)}` },
      { ...good, 'x-signature': 'garbage' },
    ];
    for (const headers of cases) {
      const res = await notify(payId, headers);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: 'INVALID_SIGNATURE' });
    }
    // Without data.id in the query string there is nothing signed to check.
    const noId = await send('POST', '/webhooks/mercadopago?type=payment', { headers: good });
    expect(noId.status).toBe(401);
    expect((await notificationsOf(payId)).length).toBe(0);
  });

  it('five identical notifications at once (a replay) are recorded once', async () => {
    const payId = `7${Date.now()}`;
    const headers = await signedHeaders(payId);
    const results = await Promise.all(Array.from({ length: 5 }, () => notify(payId, headers)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect((await notificationsOf(payId)).length).toBe(1);
  });

  it('a signed notification of another kind (merchant_order) is answered 200 and not recorded', async () => {
    const id = `5${Date.now()}`;
    const res = await notify(id, await signedHeaders(id), { type: 'merchant_order' });
    expect(res.status).toBe(200);
    expect((await notificationsOf(id)).length).toBe(0);
  });
});

describe('verifyWebhookSignature (injected clock)', () => {
  it('accepts within 5 minutes of ts and refuses beyond, in seconds or milliseconds', async () => {
    const ts = 1_704_908_010;
    const sign = async (t: string) => `ts=${t},v1=${await hmacHex('s3cr3t', signatureManifest('123', 'req-1', t))}`;
    const check = (header: string, now: number) =>
      verifyWebhookSignature({ secret: 's3cr3t', header, requestId: 'req-1', dataId: '123', now: new Date(now) });
    const header = await sign(String(ts));
    expect((await check(header, ts * 1000 + 299_000)).ok).toBe(true);
    expect((await check(header, ts * 1000 - 299_000)).ok).toBe(true);
    expect(await check(header, ts * 1000 + 301_000)).toEqual({ ok: false, reason: 'timestamp outside the tolerance' });
    const ms = await sign(String(ts * 1000));
    expect((await check(ms, ts * 1000 + 60_000)).ok).toBe(true);
    expect(
      await verifyWebhookSignature({
        secret: undefined,
        header,
        requestId: 'req-1',
        dataId: '123',
        now: new Date(ts * 1000),
      }),
    ).toEqual({ ok: false, reason: 'MP_WEBHOOK_SECRET is not set' });
    // The manifest drops a part the notification lacks (Mercado Pago's rule).
    expect(signatureManifest('AbC', undefined, '1')).toBe('id:abc;ts:1;');
  });
});

describe('payments (payment consumer, notificacao)', () => {
  /** An order, and a notification of payment `payId` as the webhook records it. */
  async function paidSetup() {
    const w = await world();
    const o = await placeOrder(w);
    const mp = fakeMercadoPago();
    const payId = `${Date.now()}${Math.floor(Math.random() * 1e6)}`;
    mp.payments.set(payId, { id: payId, status: 'approved', external_reference: o.id, transaction_amount: 890 });
    return { w, o, mp, payId };
  }
  async function notified(payId: string) {
    expect((await notify(payId, await signedHeaders(payId))).status).toBe(200);
    const rows = await notificationsOf(payId);
    return rows.sort((a, b) => a.createdAt.localeCompare(b.createdAt)).at(-1)!.id;
  }

  it('approved, the right order and amount: the order is pago, logged once; the notification processada', async () => {
    const { w, o, mp, payId } = await paidSetup();
    const n = await notified(payId);
    const r = await runPayments([{ kind: 'notificacao', notificacaoId: n }], mp.fetchImpl);
    expect(r.explicitAcks).toEqual(r.ids);
    expect(mp.calls.map((c) => `${c.method} ${c.url.pathname}`)).toEqual([`GET /v1/payments/${payId}`]);
    const got = await api('GET', `/api/pedidos/${o.id}`, { token: w.admin.token });
    expect(got.body.status).toBe('pago');
    expect(got.body.pago_em).not.toBeNull();
    expect((await rowOf(o.id)).pagamentoId).toBe(payId);
    expect((await entriesOf(o.id, 'pedidos.pago')).length).toBe(1);
    expect((await notificationsOf(payId))[0]).toMatchObject({ status: 'processada', pedidoId: o.id });
    const { receitas, mirrors } = await financeOf(o.id);
    expect(receitas.length).toBe(1);
    expect(receitas[0]!.categoria).toBe('Pacotes de fotos');
    expect(receitas[0]!.l).toMatchObject({
      tipo: 'receita',
      origem: 'pedido',
      status: 'pago',
      valorCentavos: 89_000,
      fotId: w.fot.id,
      regiao: 'SP',
    });
    expect(receitas[0]!.l.id).toBe((await rowOf(o.id)).lancamentoId);
    expect(mirrors).toEqual([]);
    expect((await entriesOf(receitas[0]!.l.id, 'lancamentos.create')).length).toBe(1);
    // The same message again: the notification is settled, nothing is read or changed.
    await runPayments([{ kind: 'notificacao', notificacaoId: n }], mp.fetchImpl);
    expect(mp.calls.length).toBe(1);
  });

  it('five notifications of one approved payment processed at once pay the order once', async () => {
    const { o, mp, payId } = await paidSetup();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await notified(payId));
    expect(new Set(ids).size).toBe(5);
    await Promise.all(ids.map((id) => runPayments([{ kind: 'notificacao', notificacaoId: id }], mp.fetchImpl)));
    expect((await rowOf(o.id)).status).toBe('pago');
    expect((await entriesOf(o.id, 'pedidos.pago')).length).toBe(1);
    expect((await notificationsOf(payId)).every((n) => n.status === 'processada')).toBe(true);
    expect((await financeOf(o.id)).receitas.length).toBe(1);
  });

  it('an amount mismatch pays nothing and is logged once (D15)', async () => {
    const { o, mp, payId } = await paidSetup();
    mp.payments.get(payId)!.transaction_amount = 8.9;
    const n = await notified(payId);
    await runPayments([{ kind: 'notificacao', notificacaoId: n }], mp.fetchImpl);
    await runPayments([{ kind: 'notificacao', notificacaoId: n }], mp.fetchImpl);
    expect((await rowOf(o.id)).status).toBe('pendente');
    const [entry, ...more] = await entriesOf(o.id, 'pedidos.pagamento_divergente');
    expect(more.length).toBe(0);
    expect(entry?.dados.valor_centavos).toEqual({ antes: 89_000, depois: 890 });
    expect((await notificationsOf(payId))[0]?.status).toBe('divergente');
    expect((await financeOf(o.id)).receitas).toEqual([]);
    // Another currency with the same figure is a mismatch too.
    mp.payments.get(payId)!.transaction_amount = 890;
    mp.payments.get(payId)!.currency_id = 'ARS';
    await runPayments([{ kind: 'notificacao', notificacaoId: await notified(payId) }], mp.fetchImpl);
    expect((await rowOf(o.id)).status).toBe('pendente');
  });

  it('a gateway 500 retries the message and leaves the notification recebida; a 404 ignores it', async () => {
    const { o, payId } = await paidSetup();
    const n = await notified(payId);
    const down = fakeMercadoPago({
      answer: () => Response.json({ message: 'x' }, { status: 503, headers: { 'retry-after': '30' } }),
    });
    const r = await runPayments([{ kind: 'notificacao', notificacaoId: n }], down.fetchImpl);
    expect(r.retryMessages.length).toBe(1);
    expect(r.delays[r.ids[0]!]).toBe(30);
    expect((await notificationsOf(payId))[0]?.status).toBe('recebida');
    const unknown = fakeMercadoPago();
    await runPayments([{ kind: 'notificacao', notificacaoId: n }], unknown.fetchImpl);
    expect((await notificationsOf(payId))[0]?.status).toBe('ignorada');
    expect((await rowOf(o.id)).status).toBe('pendente');
  });

  it('a payment of another reference (not one of our orders) is ignored', async () => {
    const { mp, payId } = await paidSetup();
    mp.payments.get(payId)!.external_reference = 'pedido-de-outro-sistema';
    await runPayments([{ kind: 'notificacao', notificacaoId: await notified(payId) }], mp.fetchImpl);
    expect((await notificationsOf(payId))[0]?.status).toBe('ignorada');
  });

  it('pending and rejected payments leave the order pendente', async () => {
    const { o, mp, payId } = await paidSetup();
    for (const status of ['pending', 'in_process', 'rejected']) {
      mp.payments.get(payId)!.status = status;
      await runPayments([{ kind: 'notificacao', notificacaoId: await notified(payId) }], mp.fetchImpl);
    }
    expect((await rowOf(o.id)).status).toBe('pendente');
  });

  it('refunded after approved: estornado, each step logged once', async () => {
    const { o, mp, payId } = await paidSetup();
    await runPayments([{ kind: 'notificacao', notificacaoId: await notified(payId) }], mp.fetchImpl);
    mp.payments.get(payId)!.status = 'refunded';
    await runPayments([{ kind: 'notificacao', notificacaoId: await notified(payId) }], mp.fetchImpl);
    await runPayments([{ kind: 'notificacao', notificacaoId: await notified(payId) }], mp.fetchImpl);
    const row = await rowOf(o.id);
    expect(row.status).toBe('estornado');
    expect(row.estornadoEm).not.toBeNull();
    expect((await entriesOf(o.id, 'pedidos.pago')).length).toBe(1);
    expect((await entriesOf(o.id, 'pedidos.estornar')).length).toBe(1);
    const { receitas, mirrors } = await financeOf(o.id);
    expect(receitas.map((r) => r.l.status)).toEqual(['estornado']);
    expect(mirrors.length).toBe(1);
    expect(mirrors[0]).toMatchObject({ tipo: 'despesa', origem: 'estorno', status: 'pago', valorCentavos: 89_000 });
  });

  it('five refund notifications at once after payment: one reversal, one mirror', async () => {
    const { o, mp, payId } = await paidSetup();
    await runPayments([{ kind: 'notificacao', notificacaoId: await notified(payId) }], mp.fetchImpl);
    mp.payments.get(payId)!.status = 'refunded';
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await notified(payId));
    await Promise.all(ids.map((id) => runPayments([{ kind: 'notificacao', notificacaoId: id }], mp.fetchImpl)));
    expect((await rowOf(o.id)).status).toBe('estornado');
    const { receitas, mirrors } = await financeOf(o.id);
    expect(receitas.length).toBe(1);
    expect(mirrors.length).toBe(1);
  });

  it('out of order: the approval processed after the refund (the gateway says refunded) ends estornado', async () => {
    const { o, mp, payId } = await paidSetup();
    const approvedNote = await notified(payId); // sent when it was approved...
    mp.payments.get(payId)!.status = 'charged_back';
    const refundNote = await notified(payId);
    // ...but the refund's notification is processed first.
    await runPayments([{ kind: 'notificacao', notificacaoId: refundNote }], mp.fetchImpl);
    expect((await rowOf(o.id)).status).toBe('estornado');
    await runPayments([{ kind: 'notificacao', notificacaoId: approvedNote }], mp.fetchImpl);
    expect((await rowOf(o.id)).status).toBe('estornado');
    // Even a stale "approved" read never moves it back.
    mp.payments.get(payId)!.status = 'approved';
    await runPayments([{ kind: 'notificacao', notificacaoId: await notified(payId) }], mp.fetchImpl);
    expect((await rowOf(o.id)).status).toBe('estornado');
    expect((await entriesOf(o.id, 'pedidos.pago')).length).toBe(1);
    expect((await entriesOf(o.id, 'pedidos.estornar')).length).toBe(1);
    // The revenue entry and its mirror, each once, although the refund came first.
    const { receitas, mirrors } = await financeOf(o.id);
    expect(receitas.map((r) => r.l.status)).toEqual(['estornado']);
    expect(mirrors.map((m) => m.tipo)).toEqual(['despesa']);
  });

  it('a payment approved after the order expired or was cancelled still makes it pago (the money arrived)', async () => {
    const { w, o, mp, payId } = await paidSetup();
    await db.update(pedidos).set({ status: 'expirado' }).where(eq(pedidos.id, o.id));
    await runPayments([{ kind: 'notificacao', notificacaoId: await notified(payId) }], mp.fetchImpl);
    expect((await rowOf(o.id)).status).toBe('pago');
    const c = await placeOrder(w);
    await api('POST', `/api/pedidos/${c.id}/cancelar`, { token: w.admin.token });
    const payId2 = `${payId}2`;
    mp.payments.set(payId2, { id: payId2, status: 'approved', external_reference: c.id, transaction_amount: 890 });
    await runPayments([{ kind: 'notificacao', notificacaoId: await notified(payId2) }], mp.fetchImpl);
    expect((await rowOf(c.id)).status).toBe('pago');
    expect((await financeOf(o.id)).receitas.length).toBe(1);
    expect((await financeOf(c.id)).receitas.length).toBe(1);
  });
});

describe('a second payment of a paid order, and refunds (issue 32, item 4)', () => {
  /** An order paid by payment `a`; `b`, a second approved payment of it, not yet notified. */
  async function paidTwice() {
    const w = await world();
    const spAdmin = await makeRegionAdmin('SP');
    const mgAdmin = await makeRegionAdmin('MG');
    const o = await placeOrder(w);
    const mp = fakeMercadoPago();
    const a = `${Date.now()}${Math.floor(Math.random() * 1e6)}`;
    const b = `${a}2`;
    mp.payments.set(a, { id: a, status: 'approved', external_reference: o.id, transaction_amount: 890 });
    await runPayments([{ kind: 'notificacao', notificacaoId: await notifiedOf(a) }], mp.fetchImpl);
    expect((await rowOf(o.id)).status).toBe('pago');
    mp.payments.set(b, { id: b, status: 'approved', external_reference: o.id, transaction_amount: 890 });
    return { w, o, mp, a, b, spAdmin, mgAdmin };
  }
  /** The caller's notifications of a kind, through the API. */
  const inbox = async (u: TestUser, tipo: string) => {
    const res = await api('GET', '/api/v1/notifications?limit=100', { token: u.token });
    expect(res.status).toBe(200);
    return (res.body as { tipo: string; dados: Record<string, unknown> }[]).filter((n) => n.tipo === tipo);
  };
  const order = async (w: Awaited<ReturnType<typeof world>>, id: string) =>
    (await api('GET', `/api/pedidos/${id}`, { token: w.admin.token })).body;
  const duplicatesOf = (pagamentoId: string) =>
    db.select().from(pagamentosDuplicados).where(eq(pagamentosDuplicados.pagamentoId, pagamentoId));

  it('is recorded, logged pagamento_duplicado and notified to the region administrators once (5 parallel notifications, redelivery); the order stays paid by the first', async () => {
    const { w, o, mp, a, b, spAdmin, mgAdmin } = await paidTwice();
    // Five deliveries of the webhook at once, then their five queue messages at once.
    const ids = await Promise.all(Array.from({ length: 5 }, () => notifiedOf(b)));
    const push = capturingQueue<PushMessage>();
    await Promise.all(
      ids.map((id) =>
        runPayments([{ kind: 'notificacao', notificacaoId: id }], mp.fetchImpl, undefined, { PUSH_QUEUE: push.queue }),
      ),
    );
    // Redelivered: the same messages again, and Mercado Pago notifying the payment once more.
    await runPayments(
      [...ids, await notifiedOf(b)].map((id) => ({ kind: 'notificacao', notificacaoId: id })),
      mp.fetchImpl,
      undefined,
      { PUSH_QUEUE: push.queue },
    );
    expect(await order(w, o.id)).toMatchObject({ status: 'pago', estornado_em: null });
    expect((await rowOf(o.id)).pagamentoId).toBe(a);
    expect((await financeOf(o.id)).receitas.length).toBe(1);
    expect((await entriesOf(o.id, 'pedidos.pago')).length).toBe(1);
    expect(await duplicatesOf(b)).toEqual([
      expect.objectContaining({ pedidoId: o.id, regiao: 'SP', valorCentavos: 89_000, statusGateway: 'approved' }),
    ]);
    const [entry, ...more] = await entriesOf(o.id, 'pedidos.pagamento_duplicado');
    expect(more).toEqual([]);
    expect(entry?.dados).toEqual({
      pagamento_id: { depois: b },
      valor_centavos: { depois: 89_000 },
      pago_por: { depois: a },
    });
    const notes = await inbox(spAdmin, 'pagamento_duplicado');
    expect(notes).toEqual([
      expect.objectContaining({ titulo: 'Pagamento em duplicidade', dados: { pedido_id: o.id, pagamento_id: b } }),
    ]);
    expect((notes[0] as unknown as { mensagem: string }).mensagem).toContain('R$ 890,00');
    expect(await inbox(mgAdmin, 'pagamento_duplicado')).toEqual([]);
    // One push per notification written, sent once.
    const pushed = push.sent.flat().map((m) => m.body);
    expect(pushed.filter((m) => m.userId === spAdmin.id)).toEqual([
      expect.objectContaining({ titulo: 'Pagamento em duplicidade', dados: { pedido_id: o.id, pagamento_id: b } }),
    ]);
    expect((await notificationsOf(b)).every((n) => n.status === 'processada')).toBe(true);
    // The first payment's own notification again changes nothing and is no duplicate.
    await runPayments([{ kind: 'notificacao', notificacaoId: await notifiedOf(a) }], mp.fetchImpl);
    expect(await duplicatesOf(a)).toEqual([]);
  });

  it("the duplicate's refund leaves the order pago with no mirror; the first payment's refund reverses it once", async () => {
    const { w, o, mp, a, b } = await paidTwice();
    await runPayments([{ kind: 'notificacao', notificacaoId: await notifiedOf(b) }], mp.fetchImpl);
    mp.payments.get(b)!.status = 'refunded';
    for (let i = 0; i < 2; i++)
      await runPayments([{ kind: 'notificacao', notificacaoId: await notifiedOf(b) }], mp.fetchImpl);
    expect(await order(w, o.id)).toMatchObject({ status: 'pago', estornado_em: null });
    let f = await financeOf(o.id);
    expect(f.receitas.map((r) => r.l.status)).toEqual(['pago']);
    expect(f.mirrors).toEqual([]);
    expect(await entriesOf(o.id, 'pedidos.estornar')).toEqual([]);
    // The duplicate's record follows its payment, logged once.
    const [dup] = await duplicatesOf(b);
    expect(dup?.statusGateway).toBe('refunded');
    expect((await entriesOf(dup!.id, 'pedidos.pagamento_duplicado_estornado')).length).toBe(1);

    // A charged-back payment never seen approved is no duplicate either, and reverses nothing.
    const c = `${a}3`;
    mp.payments.set(c, { id: c, status: 'charged_back', external_reference: o.id, transaction_amount: 890 });
    await runPayments([{ kind: 'notificacao', notificacaoId: await notifiedOf(c) }], mp.fetchImpl);
    expect((await rowOf(o.id)).status).toBe('pago');
    expect(await duplicatesOf(c)).toEqual([]);

    // The payment that paid it: estornado, one mirror, however often notified (5 at once).
    mp.payments.get(a)!.status = 'refunded';
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await notifiedOf(a));
    await Promise.all(ids.map((id) => runPayments([{ kind: 'notificacao', notificacaoId: id }], mp.fetchImpl)));
    expect((await order(w, o.id)).status).toBe('estornado');
    f = await financeOf(o.id);
    expect(f.receitas.map((r) => r.l.status)).toEqual(['estornado']);
    expect(f.mirrors).toEqual([
      expect.objectContaining({ tipo: 'despesa', origem: 'estorno', status: 'pago', valorCentavos: 89_000 }),
    ]);
    expect((await entriesOf(o.id, 'pedidos.estornar')).map((e) => e.dados.pagamento_id)).toEqual([{ depois: a }]);
  });

  it('two payments of one pendente order processed at once: one pays it, the other is its one duplicate', async () => {
    const w = await world();
    const admin = await makeRegionAdmin('SP');
    const o = await placeOrder(w);
    const mp = fakeMercadoPago();
    const base = `${Date.now()}${Math.floor(Math.random() * 1e6)}`;
    const pays = [`${base}1`, `${base}2`];
    for (const id of pays)
      mp.payments.set(id, { id, status: 'approved', external_reference: o.id, transaction_amount: 890 });
    const ids = [...(await Promise.all(pays.map(notifiedOf))), ...(await Promise.all(pays.map(notifiedOf)))];
    await Promise.all(ids.map((id) => runPayments([{ kind: 'notificacao', notificacaoId: id }], mp.fetchImpl)));
    const paidBy = (await rowOf(o.id)).pagamentoId!;
    const other = pays.find((p) => p !== paidBy)!;
    expect(pays).toContain(paidBy);
    expect((await rowOf(o.id)).status).toBe('pago');
    expect((await financeOf(o.id)).receitas.length).toBe(1);
    expect((await duplicatesOf(other)).length).toBe(1);
    expect(await duplicatesOf(paidBy)).toEqual([]);
    expect((await entriesOf(o.id, 'pedidos.pagamento_duplicado')).length).toBe(1);
    expect((await inbox(admin, 'pagamento_duplicado')).map((n) => n.dados)).toEqual([
      { pedido_id: o.id, pagamento_id: other },
    ]);
  });

  it('an approved payment of an order refunded by another payment is a duplicate too (its money is held)', async () => {
    const { o, mp, a, b } = await paidTwice();
    mp.payments.get(a)!.status = 'refunded';
    await runPayments([{ kind: 'notificacao', notificacaoId: await notifiedOf(a) }], mp.fetchImpl);
    expect((await rowOf(o.id)).status).toBe('estornado');
    await runPayments([{ kind: 'notificacao', notificacaoId: await notifiedOf(b) }], mp.fetchImpl);
    expect((await rowOf(o.id)).status).toBe('estornado');
    expect((await duplicatesOf(b)).length).toBe(1);
    expect((await financeOf(o.id)).mirrors.length).toBe(1);
  });

  it('an amount that is not a whole number of cents is a divergence, never rounded; exact cents pay', async () => {
    const w = await world();
    const o = await placeOrder(w);
    const mp = fakeMercadoPago();
    const base = `${Date.now()}${Math.floor(Math.random() * 1e6)}`;
    for (const [i, amount] of [890.005, 889.995, 890.0000001].entries()) {
      const id = `${base}${i}`;
      mp.payments.set(id, { id, status: 'approved', external_reference: o.id, transaction_amount: amount });
      await runPayments([{ kind: 'notificacao', notificacaoId: await notifiedOf(id) }], mp.fetchImpl);
      expect((await rowOf(o.id)).status, String(amount)).toBe('pendente');
      expect((await notificationsOf(id))[0]?.status).toBe('divergente');
    }
    const entries = await entriesOf(o.id, 'pedidos.pagamento_divergente');
    const seen = entries.map((e) => [e.dados.valor_centavos, e.dados.valor_gateway]);
    expect(seen.sort((x, y) => (x[1] as { depois: number }).depois - (y[1] as { depois: number }).depois)).toEqual([
      [{ antes: 89_000, depois: null }, { depois: 889.995 }],
      [{ antes: 89_000, depois: null }, { depois: 890.0000001 }],
      [{ antes: 89_000, depois: null }, { depois: 890.005 }],
    ]);
    expect((await financeOf(o.id)).receitas).toEqual([]);
    // Two decimals whose binary form is inexact (0.29 × 100 = 28.999...) are exact cents and pay.
    const cheap = await makePacote('SP', { precoCentavos: 29, parcelasMax: 1 });
    const c = await placeOrder({ ...w, pacote: cheap }, { parcelas: 1 });
    const id = `${base}9`;
    mp.payments.set(id, { id, status: 'approved', external_reference: c.id, transaction_amount: 0.29 });
    await runPayments([{ kind: 'notificacao', notificacaoId: await notifiedOf(id) }], mp.fetchImpl);
    expect((await rowOf(c.id)).status).toBe('pago');
    expect((await financeOf(c.id)).receitas[0]?.l.valorCentavos).toBe(29);
  });
});

describe("system keys are reserved (issue 32, item 10): an administrator's entry cannot take an order's key", () => {
  it("POST /api/financeiro/lancamentos refuses a chave_externa starting with pedido: (any case), and the order's payment still books", async () => {
    const w = await world();
    const o = await placeOrder(w);
    const categoria = await systemCategoryId('SP', 'pacotes_fotos');
    const post = (chave: string) =>
      api('POST', '/api/financeiro/lancamentos', {
        token: w.admin.token,
        body: {
          tipo: 'receita',
          categoria_id: categoria,
          descricao: 'Venda avulsa',
          valor: 890,
          vencimento: '2027-01-10',
          chave_externa: chave,
        },
      });
    for (const chave of [`pedido:${o.id}`, `PEDIDO:${o.id}`, `  Pedido:${o.id}`, 'pedido:qualquer-coisa']) {
      const res = await post(chave);
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(res.body.error).toBe(
        'chave_externa: não pode começar com "pedido:" nem "taxa:": prefixo reservado ao sistema',
      );
    }
    // Keys that only look alike are the client's own.
    for (const chave of [uniq('pedido-'), uniq('NF pedido:'), uniq('pedidos:')])
      expect((await post(chave)).status).toBe(201);
    const mp = fakeMercadoPago();
    const payId = `${Date.now()}${Math.floor(Math.random() * 1e6)}`;
    mp.payments.set(payId, { id: payId, status: 'approved', external_reference: o.id, transaction_amount: 890 });
    const r = await runPayments([{ kind: 'notificacao', notificacaoId: await notifiedOf(payId) }], mp.fetchImpl);
    expect(r.explicitAcks).toEqual(r.ids);
    expect((await api('GET', `/api/pedidos/${o.id}`, { token: w.admin.token })).body.status).toBe('pago');
    expect((await financeOf(o.id)).receitas.map((x) => x.l.origem)).toEqual(['pedido']);
    // The document says so.
    const doc = await (await send('GET', '/openapi.json')).json<any>();
    expect(doc.components.schemas.LancamentoRequest.properties.chave_externa.description).toContain('`pedido:`');
  });
});

describe('scheduled jobs', () => {
  it('expirar-pedidos: pendente orders past expira_em become expirado once, each logged; others untouched', async () => {
    const w = await world();
    const due = await placeOrder(w);
    const fresh = await placeOrder(w);
    const paid = await placeOrder(w);
    const past = new Date(Date.now() - 60_000).toISOString();
    await db.update(pedidos).set({ expiraEm: past }).where(eq(pedidos.id, due.id));
    await db.update(pedidos).set({ expiraEm: past, status: 'pago' }).where(eq(pedidos.id, paid.id));
    const now = new Date();
    await Promise.all([expirarPedidos(env, now), expirarPedidos(env, now)]);
    await runScheduled(env, now, { 'expirar-pedidos': expirarPedidos });
    expect((await rowOf(due.id)).status).toBe('expirado');
    expect((await rowOf(fresh.id)).status).toBe('pendente');
    expect((await rowOf(paid.id)).status).toBe('pago');
    expect((await entriesOf(due.id, 'pedidos.expirar')).length).toBe(1);
  });

  it('requeue-payments: enqueues orders still without a checkout after 2 minutes and notifications still recebida after 5', async () => {
    const w = await world();
    const o = await placeOrder(w);
    const payId = `3${Date.now()}`;
    expect((await notify(payId, await signedHeaders(payId))).status).toBe(200);
    const sent: unknown[] = [];
    const queue = { sendBatch: async (msgs: { body: unknown }[]) => void sent.push(...msgs.map((m) => m.body)) };
    const e = { ...env, PAYMENT_QUEUE: queue as unknown as Queue };
    expect(await requeuePayments(e, new Date())).toBe(sent.length);
    expect(sent).not.toContainEqual({ kind: 'preferencia', pedidoId: o.id });
    await requeuePayments(e, new Date(Date.now() + 6 * 60_000));
    expect(sent).toContainEqual({ kind: 'preferencia', pedidoId: o.id });
    const [n] = await notificationsOf(payId);
    expect(sent).toContainEqual({ kind: 'notificacao', notificacaoId: n!.id });
  });
});
