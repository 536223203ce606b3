import { eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { agenda, funcoes, lancamentos, profissionais, repasseLancamentos, tiposEventos } from '../../../src/db/schema';
import { entriesOf } from '../../helpers/activity-log';
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
} from '../../helpers/factories';
import { api, expectError, UNKNOWN_ID } from '../../helpers/request';
import { keptCountsAfterAll } from '../../helpers/kept-columns';

// Payouts pay and cancel entries in bulk: the kept counts and result sums (drizzle/0032, 0035) are checked after the file.
keptCountsAfterAll('lancamentos');

let admin: TestUser;
let owner: TestUser;
const f = '/api/financeiro';

/** Brazil's 2024 monthly table (the figures of test/routes/money/financeiro-tributos.test.ts), in force from 2030. */
const TABLE = {
  inss_aliquota: 11,
  inss_teto: 7786.02,
  irrf_faixas: [
    { ate: 2259.2, aliquota: 0, deducao: 0 },
    { ate: 2826.65, aliquota: 7.5, deducao: 169.44 },
    { ate: 3751.05, aliquota: 15, deducao: 381.44 },
    { ate: 4664.68, aliquota: 22.5, deducao: 662.77 },
    { ate: null, aliquota: 27.5, deducao: 896 },
  ],
  iss_aliquota: 5,
};

beforeAll(async () => {
  admin = await makeAdmin();
  owner = await makeUser({ role: 'BUSINESS_OWNER' });
  const put = await api('PUT', `${f}/tabelas-tributarias/2030-01-01`, { token: admin.token, body: TABLE });
  expect(put.status).toBe(200);
});

// Each test works in its own month (events dated in it), so no test sees another's fees.
let month = 0;
const nextMonth = () => {
  const m = month++;
  const y = 2030 + Math.floor(m / 12);
  const mm = String((m % 12) + 1).padStart(2, '0');
  return { de: `${y}-${mm}-01`, ate: `${y}-${mm}-28`, day: (d: number) => `${y}-${mm}-${String(d).padStart(2, '0')}` };
};

/** A professional with a PIX key (an e-mail) unless told otherwise. */
const prof = (regiao = 'SP', over: Partial<typeof profissionais.$inferInsert> = {}) =>
  makeProfissional(regiao, {
    cpfCnpjTitular: '52998224725',
    contaPix: `${uniq('pix')}@example.com`,
    tipoChavePix: 'email',
    ...over,
  });

/** A `previsto` fee of `p` for an event on `date`, as acceptance writes it (services/money/financeiro.ts feeOnAccept). */
async function fee(p: { id: string; regiao: string }, date: string, valorCentavos: number) {
  const fot = await makeFot(p.regiao);
  const tipo = await makeCatalog(tiposEventos, p.regiao);
  const [ev] = await db
    .insert(agenda)
    .values({ regiao: p.regiao, fotId: fot.id, tipoEventoId: tipo.id, dataEvento: date })
    .returning();
  const [row] = await db
    .insert(lancamentos)
    .values({
      regiao: p.regiao,
      tipo: 'despesa',
      categoriaId: await systemCategoryId(p.regiao, 'cache_profissional'),
      descricao: 'Cachê',
      valorCentavos,
      vencimento: date,
      agendaId: ev!.id,
      fotId: fot.id,
      profissionalId: p.id,
      origem: 'cache',
    })
    .returning();
  return row!;
}

const gather = (body: Record<string, unknown>, token = admin.token, regiao = 'SP') =>
  api('POST', `${f}/repasses`, { token, regiao, body });
const act = (id: string, acao: string, body?: unknown, token = admin.token) =>
  api('POST', `${f}/repasses/${id}/${acao}`, { token, body });
const statusOf = async (ids: string[]) =>
  (await db.select().from(lancamentos).where(inArray(lancamentos.id, ids))).map((l) => l.status);

