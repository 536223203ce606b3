import { env } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { confiabilidadeContestacoes, confiabilidadeEventos } from '../../../src/db/schema';
import { ConfiabilidadeSchema, ContestacaoSchema } from '../../../src/routes/reliability/confiabilidade.schemas';
import {
  MIN_PROFISSIONAIS_AGREGADO,
  PRIOR_PADRAO,
  decay,
  effectOf,
  score,
} from '../../../src/services/reliability/formula';
import { runScheduled } from '../../../src/scheduled';
import { confiabilidadeNoturna } from '../../../src/scheduled/confiabilidade';
import { entriesOf } from '../../helpers/activity-log';
import {
  db,
  makeAdmin,
  makePro,
  makeProfissional,
  makeRegionAdmin,
  makeUser,
  notificationsOf,
} from '../../helpers/factories';
import { keptScore, makeLedger, pinRegionMean, regionSums, type LedgerRow } from '../../helpers/reliability';
import { api, expectError, UNKNOWN_ID } from '../../helpers/request';

const ME = '/api/profissionais/me/confiabilidade';
const mine = (token: string) => api('GET', ME, { token });
const contest = (token: string, body: Record<string, unknown>) => api('POST', `${ME}/contestacoes`, { token, body });
const decide = (token: string, id: string, body: Record<string, unknown>, regiao = 'SP') =>
  api('PATCH', `/api/confiabilidade/contestacoes/${id}`, { token, body, headers: { 'x-regiao': regiao } });

/** The nightly job alone, at `now`. */
const nightly = (now: Date) => runScheduled(env, now, { 'confiabilidade-noturna': confiabilidadeNoturna });
/** 03:10 in São Paulo on the UTC day of `d` (06:10Z). */
const tenPastThree = (d: Date) => new Date(`${d.toISOString().slice(0, 10)}T06:10:00.000Z`);

// D28's example: 8 on time, one 20 minutes late, one cancellation 12 hours ahead.
const EXAMPLE: LedgerRow[] = [
  ...Array.from({ length: 8 }, () => ({ tipo: 'chegada' as const, credito: 1, peso: 1, minutos: 0 })),
  { tipo: 'chegada', credito: 0.5, peso: 1, minutos: 20 },
  { tipo: 'cancelamento', credito: 0.1, peso: 1.5, minutos: 720 },
];
const rowsOf = (rows: LedgerRow[], now: Date) =>
  rows.map((r) => ({
    ...r,
    abonado: r.abonado ?? false,
    ocorridoEm: new Date(now.getTime() - (r.diasAtras ?? 0) * 86_400_000).toISOString(),
  }));

