import { and, eq } from 'drizzle-orm';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { agenda, cadastroFot, funcoes, lancamentos, logsAtividade } from '../../../src/db/schema';
import { addMonths, splitCentavos } from '../../../src/lib/money';
import {
  db,
  makeAdmin,
  makeCatalog,
  makeFot,
  makePreco,
  makeProfissional,
  makeUser,
  systemCategoryId,
  uniq,
  type TestUser,
  makeEvento,
} from '../../helpers/factories';
import { api, expectError, UNKNOWN_ID } from '../../helpers/request';
import { expectPageTotal, keptCountsAfterAll } from '../../helpers/kept-columns';

let admin: TestUser;
let owner: TestUser;

beforeAll(async () => {
  admin = await makeAdmin();
  owner = await makeUser({ role: 'BUSINESS_OWNER' });
});

const systemId = systemCategoryId;

// Page totals come from counts kept by triggers (drizzle/0032): checked after the file.
keptCountsAfterAll('lancamentos');

const entry = async (over: Record<string, unknown> = {}, regiao = 'SP') => {
  const res = await api('POST', '/api/financeiro/lancamentos', {
    token: admin.token,
    regiao,
    body: {
      tipo: 'despesa',
      categoria_id: await systemId(regiao, 'logistica'),
      descricao: 'Van',
      valor: 150.25,
      vencimento: '2027-03-10',
      ...over,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};

describe('finance categories', () => {
  it('lists the system categories, creates, renames, deletes a user one', async () => {
    const list = await api('GET', '/api/financeiro/categorias', { token: owner.token, regiao: 'MG' });
    expect(list.status).toBe(200);
    expect(list.body.filter((c: any) => c.sistema).map((c: any) => c.nome)).toHaveLength(7);
    expect(list.headers.get('x-total-count')).toBe(String(list.body.length));

    const nome = uniq('Buffet');
    const created = await api('POST', '/api/financeiro/categorias', {
      token: admin.token,
      body: { nome, tipo: 'despesa' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ nome, tipo: 'despesa', sistema: false, regiao: 'SP' });
    expectError(
      await api('POST', '/api/financeiro/categorias', {
        token: admin.token,
        body: { nome: nome.toUpperCase(), tipo: 'receita' },
      }),
      409,
      'CONFLICT',
    );
    expectError(
      await api('POST', '/api/financeiro/categorias', {
        token: admin.token,
        body: { nome: 'contrato', tipo: 'receita' },
      }),
      409,
      'CONFLICT',
    );
    expectError(
      await api('POST', '/api/financeiro/categorias', { token: admin.token, body: { nome: 'X', tipo: 'outro' } }),
      400,
      'VALIDATION_FAILED',
    );
    const renamed = await api('PUT', `/api/financeiro/categorias/${created.body.id}`, {
      token: admin.token,
      body: { nome: `${nome} 2`, tipo: 'receita' },
    });
    expect(renamed.body).toMatchObject({ nome: `${nome} 2`, tipo: 'receita' });
    expectError(
      await api('PUT', `/api/financeiro/categorias/${created.body.id}`, {
        token: admin.token,
        regiao: 'MG',
        body: { nome: 'x', tipo: 'receita' },
      }),
      404,
      'NOT_FOUND',
    );
    // with an entry, its tipo is fixed and it cannot be deleted
    await entry({ tipo: 'receita', categoria_id: created.body.id });
    expectError(
      await api('PUT', `/api/financeiro/categorias/${created.body.id}`, {
        token: admin.token,
        body: { nome, tipo: 'despesa' },
      }),
      409,
      'IN_USE',
    );
    expectError(
      await api('DELETE', `/api/financeiro/categorias/${created.body.id}`, { token: admin.token }),
      409,
      'IN_USE',
    );

    const free = await api('POST', '/api/financeiro/categorias', {
      token: admin.token,
      body: { nome: uniq('T'), tipo: 'receita' },
    });
    expect((await api('DELETE', `/api/financeiro/categorias/${free.body.id}`, { token: admin.token })).status).toBe(
      204,
    );
    expectError(
      await api('DELETE', `/api/financeiro/categorias/${free.body.id}`, { token: admin.token }),
      404,
      'NOT_FOUND',
    );
    expectError(await api('DELETE', '/api/financeiro/categorias/nope', { token: admin.token }), 400, 'INVALID_ID');
  });

  it('system categories cannot be renamed, retyped nor deleted', async () => {
    const id = await systemId('SP', 'captacao');
    expectError(await api('DELETE', `/api/financeiro/categorias/${id}`, { token: admin.token }), 409, 'INVALID_STATE');
    expectError(
      await api('PUT', `/api/financeiro/categorias/${id}`, {
        token: admin.token,
        body: { nome: 'Outra', tipo: 'despesa' },
      }),
      409,
      'INVALID_STATE',
    );
  });
});

describe('finance entries', () => {
  it('creates a previsto entry with its references, logs it, reads it', async () => {
    const { fot, ...event } = await makeEvento();
    const prof = await makeProfissional('SP');
    const body = await entry({
      fot_id: fot.id,
      agenda_id: event.id,
      profissional_id: prof.id,
      chave_externa: uniq('k'),
    });
    expect(body).toMatchObject({
      status: 'previsto',
      origem: 'manual',
      valor: 150.25,
      categoria_nome: 'Logística',
      fot_id: fot.id,
      agenda_id: event.id,
      profissional_id: prof.id,
    });
    const [row] = await db.select().from(lancamentos).where(eq(lancamentos.id, body.id));
    expect(row!.valorCentavos).toBe(15025);
    const got = await api('GET', `/api/financeiro/lancamentos/${body.id}`, { token: admin.token });
    expect(got.body).toEqual(body);
    expectError(
      await api('GET', `/api/financeiro/lancamentos/${body.id}`, { token: admin.token, regiao: 'MG' }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await api('GET', `/api/financeiro/lancamentos/${UNKNOWN_ID}`, { token: admin.token }),
      404,
      'NOT_FOUND',
    );
    const logs = await db
      .select()
      .from(logsAtividade)
      .where(and(eq(logsAtividade.entidade, 'lancamentos'), eq(logsAtividade.entidadeId, body.id)));
    expect(logs.map((l) => l.acao)).toEqual(['lancamentos.create']);
    // Built once per shape (db/cached-batch.ts): the entry logs this request's values.
    expect(logs[0]).toMatchObject({ atorId: admin.id, regiao: 'SP' });
    expect(JSON.parse(logs[0]!.dados as string)).toMatchObject({
      valor_centavos: { depois: 15025 },
      descricao: { depois: body.descricao },
      fot_id: { depois: fot.id },
      agenda_id: { depois: event.id },
      profissional_id: { depois: prof.id },
      chave_externa: { depois: body.chave_externa },
      status: { depois: 'previsto' },
      origem: { depois: 'manual' },
      estorno_de: { depois: null },
    });
    // The same shape without references: nothing of the first entry is reused.
    const bare = await entry({ descricao: 'Sem vínculos' });
    const [bareLog] = await db
      .select()
      .from(logsAtividade)
      .where(and(eq(logsAtividade.entidade, 'lancamentos'), eq(logsAtividade.entidadeId, bare.id)));
    expect(JSON.parse(bareLog!.dados as string)).toMatchObject({
      fot_id: { depois: null },
      descricao: { depois: bare.descricao },
    });
    expect(bare).toMatchObject({ fot_id: null, agenda_id: null, profissional_id: null });
  });

  it('refuses bad input, references of another region and a category of the other tipo', async () => {
    const base = {
      tipo: 'despesa',
      categoria_id: await systemId('SP', 'logistica'),
      descricao: 'x',
      valor: 1,
      vencimento: '2027-01-01',
    };
    const post = (body: unknown, regiao = 'SP') =>
      api('POST', '/api/financeiro/lancamentos', { token: admin.token, regiao, body });
    expectError(await post({ ...base, valor: 0 }), 400, 'VALIDATION_FAILED');
    // A positive amount below half a cent would round to 0 cents (found by the fuzz suite).
    expectError(await post({ ...base, valor: 5e-324 }), 400, 'VALIDATION_FAILED');
    expectError(await post({ ...base, valor: 0.004 }), 400, 'VALIDATION_FAILED');
    expectError(await post({ ...base, valor: 1.234 }), 400, 'VALIDATION_FAILED');
    expectError(await post({ ...base, vencimento: '2027-02-30' }), 400, 'VALIDATION_FAILED');
    expectError(await post({ ...base, descricao: '' }), 400, 'VALIDATION_FAILED');
    expectError(await post({ ...base, tipo: 'receita' }), 400, 'VALIDATION_FAILED');
    expectError(await post(base, 'MG'), 404, 'NOT_FOUND');
    const mg = await makeEvento('MG');
    expectError(await post({ ...base, agenda_id: mg.id }), 404, 'NOT_FOUND');
    expectError(await post({ ...base, fot_id: mg.fot.id }), 404, 'NOT_FOUND');
    expectError(await post({ ...base, profissional_id: UNKNOWN_ID }), 404, 'NOT_FOUND');
    const sp = await makeEvento('SP');
    const other = await makeEvento('SP');
    expectError(await post({ ...base, fot_id: other.fot.id, agenda_id: sp.id }), 400, 'VALIDATION_FAILED');
    const chave = uniq('k');
    expect((await post({ ...base, chave_externa: chave })).status).toBe(201);
    expectError(await post({ ...base, chave_externa: chave }), 409, 'CONFLICT');
  });

  it('the page totals (the region, a FOT record, an event) follow new entries and the event deleted', async () => {
    const { fot, ...event } = await makeEvento();
    const paths = [
      '/api/financeiro/lancamentos',
      `/api/financeiro/lancamentos?fot_id=${fot.id}`,
      `/api/financeiro/lancamentos?agenda_id=${event.id}`,
    ];
    const totals = async () => {
      const out: number[] = [];
      for (const p of paths) out.push(await expectPageTotal(p, { token: admin.token }));
      return out;
    };
    const [all] = await totals();
    await entry({ agenda_id: event.id, fot_id: fot.id });
    await entry({ fot_id: fot.id });
    await entry({});
    expect(await totals()).toEqual([all! + 3, 2, 1]);
    // Deleting the event sets its entries' agenda_id to null (ON DELETE SET NULL): the counts follow.
    await db.delete(agenda).where(eq(agenda.id, event.id));
    expect(await totals()).toEqual([all! + 3, 2, 0]);
  });

  it('lists with every filter and X-Total-Count, paged', async () => {
    const { fot, ...event } = await makeEvento();
    const prof = await makeProfissional('SP');
    const ids = [];
    for (const v of ['2031-01-05', '2031-01-10', '2031-02-01'])
      ids.push((await entry({ vencimento: v, agenda_id: event.id, fot_id: fot.id, profissional_id: prof.id })).id);
    await api('POST', `/api/financeiro/lancamentos/${ids[1]}/pagar`, { token: admin.token });
    const q = (s: string) => api('GET', `/api/financeiro/lancamentos?${s}`, { token: admin.token });
    const all = await q(`agenda_id=${event.id}`);
    expect(all.body.map((e: any) => e.id)).toEqual(ids);
    expect(all.headers.get('x-total-count')).toBe('3');
    const page = await q(`fot_id=${fot.id}&limit=1&offset=1`);
    expect(page.body.map((e: any) => e.id)).toEqual([ids[1]]);
    expect(page.headers.get('x-total-count')).toBe('3');
    expect((await q(`profissional_id=${prof.id}&status=pago`)).body.map((e: any) => e.id)).toEqual([ids[1]]);
    expect((await q(`agenda_id=${event.id}&de=2031-01-06&ate=2031-01-31`)).body.map((e: any) => e.id)).toEqual([
      ids[1],
    ]);
    expect((await q(`agenda_id=${event.id}&tipo=receita`)).body).toEqual([]);
    const cat = await systemId('SP', 'logistica');
    expect((await q(`agenda_id=${event.id}&categoria_id=${cat}`)).body).toHaveLength(3);
    expectError(await q('de=2031-02-01&ate=2031-01-01'), 400, 'VALIDATION_FAILED');
    expectError(await q('status=feito'), 400, 'VALIDATION_FAILED');
    expect(
      (await api('GET', `/api/financeiro/lancamentos?agenda_id=${event.id}`, { token: admin.token, regiao: 'MG' }))
        .body,
    ).toEqual([]);
  });

  it('state machine: pagar, cancelar, estornar; anything else is 409 INVALID_STATE', async () => {
    const a = await entry({ tipo: 'receita', categoria_id: await systemId('SP', 'pacotes_fotos') });
    const path = (id: string, t: string) => `/api/financeiro/lancamentos/${id}/${t}`;
    expectError(await api('POST', path(a.id, 'estornar'), { token: admin.token }), 409, 'INVALID_STATE');
    const paid = await api('POST', path(a.id, 'pagar'), { token: admin.token, body: { pago_em: '2027-03-11' } });
    expect(paid.body).toMatchObject({ status: 'pago', pago_em: '2027-03-11', valor: 150.25 });
    expectError(await api('POST', path(a.id, 'pagar'), { token: admin.token }), 409, 'INVALID_STATE');
    expectError(await api('POST', path(a.id, 'cancelar'), { token: admin.token }), 409, 'INVALID_STATE');
    expectError(
      await api('POST', path(a.id, 'pagar'), { token: admin.token, body: { pago_em: 'ontem' } }),
      400,
      'VALIDATION_FAILED',
    );
    const reversed = await api('POST', path(a.id, 'estornar'), { token: admin.token, body: { pago_em: '2027-04-01' } });
    expect(reversed.body.status).toBe('estornado');
    const [mirror] = await db.select().from(lancamentos).where(eq(lancamentos.estornoDe, a.id));
    expect(mirror).toMatchObject({
      tipo: 'despesa',
      valorCentavos: 15025,
      origem: 'estorno',
      status: 'pago',
      pagoEm: '2027-04-01',
    });
    expectError(await api('POST', path(a.id, 'estornar'), { token: admin.token }), 409, 'INVALID_STATE');
    expectError(await api('POST', path(mirror!.id, 'cancelar'), { token: admin.token }), 409, 'INVALID_STATE');

    const b = await entry();
    expect((await api('POST', path(b.id, 'cancelar'), { token: admin.token })).body.status).toBe('cancelado');
    expectError(await api('POST', path(b.id, 'pagar'), { token: admin.token }), 409, 'INVALID_STATE');
    expectError(await api('POST', path(b.id, 'pagar'), { token: admin.token, regiao: 'MG' }), 404, 'NOT_FOUND');
    expectError(await api('POST', path(UNKNOWN_ID, 'cancelar'), { token: admin.token }), 404, 'NOT_FOUND');
    expectError(await api('POST', path('x', 'cancelar'), { token: admin.token }), 400, 'INVALID_ID');
    const logs = await db.select().from(logsAtividade).where(eq(logsAtividade.entidadeId, a.id));
    expect(logs.map((l) => l.acao).sort()).toEqual(['lancamentos.create', 'lancamentos.estornar', 'lancamentos.pagar']);
  });

  it('10 parallel pagar on one entry: one success', async () => {
    const e = await entry();
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        api('POST', `/api/financeiro/lancamentos/${e.id}/pagar`, { token: admin.token }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(9);
    const logs = await db
      .select()
      .from(logsAtividade)
      .where(and(eq(logsAtividade.entidadeId, e.id), eq(logsAtividade.acao, 'lancamentos.pagar')));
    expect(logs).toHaveLength(1);
  });

  it('10 parallel estornar: one mirror', async () => {
    const e = await entry();
    await api('POST', `/api/financeiro/lancamentos/${e.id}/pagar`, { token: admin.token });
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        api('POST', `/api/financeiro/lancamentos/${e.id}/estornar`, { token: admin.token }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(await db.select().from(lancamentos).where(eq(lancamentos.estornoDe, e.id))).toHaveLength(1);
  });
});

describe('contracts', () => {
  it('creates the contract and its installments in cents, monthly, end-of-month clamped', async () => {
    const fot = await makeFot('SP');
    const res = await api('POST', '/api/financeiro/contratos', {
      token: admin.token,
      body: {
        fot_id: fot.id,
        valor_total: 1000,
        parcelas: 3,
        primeiro_vencimento: '2027-01-31',
        descricao: 'Formatura',
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(
      res.body.lancamentos.map((p: any) => [p.valor, p.vencimento, p.parcela, p.origem, p.categoria_nome]),
    ).toEqual([
      [333.33, '2027-01-31', 1, 'contrato', 'Contrato'],
      [333.33, '2027-02-28', 2, 'contrato', 'Contrato'],
      [333.34, '2027-03-31', 3, 'contrato', 'Contrato'],
    ]);
    const list = await api('GET', `/api/financeiro/contratos?fot_id=${fot.id}`, { token: admin.token });
    expect(list.body).toEqual([res.body]);
    expect(list.headers.get('x-total-count')).toBe('1');
  });

  it('refuses bad input and a FOT of another region', async () => {
    const fot = await makeFot('MG');
    const post = (body: unknown) => api('POST', '/api/financeiro/contratos', { token: admin.token, body });
    const base = { fot_id: fot.id, valor_total: 100, parcelas: 2, primeiro_vencimento: '2027-01-10' };
    expectError(await post(base), 404, 'NOT_FOUND');
    expectError(await post({ ...base, parcelas: 61 }), 400, 'VALIDATION_FAILED');
    expectError(await post({ ...base, parcelas: 0 }), 400, 'VALIDATION_FAILED');
    expectError(await post({ ...base, valor_total: -1 }), 400, 'VALIDATION_FAILED');
    const sp = await makeFot('SP');
    expectError(await post({ ...base, fot_id: sp.id, valor_total: 0.01 }), 400, 'VALIDATION_FAILED');
  });

  it("an EVENT_OWNER reads its own company's contracts only", async () => {
    const mine = await makeFot('SP');
    const theirs = await makeFot('SP');
    const eo = await makeUser({ role: 'EVENT_OWNER', empresaId: mine.empresaId });
    for (const f of [mine, theirs])
      await api('POST', '/api/financeiro/contratos', {
        token: admin.token,
        body: { fot_id: f.id, valor_total: 10, parcelas: 1, primeiro_vencimento: '2027-01-10' },
      });
    const list = await api('GET', '/api/financeiro/contratos', { token: eo.token });
    expect(list.status).toBe(200);
    expect(list.body.map((c: any) => c.fot_id)).toEqual([mine.id]);
    expect((await api('GET', `/api/financeiro/contratos?fot_id=${theirs.id}`, { token: eo.token })).body).toEqual([]);
    const pro = await makeUser({ role: 'profissional' });
    expectError(await api('GET', '/api/financeiro/contratos', { token: pro.token }), 403, 'FORBIDDEN');
  });

  it('splitCentavos: sum exact, all equal but the last, which is larger by less than n cents', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 0, max: 100_000_000_000 }), (n, total) => {
        fc.pre(total >= n);
        const parts = splitCentavos(total, n);
        expect(parts).toHaveLength(n);
        expect(parts.reduce((a, b) => a + b, 0)).toBe(total);
        const first = parts[0]!;
        for (const p of parts.slice(0, -1)) expect(p).toBe(first);
        expect(parts.at(-1)! - first).toBeGreaterThanOrEqual(0);
        expect(parts.at(-1)! - first).toBeLessThan(n);
        for (const p of parts.slice(0, -1)) expect(Math.abs(p - first)).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('addMonths clamps to the end of the month and never chains', () => {
    expect(addMonths('2027-01-31', 1)).toBe('2027-02-28');
    expect(addMonths('2028-01-31', 1)).toBe('2028-02-29');
    expect(addMonths('2027-01-31', 2)).toBe('2027-03-31');
    expect(addMonths('2027-11-15', 3)).toBe('2028-02-15');
  });
});

describe('fees from invitations', () => {
  it('accepting creates one previsto fee at the price of the moment; declining cancels it; withdrawing too', async () => {
    const { tipo, ...event } = await makeEvento('SP', null, { dataEvento: '2031-06-01' });
    const funcao = await makeCatalog(funcoes, 'SP');
    await makePreco(tipo.id, funcao.id, { regiao: 'SP', valorCentavos: 40_000 });
    const user = await makeUser({ role: 'profissional' });
    const prof = await makeProfissional('SP', { usuarioId: user.id }, [funcao.id]);
    const inv = await api('POST', `/api/agenda/${event.id}/convites`, {
      token: admin.token,
      body: { profissional_id: prof.id, funcao_id: funcao.id },
    });
    expect(inv.status).toBe(201);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        api('PATCH', `/api/convites/${inv.body.id}`, { token: user.token, body: { status: 'aceito' } }),
      ),
    );
    expect(answers.every((a) => a.status === 200 || a.status === 409)).toBe(true);
    const fees = () => db.select().from(lancamentos).where(eq(lancamentos.conviteId, inv.body.id));
    expect(await fees()).toHaveLength(1);
    expect((await fees())[0]).toMatchObject({
      status: 'previsto',
      tipo: 'despesa',
      origem: 'cache',
      valorCentavos: 40_000,
      agendaId: event.id,
      profissionalId: prof.id,
      vencimento: '2031-06-01',
    });
    await api('PATCH', `/api/convites/${inv.body.id}`, { token: user.token, body: { status: 'recusado' } });
    expect((await fees()).map((f) => f.status)).toEqual(['cancelado']);
    await api('PATCH', `/api/convites/${inv.body.id}`, { token: user.token, body: { status: 'aceito' } });
    expect((await fees()).map((f) => f.status).sort()).toEqual(['cancelado', 'previsto']);
    const live = (await fees()).find((f) => f.status === 'previsto')!;
    expect((await api('DELETE', `/api/convites/${inv.body.id}`, { token: admin.token })).status).toBe(204);
    const [after] = await db.select().from(lancamentos).where(eq(lancamentos.id, live.id));
    expect(after!.status).toBe('cancelado');
  });

  it('no price, no fee', async () => {
    const event = await makeEvento('SP', null, { dataEvento: '2031-06-02' });
    const funcao = await makeCatalog(funcoes, 'SP');
    const user = await makeUser({ role: 'profissional' });
    const prof = await makeProfissional('SP', { usuarioId: user.id }, [funcao.id]);
    const inv = await api('POST', `/api/agenda/${event.id}/convites`, {
      token: admin.token,
      body: { profissional_id: prof.id, funcao_id: funcao.id },
    });
    const ok = await api('PATCH', `/api/convites/${inv.body.id}`, { token: user.token, body: { status: 'aceito' } });
    expect(ok.status).toBe(200);
    expect(await db.select().from(lancamentos).where(eq(lancamentos.conviteId, inv.body.id))).toEqual([]);
  });
});

describe('result', () => {
  it('per FOT: its entries, its events’ entries and gastos_captacao; never cancelled, reversed nor mirrors', async () => {
    const { fot, ...event } = await makeEvento('SP', null, { dataEvento: '2031-07-01' });
    await db.update(cadastroFot).set({ gastosCaptacaoCentavos: 50_000 }).where(eq(cadastroFot.id, fot.id));
    const receita = await systemId('SP', 'contrato');
    const r1 = await entry({ tipo: 'receita', categoria_id: receita, valor: 2000, fot_id: fot.id });
    await entry({ valor: 300, agenda_id: event.id });
    const paid = await entry({ valor: 100, agenda_id: event.id });
    await api('POST', `/api/financeiro/lancamentos/${paid.id}/pagar`, { token: admin.token });
    const cancelled = await entry({ valor: 999, agenda_id: event.id });
    await api('POST', `/api/financeiro/lancamentos/${cancelled.id}/cancelar`, { token: admin.token });
    const reversed = await entry({ valor: 777, fot_id: fot.id });
    await api('POST', `/api/financeiro/lancamentos/${reversed.id}/pagar`, { token: admin.token });
    await api('POST', `/api/financeiro/lancamentos/${reversed.id}/estornar`, { token: admin.token });
    void r1;
    const res = await api('GET', `/api/financeiro/resultado?fot_id=${fot.id}`, { token: admin.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      receitas: 2000,
      despesas: 900,
      resultado: 1100,
      margem_pct: 55,
      previsto: { receitas: 2000, despesas: 300 },
      realizado: { receitas: 0, despesas: 600 },
    });
    expect(res.body.por_categoria.find((c: any) => c.nome === 'Captação')).toMatchObject({
      realizado: 500,
      previsto: 0,
    });
    const ev = await api('GET', `/api/financeiro/resultado?agenda_id=${event.id}`, { token: admin.token });
    expect(ev.body).toMatchObject({ receitas: 0, despesas: 400, resultado: -400, margem_pct: null });
  });

  it('the kept sums follow an event moved to another class and deleted; an entry of a class and its event counts once', async () => {
    const { fot, ...event } = await makeEvento('SP', null, { dataEvento: '2031-08-01' });
    const other = await makeFot('SP');
    await entry({ valor: 100, agenda_id: event.id, fot_id: fot.id });
    await entry({ valor: 20, agenda_id: event.id });
    const despesas = async (q: string) => {
      const res = await api('GET', `/api/financeiro/resultado?${q}`, { token: admin.token });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.despesas;
    };
    expect([await despesas(`fot_id=${fot.id}`), await despesas(`fot_id=${other.id}`)]).toEqual([120, 0]);
    // The event moves to the other class: its entries follow it, the first stays with its own class too.
    const moved = await api('PUT', `/api/agenda/${event.id}`, { token: admin.token, body: { fot_id: other.id } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect([await despesas(`fot_id=${fot.id}`), await despesas(`fot_id=${other.id}`)]).toEqual([100, 120]);
    expect(await despesas(`agenda_id=${event.id}`)).toBe(120);
    // The event deleted (its entries' agenda_id set null): they leave the other class, not their own.
    await db.delete(agenda).where(eq(agenda.id, event.id));
    expect([await despesas(`fot_id=${fot.id}`), await despesas(`fot_id=${other.id}`)]).toEqual([100, 0]);
    expect(await despesas('de=2031-01-01&ate=2031-12-31')).toBeGreaterThanOrEqual(120);
  });

  it('exactly one of fot_id, agenda_id, de+ate; other region 404', async () => {
    const { fot, ...event } = await makeEvento('MG');
    const q = (s: string, regiao = 'SP') =>
      api('GET', `/api/financeiro/resultado?${s}`, { token: admin.token, regiao });
    expectError(await q(''), 400, 'VALIDATION_FAILED');
    expectError(await q(`fot_id=${fot.id}&agenda_id=${event.id}`), 400, 'VALIDATION_FAILED');
    expectError(await q('de=2031-01-01'), 400, 'VALIDATION_FAILED');
    expectError(await q('de=2031-02-01&ate=2031-01-01'), 400, 'VALIDATION_FAILED');
    expectError(await q(`fot_id=${fot.id}`), 404, 'NOT_FOUND');
    expectError(await q(`agenda_id=${event.id}`), 404, 'NOT_FOUND');
    expect((await q(`agenda_id=${event.id}`, 'MG')).status).toBe(200);
  });

  it('property: the period result equals a brute-force sum over random entries', async () => {
    const regiao = 'MG';
    const cats = { receita: await systemId(regiao, 'contrato'), despesa: await systemId(regiao, 'logistica') };
    // A fresh year per run (a counter: random years collided between runs), so the period holds exactly its entries.
    let nextYear = 2100 + Math.floor(Math.random() * 700);
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            tipo: fc.constantFrom('receita' as const, 'despesa' as const),
            centavos: fc.integer({ min: 1, max: 10_000_000 }),
            status: fc.constantFrom('previsto' as const, 'pago' as const, 'cancelado' as const),
          }),
          { minLength: 0, maxLength: 12 },
        ),
        async (items) => {
          const year = nextYear++;
          const day = `${year}-01-15`;
          for (const it of items)
            await db.insert(lancamentos).values({
              regiao,
              tipo: it.tipo,
              categoriaId: cats[it.tipo],
              descricao: 'p',
              valorCentavos: it.centavos,
              vencimento: day,
              status: it.status,
            });
          const res = await api('GET', `/api/financeiro/resultado?de=${year}-01-01&ate=${year}-12-31`, {
            token: admin.token,
            regiao,
          });
          const sum = (t: string, s?: string) =>
            items
              .filter((i) => i.tipo === t && i.status !== 'cancelado' && (!s || i.status === s))
              .reduce((a, i) => a + i.centavos, 0) / 100;
          expect(res.body.receitas).toBeCloseTo(sum('receita'), 2);
          expect(res.body.despesas).toBeCloseTo(sum('despesa'), 2);
          expect(res.body.realizado.receitas).toBeCloseTo(sum('receita', 'pago'), 2);
          expect(res.body.previsto.despesas).toBeCloseTo(sum('despesa', 'previsto'), 2);
        },
      ),
      { numRuns: 15 },
    );
  });
});