describe('payout batches', () => {
  it('gathers, withholds for autonomo_rpa only, approves, exports PIX, pays every fee once', async () => {
    const m = nextMonth();
    const rpa = await prof('SP', { regimeFiscal: 'autonomo_rpa', nome: uniq('Ana RPA') });
    const mei = await prof('SP', { regimeFiscal: 'mei', nome: uniq('Bia MEI') });
    const pj = await prof('SP', { regimeFiscal: 'pj', nome: uniq('Caio PJ'), cpfCnpjTitular: '11222333000181' });
    const fees = [
      await fee(rpa, m.day(3), 100_000),
      await fee(rpa, m.day(20), 200_000), // together 3000.00: the 7.5% bracket
      await fee(mei, m.day(5), 45_000),
      await fee(pj, m.day(28), 80_000),
    ];
    const outside = await fee(mei, m.day(29), 10_000); // after ate
    const other = await fee(await prof('MG'), m.day(5), 10_000); // another region

    const res = await gather({ de: m.de, ate: m.ate });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const b = res.body;
    expect(b).toMatchObject({
      regiao: 'SP',
      de: m.de,
      ate: m.ate,
      status: 'rascunho',
      tabela_vigencia: '2030-01-01',
      qtd_lancamentos: 4,
      total_bruto: 4250,
      total_inss: 330,
      total_irrf: 30.81,
      total_iss: 150,
      total_liquido: 3739.19,
    });
    const item = (id: string) => b.itens.find((i: any) => i.profissional_id === id);
    // 3000 × 11% = 330; (3000 − 330) × 7.5% − 169.44 = 30.81; 3000 × 5% = 150 (docs/guide/money.md).
    expect(item(rpa.id)).toMatchObject({
      regime_fiscal: 'autonomo_rpa',
      valor_bruto: 3000,
      inss: 330,
      irrf: 30.81,
      iss: 150,
      valor_liquido: 2489.19,
      tipo_chave_pix: 'email',
      chave_pix: rpa.contaPix,
    });
    expect(item(rpa.id).lancamento_ids.sort()).toEqual([fees[0]!.id, fees[1]!.id].sort());
    expect(item(mei.id)).toMatchObject({ valor_bruto: 450, inss: 0, irrf: 0, iss: 0, valor_liquido: 450 });
    expect(item(pj.id)).toMatchObject({ valor_bruto: 800, valor_liquido: 800, cpf_cnpj: '11222333000181' });
    expect(b.itens).toHaveLength(3);
    expect(await entriesOf(b.id, 'repasses.create')).toHaveLength(1);

    const got = await api('GET', `${f}/repasses/${b.id}`, { token: owner.token });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(b);
    const list = await api('GET', `${f}/repasses?status=rascunho&limit=500`, { token: owner.token });
    expect(list.status).toBe(200);
    expect(list.body.map((x: any) => x.id)).toContain(b.id);
    expect(list.body.every((x: any) => x.status === 'rascunho')).toBe(true);
    expect(Number(list.headers.get('x-total-count'))).toBe(list.body.length);

    // Not exported before approval.
    expectError(await api('GET', `${f}/repasses/${b.id}/pix.csv`, { token: admin.token }), 409, 'INVALID_STATE');
    expectError(await act(b.id, 'pagar'), 409, 'INVALID_STATE');

    const ok = await act(b.id, 'aprovar');
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.status).toBe('aprovado');
    expect(ok.body.aprovado_em).toEqual(expect.any(String));
    expect(ok.body.total_liquido).toBe(3739.19);
    expectError(await act(b.id, 'aprovar'), 409, 'INVALID_STATE');

    const csv = await api('GET', `${f}/repasses/${b.id}/pix.csv`, { token: admin.token });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (csv.body as string)
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('nome;cpf_cnpj;tipo_chave_pix;chave_pix;valor_liquido');
    expect(lines, lines.join('\n')).toContain(`${rpa.nome};52998224725;email;${rpa.contaPix};"2.489,19"`);
    expect(lines).toContain(`${pj.nome};11222333000181;email;${pj.contaPix};"800,00"`);
    expect(lines).toHaveLength(4);

    const paid = await act(b.id, 'pagar', { pago_em: m.day(28) });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ status: 'pago', pago_em: m.day(28) });
    const rows = await db
      .select()
      .from(lancamentos)
      .where(
        inArray(
          lancamentos.id,
          fees.map((x) => x.id),
        ),
      );
    expect(rows.map((r) => [r.status, r.pagoEm])).toEqual(rows.map(() => ['pago', m.day(28)]));
    expect(await statusOf([outside.id, other.id])).toEqual(['previsto', 'previsto']);
    for (const x of fees) expect(await entriesOf(x.id, 'lancamentos.pagar')).toHaveLength(1);
    expect(await entriesOf(b.id, 'repasses.pagar')).toHaveLength(1);

    expectError(await act(b.id, 'pagar'), 409, 'INVALID_STATE');
    expectError(await act(b.id, 'cancelar'), 409, 'INVALID_STATE');
    // A paid fee is no longer gatherable.
    expectError(await gather({ de: m.de, ate: m.ate, profissional_ids: [rpa.id] }), 409, 'INVALID_STATE');
  });

  it('a fee in a live batch is paid or cancelled only through it; cancelling the batch releases its fees', async () => {
    const m = nextMonth();
    const p = await prof();
    const a = await fee(p, m.day(10), 30_000);
    const first = await gather({ de: m.de, ate: m.ate });
    expect(first.status).toBe(201);

    const pagar = await api('POST', `${f}/lancamentos/${a.id}/pagar`, { token: admin.token });
    expectError(pagar, 409, 'INVALID_STATE');
    expect(pagar.body.error).toMatch(/repasse/);
    expectError(await api('POST', `${f}/lancamentos/${a.id}/cancelar`, { token: admin.token }), 409, 'INVALID_STATE');
    // Nor can another batch take it.
    expectError(await gather({ de: m.de, ate: m.ate }), 409, 'INVALID_STATE');

    const cancelled = await act(first.body.id, 'cancelar');
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelado');
    expect(await entriesOf(first.body.id, 'repasses.cancelar')).toHaveLength(1);
    expectError(await act(first.body.id, 'aprovar'), 409, 'INVALID_STATE');
    expectError(await act(first.body.id, 'cancelar'), 409, 'INVALID_STATE');
    expectError(
      await api('GET', `${f}/repasses/${first.body.id}/pix.csv`, { token: admin.token }),
      409,
      'INVALID_STATE',
    );

    const again = await gather({ de: m.de, ate: m.ate });
    expect(again.status).toBe(201);
    expect(again.body.itens[0].lancamento_ids).toEqual([a.id]);
    // The cancelled batch keeps its history (its links, no longer live).
    const links = await db.select().from(repasseLancamentos).where(eq(repasseLancamentos.lancamentoId, a.id));
    expect(links.map((l) => [l.repasseId, l.ativo]).sort()).toEqual(
      [
        [first.body.id, null],
        [again.body.id, 1],
      ].sort(),
    );
    expect(await statusOf([a.id])).toEqual(['previsto']);
  });

  it('profissional_ids limits the batch; approval needs every PIX key and takes the current one', async () => {
    const m = nextMonth();
    const keyless = await prof('SP', { contaPix: null, tipoChavePix: null, nome: uniq('Sem Chave') });
    const other = await prof();
    await fee(keyless, m.day(2), 10_000);
    const skipped = await fee(other, m.day(2), 10_000);

    const res = await gather({ de: m.de, ate: m.ate, profissional_ids: [keyless.id] });
    expect(res.status).toBe(201);
    expect(res.body.itens.map((i: any) => i.profissional_id)).toEqual([keyless.id]);
    expect(res.body.itens[0]).toMatchObject({ chave_pix: null, tipo_chave_pix: null });
    expect(await statusOf([skipped.id])).toEqual(['previsto']);

    const refused = await act(res.body.id, 'aprovar');
    expectError(refused, 409, 'INVALID_STATE');
    expect(refused.body.error).toContain(keyless.nome);
    expect(await entriesOf(res.body.id, 'repasses.aprovar')).toHaveLength(0);

    await db
      .update(profissionais)
      .set({ contaPix: '+5511987654321', tipoChavePix: 'telefone' })
      .where(eq(profissionais.id, keyless.id));
    const ok = await act(res.body.id, 'aprovar');
    expect(ok.status).toBe(200);
    expect(ok.body.itens[0]).toMatchObject({ chave_pix: '+5511987654321', tipo_chave_pix: 'telefone' });
    expect(await entriesOf(res.body.id, 'repasses.aprovar')).toHaveLength(1);
  });

  it('the PIX file writes a validated key and the amount as they are (a +55 phone key); names stay formula-escaped (issue 32 item 9)', async () => {
    const m = nextMonth();
    const phone = await prof('SP', {
      nome: `=Perigo ${uniq('n')}`,
      contaPix: '+5511987654321',
      tipoChavePix: 'telefone',
    });
    // A key its type does not validate (written around the API) is not trusted: escaped like text.
    const forged = await prof('SP', { nome: uniq('Forjada'), contaPix: '-2+3', tipoChavePix: 'aleatoria' });
    await fee(phone, m.day(3), 10_000);
    await fee(forged, m.day(3), 5_000);
    const b = await gather({ de: m.de, ate: m.ate, profissional_ids: [phone.id, forged.id] });
    expect(b.status).toBe(201);
    expect((await act(b.body.id, 'aprovar')).status).toBe(200);
    const csv = await api('GET', `${f}/repasses/${b.body.id}/pix.csv`, { token: admin.token });
    const lines = (csv.body as string)
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines, lines.join('\n')).toContain(`'${phone.nome};52998224725;telefone;+5511987654321;"100,00"`);
    expect(lines).toContain(`${forged.nome};52998224725;aleatoria;'-2+3;"50,00"`);
  });

  it('an autonomo_rpa item needs a tax table in force on ate; mei and pj do not', async () => {
    const rpa = await prof('SP', { regimeFiscal: 'autonomo_rpa' });
    await fee(rpa, '2029-06-10', 10_000);
    const missing = await gather({ de: '2029-06-01', ate: '2029-06-30' });
    expectError(missing, 409, 'INVALID_STATE');
    expect(missing.body.error).toContain('2029-06-30');

    const pj = await prof('SP', { regimeFiscal: 'pj' });
    await fee(pj, '2029-07-10', 10_000);
    const ok = await gather({ de: '2029-07-01', ate: '2029-07-31' });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ tabela_vigencia: null, total_liquido: 100 });
  });

  it('applies the INSS ceiling and the top bracket on a large batch', async () => {
    const m = nextMonth();
    const rpa = await prof('SP', { regimeFiscal: 'autonomo_rpa' });
    for (const d of [1, 2, 3, 4]) await fee(rpa, m.day(d), 250_000);
    const res = await gather({ de: m.de, ate: m.ate });
    expect(res.status).toBe(201);
    // 10000.00: INSS 7786.02 × 11% = 856.46; IRRF 9143.54 × 27.5% − 896 = 1618.47; ISS 500.
    expect(res.body.itens[0]).toMatchObject({
      valor_bruto: 10000,
      inss: 856.46,
      irrf: 1618.47,
      iss: 500,
      valor_liquido: 7025.07,
    });
  });

  it('refuses bad input, an empty period, other regions and other roles', async () => {
    expectError(await gather({ de: '2030-02-10', ate: '2030-02-01' }), 400, 'VALIDATION_FAILED');
    expectError(await gather({ de: '10/02/2030', ate: '2030-02-11' }), 400, 'VALIDATION_FAILED');
    expectError(await gather({ de: '2030-02-01' }), 400, 'VALIDATION_FAILED');
    expectError(
      await gather({ de: '2030-02-01', ate: '2030-02-02', profissional_ids: ['x'] }),
      400,
      'VALIDATION_FAILED',
    );
    expectError(await gather({ de: '2030-02-01', ate: '2030-02-02', profissional_ids: [] }), 400, 'VALIDATION_FAILED');
    expectError(await gather({ de: '2045-01-01', ate: '2045-01-31' }), 409, 'INVALID_STATE');

    const m = nextMonth();
    const p = await prof('MG');
    await fee(p, m.day(4), 10_000);
    const mg = await gather({ de: m.de, ate: m.ate }, admin.token, 'MG');
    expect(mg.status).toBe(201);
    const id = mg.body.id;
    expectError(await api('GET', `${f}/repasses/${id}`, { token: admin.token, regiao: 'SP' }), 404, 'NOT_FOUND');
    expectError(await act(id, 'aprovar'), 404, 'NOT_FOUND');
    expectError(await act(id, 'cancelar'), 404, 'NOT_FOUND');
    expectError(await api('GET', `${f}/repasses/${id}/pix.csv`, { token: admin.token }), 404, 'NOT_FOUND');
    expectError(await act(UNKNOWN_ID, 'pagar'), 404, 'NOT_FOUND');
    expectError(await api('GET', `${f}/repasses/nao-e-id`, { token: admin.token }), 400, 'INVALID_ID');
    expectError(await act(id, 'pagar', { pago_em: 'ontem' }), 400, 'VALIDATION_FAILED');

    const pro = await makeUser({ role: 'profissional' });
    expectError(await api('GET', `${f}/repasses`, { token: pro.token }), 403, 'FORBIDDEN');
    expectError(await gather({ de: m.de, ate: m.ate }, pro.token), 403, 'FORBIDDEN');
    expectError(await api('GET', `${f}/repasses`), 401, 'UNAUTHENTICATED');
  });

  it('gathers through the real acceptance path: the fee of an accepted invitation', async () => {
    const m = nextMonth();
    const fot = await makeFot('SP');
    const tipo = await makeCatalog(tiposEventos, 'SP');
    const funcao = await makeCatalog(funcoes, 'SP');
    await makePreco(tipo.id, funcao.id, { regiao: 'SP', valorCentavos: 35_000 });
    const [ev] = await db
      .insert(agenda)
      .values({ regiao: 'SP', fotId: fot.id, tipoEventoId: tipo.id, dataEvento: m.day(15) })
      .returning();
    const user = await makeUser({ role: 'profissional' });
    const p = await makeProfissional(
      'SP',
      { usuarioId: user.id, contaPix: '52998224725', tipoChavePix: 'cpf', cpfCnpjTitular: '52998224725' },
      [funcao.id],
    );
    const inv = await api('POST', `/api/agenda/${ev!.id}/convites`, {
      token: admin.token,
      body: { profissional_id: p.id, funcao_id: funcao.id },
    });
    expect(inv.status).toBe(201);
    const acc = await api('PATCH', `/api/convites/${inv.body.id}`, { token: user.token, body: { status: 'aceito' } });
    expect(acc.status).toBe(200);
    const res = await gather({ de: m.de, ate: m.ate });
    expect(res.status).toBe(201);
    expect(res.body.itens).toEqual([expect.objectContaining({ profissional_id: p.id, valor_bruto: 350 })]);
    // Withdrawing the invitation leaves a gathered fee alone (cancel the batch first, docs/guide/money.md).
    expect((await api('DELETE', `/api/convites/${inv.body.id}`, { token: admin.token })).status).toBe(204);
    expect(await statusOf(res.body.itens[0].lancamento_ids)).toEqual(['previsto']);
  });
});