describe('the formula, by hand', () => {
  it("D28's example with m = 0.85 scores 83: 100 × (3·0.85 + 8 + 0.5 + 0.15) / (3 + 8 + 1 + 1.5)", () => {
    const now = new Date('2027-03-01T12:00:00.000Z');
    const s = score(rowsOf(EXAMPLE, now), 0.85, now);
    expect(s.valor).toBeCloseTo((100 * (2.55 + 8.65)) / 13.5, 10); // 82.96
    expect(Math.round(s.valor)).toBe(83);
    expect(s).toMatchObject({ novo: false, peso: 10.5 });
    // Each row's effect is R minus R without it: the late cancellation costs the most.
    const effects = rowsOf(EXAMPLE, now).map((r) => effectOf(r, s.sums, 0.85, now));
    expect(effects[9]).toBeCloseTo(82.963 - (100 * (2.55 + 8.5)) / 12, 2); // −9.1
    expect(effects[0]).toBeGreaterThan(0);
  });

  it('decays: a row counts half after 180 days, a quarter after 360; excused rows never count', () => {
    const now = new Date('2027-03-01T12:00:00.000Z');
    expect(decay(0)).toBe(1);
    expect(decay(180)).toBeCloseTo(0.5, 12);
    expect(decay(360)).toBeCloseTo(0.25, 12);
    const noShow = (diasAtras: number) => rowsOf([{ tipo: 'falta', credito: 0, peso: 2, diasAtras }], now);
    // 100 × 3·0.9 / (3 + 2·d)
    expect(score(noShow(0), 0.9, now).valor).toBeCloseTo(54, 10);
    expect(score(noShow(180), 0.9, now).valor).toBeCloseTo(67.5, 10);
    expect(score(noShow(360), 0.9, now).valor).toBeCloseTo(77.142857, 5);
    const excused = rowsOf([{ tipo: 'falta', credito: 0, peso: 2, abonado: true }], now);
    expect(score(excused, 0.9, now)).toMatchObject({ valor: 90, novo: true, peso: 0 });
  });

  it('novo while the weights sum to less than 3', () => {
    const now = new Date();
    const onTime = (n: number) =>
      rowsOf(
        Array.from({ length: n }, () => ({ tipo: 'chegada' as const, credito: 1, peso: 1 })),
        now,
      );
    expect(score(onTime(2), 0.85, now).novo).toBe(true);
    expect(score(onTime(3), 0.85, now).novo).toBe(false);
    expect(score(rowsOf([{ tipo: 'sem_confirmacao', credito: 0.5, peso: 0.5 }], now), 0.85, now).novo).toBe(true);
  });
});

describe('GET /api/profissionais/me/confiabilidade and /{id}/confiabilidade', () => {
  it("answers D28's example as 83 with every row explained; the kept score agrees once refreshed", async () => {
    const { user, prof } = await makePro('MG');
    await makeLedger(prof, EXAMPLE);
    await pinRegionMean('MG', 0.85);
    const res = await mine(user.token);
    expect(res.status).toBe(200);
    expect(ConfiabilidadeSchema.safeParse(res.body).error).toBeUndefined();
    expect(res.body).toMatchObject({
      profissional_id: prof.id,
      regiao: 'MG',
      pontuacao: 83,
      novo: false,
      amostra: { eventos: 10, abonados: 0, peso: 10.5 },
      media_regiao: 0.85,
    });
    expect(res.body.valor).toBeCloseTo(82.96, 1);
    expect(res.body.resumo).toContain('Pontuação 83 de 100');
    expect(res.body.regras.join(' ')).toContain('Nunca contam: recusar um convite');
    const late = res.body.eventos.find((e: { minutos: number }) => e.minutos === 20);
    expect(late.efeito).toMatch(/^Chegou com 20 min de atraso: crédito 0,5, peso 1\. Vale 100% do peso hoje/);
    expect(late.efeito_pontos).toBeLessThan(0);
    const cancel = res.body.eventos.find((e: { tipo: string }) => e.tipo === 'cancelamento');
    expect(cancel.efeito).toContain(
      'Cancelou um convite aceito 12 h antes do início do evento: crédito 0,1, peso 1,5.',
    );
    expect(cancel.efeito).toMatch(/tira 9,\d pontos/);
    // The nightly refresh writes the same formula into profissionais.confiabilidade.
    await nightly(tenPastThree(new Date(Date.now() + 86_400_000)));
    const kept = await keptScore(prof.id);
    expect(kept.peso).toBe(10.5);
    expect(kept.valor!).toBeCloseTo(82.96, 0);
  });

  it('a professional without a ledger scores the region mean and is novo; without a profile 404', async () => {
    const { user } = await makePro('SP');
    const res = await mine(user.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ pontuacao: 85, novo: true, amostra: { eventos: 0, peso: 0 }, eventos: [] });
    const bare = await makeUser({ role: 'profissional' });
    expectError(await mine(bare.token), 404, 'NOT_FOUND');
  });

  it('administrators read any professional of the region; another region or unknown id is 404', async () => {
    const admin = await makeAdmin();
    const { prof } = await makePro('SP');
    await makeLedger(prof, [{ tipo: 'falta', credito: 0, peso: 2 }]);
    const res = await api('GET', `/api/profissionais/${prof.id}/confiabilidade`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.eventos).toHaveLength(1);
    expect(res.body.eventos[0].efeito).toContain('Falta confirmada por um administrador: crédito 0, peso 2.');
    expectError(
      await api('GET', `/api/profissionais/${prof.id}/confiabilidade`, {
        token: admin.token,
        headers: { 'x-regiao': 'MG' },
      }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await api('GET', `/api/profissionais/${UNKNOWN_ID}/confiabilidade`, { token: admin.token }),
      404,
      'NOT_FOUND',
    );
    expectError(await api('GET', '/api/profissionais/x/confiabilidade', { token: admin.token }), 400, 'INVALID_ID');
  });
});

describe('who sees what', () => {
  it('never EVENT_OWNER or agenda_viewer; RESEARCHER aggregates per region only; a professional only its own', async () => {
    const { prof } = await makePro('SP');
    await makeLedger(prof, [{ tipo: 'chegada', credito: 0.8, peso: 1, minutos: 10 }]);
    const [row] = await db
      .select()
      .from(confiabilidadeEventos)
      .where(eq(confiabilidadeEventos.profissionalId, prof.id));
    const owner = await makeUser({ role: 'EVENT_OWNER' });
    const viewer = await makeUser({ role: 'agenda_viewer' });
    const researcher = await makeUser({ role: 'RESEARCHER' });
    const other = await makePro('SP');
    for (const u of [owner, viewer, researcher]) {
      expectError(
        await api('GET', `/api/profissionais/${prof.id}/confiabilidade`, { token: u.token }),
        403,
        'FORBIDDEN',
      );
      expectError(await mine(u.token), 403, 'FORBIDDEN');
      expectError(await api('GET', '/api/confiabilidade/contestacoes', { token: u.token }), 403, 'FORBIDDEN');
    }
    for (const u of [owner, viewer, other.user])
      expectError(await api('GET', '/api/confiabilidade/regioes', { token: u.token }), 403, 'FORBIDDEN');
    // another professional cannot reach this one's rows, not even to contest them
    expect((await mine(other.user.token)).body.eventos).toEqual([]);
    expectError(await contest(other.user.token, { evento_id: row!.id, motivo: 'não fui eu' }), 404, 'NOT_FOUND');
    expectError(
      await api('GET', `/api/profissionais/${prof.id}/confiabilidade`, { token: other.user.token }),
      403,
      'FORBIDDEN',
    );

    // Five professionals with on-time arrivals: SP's `chegada` is above the floor.
    for (let i = 0; i < MIN_PROFISSIONAIS_AGREGADO; i++)
      await makeLedger(await makeProfissional('SP'), [{ tipo: 'chegada', credito: 1, peso: 1, minutos: 0 }]);
    const agg = await api('GET', '/api/confiabilidade/regioes', { token: researcher.token });
    expect(agg.status).toBe(200);
    expect(agg.body.map((r: { regiao: string }) => r.regiao)).toEqual(['SP', 'MG']);
    // read from the kept sums (other tests of this file add rows to SP): they agree with the ledger,
    // over the kinds with rows of at least MIN_PROFISSIONAIS_AGREGADO professionals
    const ledger = await db.select().from(confiabilidadeEventos).where(eq(confiabilidadeEventos.regiao, 'SP'));
    const shown = (tipo: string) =>
      new Set(ledger.filter((l) => l.tipo === tipo).map((l) => l.profissionalId)).size >= MIN_PROFISSIONAIS_AGREGADO;
    const sums = (await regionSums('SP')).filter((k) => shown(k.tipo));
    const kept = (tipo: string) => sums.find((k) => k.tipo === tipo);
    const sp = agg.body[0];
    expect(sp.eventos).toBe(sums.reduce((n, k) => n + k.eventos, 0));
    expect(sp.media_credito).toBeCloseTo(
      sums.reduce((n, k) => n + k.somaCreditoCent, 0) / sums.reduce((n, k) => n + k.somaPesoCent, 0),
      4,
    );
    expect(sp.por_tipo.find((t: { tipo: string }) => t.tipo === 'chegada')).toMatchObject({
      tipo: 'chegada',
      eventos: kept('chegada')!.eventos,
      suprimido: false,
    });
    expect(sp.eventos).toBe(ledger.filter((l) => shown(l.tipo)).length);
    // nothing in the aggregates names or points at a professional
    expect(JSON.stringify(agg.body)).not.toMatch(/profissional|nome|_id/);

    // the profile's own answers never carry the score
    const admin = await makeAdmin();
    const profile = await api('GET', `/api/profissionais/${prof.id}`, { token: admin.token });
    expect(profile.status).toBe(200);
    expect(JSON.stringify(profile.body)).not.toContain('confiabilidade');
  });
});