describe('payout concurrency', () => {
  it('five batches racing for the same fees: one wins, each fee is in one live batch', async () => {
    const m = nextMonth();
    const ps = [await prof(), await prof()];
    const fees = [
      await fee(ps[0]!, m.day(1), 10_000),
      await fee(ps[0]!, m.day(2), 20_000),
      await fee(ps[1]!, m.day(3), 5_000),
    ];
    const answers = await Promise.all(Array.from({ length: 5 }, () => gather({ de: m.de, ate: m.ate })));
    const won = answers.filter((a) => a.status === 201);
    expect(won).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 201)) {
      expect([409]).toContain(a.status);
      expect(['CONFLICT', 'INVALID_STATE']).toContain(a.body.code);
    }
    const links = await db
      .select()
      .from(repasseLancamentos)
      .where(
        inArray(
          repasseLancamentos.lancamentoId,
          fees.map((x) => x.id),
        ),
      );
    expect(links).toHaveLength(3);
    expect(new Set(links.map((l) => l.repasseId))).toEqual(new Set([won[0]!.body.id]));
    expect(won[0]!.body.total_bruto).toBe(350);
  });

  it('ten parallel pagar on one batch: one success, each fee paid and logged once', async () => {
    const m = nextMonth();
    const p = await prof();
    const fees = [await fee(p, m.day(6), 10_000), await fee(p, m.day(7), 10_000)];
    const b = await gather({ de: m.de, ate: m.ate });
    expect((await act(b.body.id, 'aprovar')).status).toBe(200);
    const answers = await Promise.all(Array.from({ length: 10 }, () => act(b.body.id, 'pagar')));
    expect(
      answers.filter((a) => a.status === 200),
      JSON.stringify(answers[0]!.body),
    ).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200)) expectError(a, 409, 'INVALID_STATE');
    expect(await statusOf(fees.map((x) => x.id))).toEqual(['pago', 'pago']);
    for (const x of fees) expect(await entriesOf(x.id, 'lancamentos.pagar')).toHaveLength(1);
    expect(await entriesOf(b.body.id, 'repasses.pagar')).toHaveLength(1);
  });
});