describe('contests', () => {
  async function world() {
    const sp = await makeRegionAdmin('SP');
    const mg = await makeRegionAdmin('MG');
    const pro = await makePro('SP');
    const [late, onTime] = await makeLedger(pro.prof, [
      { tipo: 'chegada', credito: 0.2, peso: 1, minutos: 75, diasAtras: 2 },
      ...Array.from({ length: 3 }, () => ({ tipo: 'chegada' as const, credito: 1, peso: 1, minutos: 0 })),
    ]);
    return { sp, mg, pro, late: late!, onTime: onTime! };
  }

  it('contest → the region’s administrators told → abonar excuses the row and recomputes at once → the professional told', async () => {
    const { sp, mg, pro, late } = await world();
    const before = (await mine(pro.user.token)).body;
    const sumsBefore = (await regionSums('SP')).find((r) => r.tipo === 'chegada')!;
    const res = await contest(pro.user.token, {
      evento_id: late.id,
      motivo: 'o portão estava fechado, avisei o coordenador',
    });
    expect(res.status).toBe(201);
    expect(ContestacaoSchema.safeParse(res.body).error).toBeUndefined();
    expect(res.body).toMatchObject({
      evento_id: late.id,
      profissional_id: pro.prof.id,
      status: 'aberta',
      resposta: null,
    });
    expect(await entriesOf(res.body.id, 'confiabilidade_contestacoes.create')).toHaveLength(1);
    const told = await notificationsOf(sp.id, 'confiabilidade_contestacao');
    expect(told).toHaveLength(1);
    expect(told[0]!.dados).toMatchObject({ contestacao_id: res.body.id, evento_id: late.id });
    expect(await notificationsOf(mg.id, 'confiabilidade_contestacao')).toHaveLength(0);
    // the view shows the open contest on its row
    const view = (await mine(pro.user.token)).body;
    expect(view.eventos.find((e: { id: string }) => e.id === late.id).contestacao).toMatchObject({ status: 'aberta' });

    // the queue of the region lists it; another region's does not
    const queue = await api('GET', '/api/confiabilidade/contestacoes?status=aberta', { token: sp.token });
    expect(queue.status).toBe(200);
    expect(queue.headers.get('x-total-count')).toBe('1');
    expect(queue.body[0]).toMatchObject({
      id: res.body.id,
      profissional_nome: pro.prof.nome,
      evento: { tipo: 'chegada', minutos: 75 },
    });
    const other = await api('GET', '/api/confiabilidade/contestacoes', {
      token: sp.token,
      headers: { 'x-regiao': 'MG' },
    });
    expect(other.body).toEqual([]);

    expectError(await decide(mg.token, res.body.id, { decisao: 'abonar', resposta: 'ok' }, 'MG'), 404, 'NOT_FOUND');
    const answered = await decide(sp.token, res.body.id, { decisao: 'abonar', resposta: 'portão fechado confirmado' });
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({
      status: 'abonada',
      resposta: 'portão fechado confirmado',
      respondido_por: sp.id,
    });
    const [excused] = await db.select().from(confiabilidadeEventos).where(eq(confiabilidadeEventos.id, late.id));
    expect(excused).toMatchObject({ abonado: true, motivo: 'portão fechado confirmado' });
    // recomputed in the same batch: the kept score is the ledger without the excused row
    const after = (await mine(pro.user.token)).body;
    expect(after.pontuacao).toBeGreaterThan(before.pontuacao);
    expect(after.amostra).toMatchObject({ eventos: 3, abonados: 1, peso: 3 });
    expect((await keptScore(pro.prof.id)).valor!).toBeCloseTo(after.valor, 1);
    expect((await keptScore(pro.prof.id)).peso).toBe(3);
    const row = after.eventos.find((e: { id: string }) => e.id === late.id);
    expect(row).toMatchObject({ abonado: true, efeito_pontos: 0, contestacao: { status: 'abonada' } });
    expect(row.efeito).toContain('Abonado: não conta na pontuação (portão fechado confirmado).');
    const note = await notificationsOf(pro.user.id, 'confiabilidade_resposta');
    expect(note).toHaveLength(1);
    expect(note[0]!.mensagem).toContain('o registro foi abonado');
    expect(await entriesOf(late.id, 'confiabilidade_eventos.abonar')).toHaveLength(1);
    expect(await entriesOf(res.body.id, 'confiabilidade_contestacoes.decidir')).toHaveLength(1);
    // the region's kept sums lost the row
    const chegada = (await regionSums('SP')).find((r) => r.tipo === 'chegada')!;
    expect(chegada).toMatchObject({
      eventos: sumsBefore.eventos,
      abonados: sumsBefore.abonados + 1,
      somaPesoCent: sumsBefore.somaPesoCent - 100,
      somaCreditoCent: sumsBefore.somaCreditoCent - 20,
    });

    // answered once: again is 409; an excused row cannot be contested
    expectError(await decide(sp.token, res.body.id, { decisao: 'manter', resposta: 'x' }), 409, 'INVALID_STATE');
    expectError(await contest(pro.user.token, { evento_id: late.id, motivo: 'de novo' }), 409, 'INVALID_STATE');
  });

  it('manter keeps the row and tells the professional; one contest per row; errors', async () => {
    const { sp, pro, onTime } = await world();
    const res = await contest(pro.user.token, { evento_id: onTime.id, motivo: 'quero entender' });
    expect(res.status).toBe(201);
    expectError(await contest(pro.user.token, { evento_id: onTime.id, motivo: 'de novo' }), 409, 'CONFLICT');
    expectError(await contest(pro.user.token, { evento_id: UNKNOWN_ID, motivo: 'x' }), 404, 'NOT_FOUND');
    expectError(await contest(pro.user.token, { evento_id: 'x', motivo: 'x' }), 400, 'VALIDATION_FAILED');
    expectError(await contest(pro.user.token, { evento_id: onTime.id, motivo: '  ' }), 400, 'VALIDATION_FAILED');
    expectError(await decide(sp.token, res.body.id, { decisao: 'talvez', resposta: 'x' }), 400, 'VALIDATION_FAILED');
    expectError(await decide(sp.token, UNKNOWN_ID, { decisao: 'manter', resposta: 'x' }), 404, 'NOT_FOUND');
    const kept = await decide(sp.token, res.body.id, {
      decisao: 'manter',
      resposta: 'chegada no horário, nada a abonar',
    });
    expect(kept.body).toMatchObject({ status: 'mantida' });
    const [row] = await db.select().from(confiabilidadeEventos).where(eq(confiabilidadeEventos.id, onTime.id));
    expect(row!.abonado).toBe(false);
    const note = await notificationsOf(pro.user.id, 'confiabilidade_resposta');
    expect(note[0]!.mensagem).toContain('o registro foi mantido');
    expect(await entriesOf(onTime.id, 'confiabilidade_eventos.abonar')).toHaveLength(0);
  });

  it('exactly once: parallel contests of a row make one; parallel answers decide once, one notification', async () => {
    const { sp, pro, late } = await world();
    const contests = await Promise.all(
      Array.from({ length: 6 }, () => contest(pro.user.token, { evento_id: late.id, motivo: 'paralelo' })),
    );
    expect(contests.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of contests.filter((x) => x.status !== 201)) expectError(r, 409, 'CONFLICT');
    const id = contests.find((r) => r.status === 201)!.body.id as string;
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        decide(sp.token, id, { decisao: i % 2 ? 'manter' : 'abonar', resposta: `resposta ${i}` }),
      ),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of answers.filter((x) => x.status !== 200)) expectError(r, 409, 'INVALID_STATE');
    expect(await notificationsOf(pro.user.id, 'confiabilidade_resposta')).toHaveLength(1);
    expect(await entriesOf(id, 'confiabilidade_contestacoes.decidir')).toHaveLength(1);
    const [c] = await db.select().from(confiabilidadeContestacoes).where(eq(confiabilidadeContestacoes.id, id));
    const [row] = await db.select().from(confiabilidadeEventos).where(eq(confiabilidadeEventos.id, late.id));
    expect(row!.abonado).toBe(c!.status === 'abonada');
  });
});

describe('the nightly refresh (cron dispatcher)', () => {
  it('once per São Paulo day from 03:00, whatever the ticks; decay with the clock', async () => {
    const { prof } = await makePro('SP');
    const t0 = new Date('2031-05-10T06:10:00.000Z'); // 03:10 in São Paulo
    await makeLedger(prof, [{ tipo: 'falta', credito: 0, peso: 2, diasAtras: 0 }], t0);
    await makeProfissional('SP'); // no ledger: stays null
    const early = await nightly(new Date('2031-05-10T05:50:00.000Z')); // 02:50
    expect(early['confiabilidade-noturna']).toMatchObject({ executado: false, profissionais: 0 });
    expect((await keptScore(prof.id)).valor).toBeNull();

    await pinRegionMean('SP', 0.9);
    const first = await nightly(t0);
    expect(first['confiabilidade-noturna']).toMatchObject({ dia: '2031-05-10', executado: true });
    // 100 × 3·0.9 / (3 + 2)
    expect((await keptScore(prof.id)).valor).toBeCloseTo(54, 4);
    // the same day again (another tick, or an overlapping run): nothing recomputed, even with m moved
    await pinRegionMean('SP', 0.5);
    const again = await nightly(new Date('2031-05-10T18:00:00.000Z'));
    expect(again['confiabilidade-noturna']).toMatchObject({ executado: false, profissionais: 0 });
    expect((await keptScore(prof.id)).valor).toBeCloseTo(54, 4);
    await pinRegionMean('SP', 0.9);
    // 180 days later the no-show weighs half: 100 × 2.7 / (3 + 1)
    const later = await nightly(new Date('2031-11-06T06:10:00.000Z'));
    expect(later['confiabilidade-noturna']).toMatchObject({ executado: true });
    expect((await keptScore(prof.id)).valor).toBeCloseTo(67.5, 4);
    // 360 days: a quarter
    await nightly(new Date('2032-05-04T06:10:00.000Z'));
    expect((await keptScore(prof.id)).valor).toBeCloseTo((100 * 2.7) / 3.5, 4);
  });
});