describe('meus-pagamentos', () => {
  it("a professional reads its own fees and its lines of approved or paid batches, nobody else's", async () => {
    const m = nextMonth();
    const user = await makeUser({ role: 'profissional' });
    const me = await prof('SP', { usuarioId: user.id, regimeFiscal: 'autonomo_rpa' });
    const someone = await prof();
    const mine = [await fee(me, m.day(1), 100_000), await fee(me, m.day(2), 50_000)];
    await fee(someone, m.day(1), 70_000);

    const draft = await gather({ de: m.de, ate: m.ate });
    expect(draft.status).toBe(201);
    const q = `de=${m.de}&ate=${m.ate}`;
    let res = await api('GET', `${f}/meus-pagamentos?${q}`, { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body.lancamentos.map((l: any) => l.id).sort()).toEqual(mine.map((x) => x.id).sort());
    expect(res.body.lancamentos[0]).toMatchObject({
      status: 'previsto',
      repasse_id: draft.body.id,
      valor: expect.any(Number),
    });
    expect(res.body.repasses).toEqual([]); // a draft is the office's work in progress

    await act(draft.body.id, 'aprovar');
    await act(draft.body.id, 'pagar', { pago_em: m.day(28) });
    res = await api('GET', `${f}/meus-pagamentos?${q}`, { token: user.token });
    expect(res.body.repasses).toEqual([
      {
        repasse_id: draft.body.id,
        de: m.de,
        ate: m.ate,
        status: 'pago',
        pago_em: m.day(28),
        regime_fiscal: 'autonomo_rpa',
        valor_bruto: 1500,
        inss: 165,
        irrf: 0,
        iss: 75,
        valor_liquido: 1260,
      },
    ]);
    expect(res.body.lancamentos.every((l: any) => l.status === 'pago' && l.pago_em === m.day(28))).toBe(true);

    // Another professional, and one without a profile, see nothing of it.
    const stranger = await makeUser({ role: 'profissional' });
    const none = await api('GET', `${f}/meus-pagamentos?${q}`, { token: stranger.token });
    expect(none.body).toEqual({ lancamentos: [], repasses: [] });
    // The default period (a year back, a year ahead) is valid; de after ate is not.
    expect((await api('GET', `${f}/meus-pagamentos`, { token: user.token })).status).toBe(200);
    expectError(
      await api('GET', `${f}/meus-pagamentos?de=2030-02-02&ate=2030-02-01`, { token: user.token }),
      400,
      'VALIDATION_FAILED',
    );
    expectError(await api('GET', `${f}/meus-pagamentos`, { token: admin.token }), 403, 'FORBIDDEN');
  });
});