describe('GET /api/confiabilidade/regioes: the floor (k-anonymity)', () => {
  /** Regions of their own, so each holds exactly the rows made here. */
  const regions = () => {
    const [a, b] = [crypto.randomUUID().slice(0, 6).toUpperCase(), crypto.randomUUID().slice(0, 6).toUpperCase()];
    return { a: `K${a}`, b: `K${b}`, bindings: { REGIOES: `SP,MG,K${a},K${b}` } };
  };
  const aggregates = async (bindings: { REGIOES: string }) => {
    const researcher = await makeUser({ role: 'RESEARCHER' });
    const res = await api('GET', '/api/confiabilidade/regioes', { token: researcher.token, bindings });
    expect(res.status).toBe(200);
    return res.body as any[];
  };
  const pros = (regiao: string, n: number) => Promise.all(Array.from({ length: n }, () => makeProfissional(regiao)));

  it('a region with one professional (under the floor) shows nothing of that person', async () => {
    const { a, bindings } = regions();
    const [alone] = await pros(a, 1);
    await makeLedger(alone!, [
      { tipo: 'chegada', credito: 0.5, peso: 1, minutos: 20 },
      { tipo: 'chegada', credito: 1, peso: 1, minutos: 0 },
      { tipo: 'falta', credito: 0, peso: 2 },
    ]);
    const region = (await aggregates(bindings)).find((r) => r.regiao === a);
    expect(region).toEqual({
      regiao: a,
      media_credito: PRIOR_PADRAO,
      padrao: true,
      eventos: 0,
      abonados: 0,
      suprimido: true,
      por_tipo: [
        { tipo: 'chegada', eventos: 0, abonados: 0, media_credito: null, suprimido: true },
        { tipo: 'falta', eventos: 0, abonados: 0, media_credito: null, suprimido: true },
        { tipo: 'cancelamento', eventos: 0, abonados: 0, media_credito: null, suprimido: false },
        { tipo: 'sem_confirmacao', eventos: 0, abonados: 0, media_credito: null, suprimido: false },
      ],
    });
  });

  it(`a kind at the floor (${MIN_PROFISSIONAIS_AGREGADO} professionals) is shown; one under it is hidden, and left out of the region's figures`, async () => {
    const { b, bindings } = regions();
    const group = await pros(b, MIN_PROFISSIONAIS_AGREGADO);
    // Every one arrives twice (on time, then 20 minutes late); all but one also miss a confirmation.
    for (const [i, p] of group.entries())
      await makeLedger(p, [
        { tipo: 'chegada', credito: 1, peso: 1, minutos: 0 },
        { tipo: 'chegada', credito: 0.5, peso: 1, minutos: 20, abonado: i === 0 },
        ...(i > 0 ? [{ tipo: 'sem_confirmacao' as const, credito: 0.5, peso: 0.5 }] : []),
      ]);
    const region = (await aggregates(bindings)).find((r) => r.regiao === b);
    // chegada: 10 rows, 1 excused; the mean over the 9 that count (5 × 1 + 4 × 0.5) / 9.
    const media = Math.round(((5 + 4 * 0.5) / 9) * 10_000) / 10_000;
    expect(region).toEqual({
      regiao: b,
      media_credito: media,
      padrao: false,
      eventos: 10,
      abonados: 1,
      suprimido: true,
      por_tipo: [
        { tipo: 'chegada', eventos: 10, abonados: 1, media_credito: media, suprimido: false },
        { tipo: 'falta', eventos: 0, abonados: 0, media_credito: null, suprimido: false },
        { tipo: 'cancelamento', eventos: 0, abonados: 0, media_credito: null, suprimido: false },
        { tipo: 'sem_confirmacao', eventos: 0, abonados: 0, media_credito: null, suprimido: true },
      ],
    });
    // The fifth professional's missed confirmation: the kind reaches the floor and shows.
    await makeLedger(group[0]!, [{ tipo: 'sem_confirmacao', credito: 0.5, peso: 0.5 }]);
    const after = (await aggregates(bindings)).find((r) => r.regiao === b);
    expect(after.suprimido).toBe(false);
    expect(after.eventos).toBe(15);
    expect(after.por_tipo[3]).toEqual({
      tipo: 'sem_confirmacao',
      eventos: 5,
      abonados: 0,
      media_credito: 0.5,
      suprimido: false,
    });
  });
});
