// Travel between accepted events (docs/decisions.md#d11, amended by D23) and declared unavailability
// (D24) on every path to `aceito`: the professional's accept, an application, an administrator's
// approval, the waiting-list promotion; `forcar`; the job listings' conflito_deslocamento and hidden dates.
import { env } from 'cloudflare:test';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  agenda,
  agendaEquipe,
  cidades,
  convites,
  disponibilidades,
  logsAtividade,
  notifications,
  whatsappOutbox,
} from '../../../src/db/schema';
import { conviteToken } from '../../../src/services/core/whatsapp';
import { travelMinutes, travelMinutesSql, type PlaceSql } from '../../../src/services/places/deslocamentos';
import {
  db,
  makeAdmin,
  makeConvite,
  makeEvento,
  makeFuncao,
  makePro,
  makeUser,
  type TestUser,
} from '../../helpers/factories';
import { api, expectError } from '../../helpers/request';
import { keptColumnsAfterAll } from '../../helpers/kept-columns';
import { buttonReply, deliver, invitedPro } from '../../helpers/whatsapp';

keptColumnsAfterAll();

const CAMPINAS = 3509502;
const SAO_PAULO = 3550308;
const JUNDIAI = 3525904;
const SANTOS = 3548500;
const DAY = '2030-08-14';
const NEXT_DAY = '2030-08-15';
const MARGEM = Number(env.MARGEM_DESLOCAMENTO_MIN);
const MESMA_CIDADE = Number(env.DESLOCAMENTO_MESMA_CIDADE_MIN);

type Pro = Awaited<ReturnType<typeof makePro>>;

interface EventOpts {
  data?: string;
  horario: string | null;
  fim?: string | null;
  cidade?: number | null;
  venue?: { latitude: number; longitude: number };
  quota?: number;
  publicar?: boolean;
  aprovacao?: boolean;
}

/** An event of region SP with one function's quota (published for the listings unless told). */
async function evento(admin: TestUser, funcaoId: string, o: EventOpts) {
  const e = await makeEvento('SP', admin, {
    dataEvento: o.data ?? DAY,
    horario: o.horario,
    horarioFim: o.fim ?? null,
    cidadeIbge: o.cidade === undefined ? CAMPINAS : o.cidade,
    latitude: o.venue?.latitude ?? null,
    longitude: o.venue?.longitude ?? null,
  });
  await db.insert(agendaEquipe).values({
    agendaId: e.id,
    funcaoId,
    quantidade: o.quota ?? 5,
    publicar: o.publicar ?? true,
    requerAprovacao: o.aprovacao ?? false,
  });
  return e;
}

async function world() {
  const admin = await makeAdmin();
  const foto = await makeFuncao('SP');
  const pro = await makePro('SP', [foto.id]);
  return { admin, foto, pro };
}

/** The minutes the rule estimates between two cities (services/places/deslocamentos.ts). */
async function estimated(a: number, b: number) {
  const [x, y] = await Promise.all(
    [a, b].map(async (code) => (await db.select().from(cidades).where(eq(cidades.codigoIbge, code)))[0]!),
  );
  return travelMinutes(
    { cidade: { codigo_ibge: a, latitude: x!.latitude, longitude: x!.longitude } },
    { cidade: { codigo_ibge: b, latitude: y!.latitude, longitude: y!.longitude } },
    [],
    MESMA_CIDADE,
  )!.minutos;
}

const invite = (admin: TestUser, eventId: string, pro: Pro, body: Record<string, unknown> = {}) =>
  api('POST', `/api/agenda/${eventId}/convites`, {
    token: admin.token,
    body: { profissional_id: pro.prof.id, funcao_id: pro.funcaoId, ...body },
  });
const answer = (token: string, id: string, body: Record<string, unknown>) =>
  api('PATCH', `/api/convites/${id}`, { token, body });
const accept = (pro: Pro, id: string) => answer(pro.user.token, id, { status: 'aceito' });
const apply = (pro: Pro, eventId: string, body: Record<string, unknown> = {}) =>
  api('POST', `/api/vagas/${eventId}/candidaturas`, {
    token: pro.user.token,
    body: { funcao_id: pro.funcaoId, ...body },
  });
const statusOf = async (id: string) =>
  (await db.select({ s: convites.status }).from(convites).where(eq(convites.id, id)))[0]?.s;
/** The activity-log entries of `acao` on the row `id`, their `dados` parsed. */
const entries = async (acao: string, id: string) =>
  (
    await db
      .select()
      .from(logsAtividade)
      .where(and(eq(logsAtividade.acao, acao), eq(logsAtividade.entidadeId, id)))
  ).map((e) => ({ ...e, dados: JSON.parse(String(e.dados)) as Record<string, unknown> }));
/** An `indisponivel` declaration straight into D1 (its routes are tested in test/routes/availability/). */
const unavailable = (pro: Pro, o: { de?: string; ate?: string; horas?: [string, string] } = {}) =>
  db.insert(disponibilidades).values({
    profissionalId: pro.prof.id,
    tipo: 'indisponivel',
    dataInicio: o.de ?? DAY,
    dataFim: o.ate ?? o.de ?? DAY,
    horaInicio: o.horas?.[0] ?? null,
    horaFim: o.horas?.[1] ?? null,
    origem: 'profissional',
  });

/** The exact 409 TRAVEL_CONFLICT body. */
function expectTravel(
  res: { status: number; body: any },
  conflito_com: string,
  folga_min: number,
  deslocamento_min: number,
) {
  expectError(res as never, 409, 'TRAVEL_CONFLICT');
  expect(res.body).toEqual({
    error: expect.stringContaining('deslocamento'),
    code: 'TRAVEL_CONFLICT',
    conflito_com,
    folga_min,
    deslocamento_min,
  });
}

/** The exact 409 PROFESSIONAL_UNAVAILABLE body. */
function expectUnavailable(res: { status: number; body: any }) {
  expectError(res as never, 409, 'PROFESSIONAL_UNAVAILABLE');
  expect(res.body).toEqual({ error: expect.stringContaining('indisponível'), code: 'PROFESSIONAL_UNAVAILABLE' });
}

describe('the travel rule in SQL is the estimate endpoint rule', () => {
  it('gives the minutes of travelMinutes for every step, city pairs across the country', async () => {
    const some = await db
      .select()
      .from(cidades)
      .where(sql`${cidades.codigoIbge} % 97 = 0`)
      .limit(40);
    const coords = new Map(
      (
        await db
          .select()
          .from(cidades)
          .where(sql`${cidades.codigoIbge} in (${CAMPINAS}, ${SAO_PAULO})`)
      ).map((c) => [c.codigoIbge, c]),
    );
    for (const c of some) coords.set(c.codigoIbge, c);
    const value = (code: number | null, lat: number | null = null, lon: number | null = null): PlaceSql => ({
      cidade: sql`${code}`,
      latitude: sql`${lat}`,
      longitude: sql`${lon}`,
      cidadeLatitude: sql`${code === null ? null : coords.get(code)!.latitude}`,
      cidadeLongitude: sql`${code === null ? null : coords.get(code)!.longitude}`,
    });
    const sqlMinutes = async (a: PlaceSql, b: PlaceSql) =>
      (
        await db.get<{ m: number | null }>(
          sql`select ${travelMinutesSql(a, b, { regiao: sql`'ZZ'`, mesmaCidade: sql`${MESMA_CIDADE}` })} as m`,
        )
      ).m;
    for (let i = 0; i + 1 < some.length; i++) {
      const [a, b] = [some[i]!, some[i + 1]!];
      const js = travelMinutes(
        { cidade: { codigo_ibge: a.codigoIbge, latitude: a.latitude, longitude: a.longitude } },
        { cidade: { codigo_ibge: b.codigoIbge, latitude: b.latitude, longitude: b.longitude } },
        [],
        MESMA_CIDADE,
      )!;
      expect(await sqlMinutes(value(a.codigoIbge), value(b.codigoIbge)), `${a.nome} → ${b.nome}`).toBe(js.minutos);
    }
    expect(await sqlMinutes(value(CAMPINAS), value(CAMPINAS))).toBe(MESMA_CIDADE);
    expect(await sqlMinutes(value(null), value(CAMPINAS))).toBeNull();
    expect(await sqlMinutes(value(CAMPINAS), value(null))).toBeNull();
    // Both venues: their own coordinates (here the same point: 0 minutes); one venue only: the cities.
    const here = [-23, -47] as const;
    expect(await sqlMinutes(value(CAMPINAS, ...here), value(SAO_PAULO, ...here))).toBe(0);
    expect(await sqlMinutes(value(CAMPINAS, ...here), value(SAO_PAULO))).toBe(await estimated(CAMPINAS, SAO_PAULO));
  });
});

describe('TRAVEL_CONFLICT on the professional accept (PATCH /api/convites/{id})', () => {
  it('the worked example: colação 15:00-17:00 in Campinas, baile 19:00 in São Paulo refused, 21:00 accepted', async () => {
    const { admin, foto, pro } = await world();
    const colacao = await evento(admin, foto.id, { horario: '15:00', fim: '17:00', cidade: CAMPINAS });
    const baile19 = await evento(admin, foto.id, { horario: '19:00', fim: '23:00', cidade: SAO_PAULO });
    const baile21 = await evento(admin, foto.id, { horario: '21:00', fim: '02:00', cidade: SAO_PAULO });
    const c0 = (await invite(admin, colacao.id, pro)).body;
    const c19 = (await invite(admin, baile19.id, pro)).body;
    const c21 = (await invite(admin, baile21.id, pro)).body;
    expect((await accept(pro, c0.id)).status).toBe(200);
    const travel = await estimated(CAMPINAS, SAO_PAULO);
    expect(travel + MARGEM).toBeGreaterThan(120);
    expectTravel(await accept(pro, c19.id), colacao.id, 120, travel);
    expect(await statusOf(c19.id)).toBe('pendente');
    expect(await entries('convites.accept', c19.id)).toHaveLength(0);
    expect((await accept(pro, c21.id)).body.status).toBe('aceito');
  });

  it('a gap exactly equal to travel + margin is accepted, a minute less is refused (same city)', async () => {
    const { admin, foto, pro } = await world();
    const first = await evento(admin, foto.id, { horario: '14:00', fim: '17:00' });
    await makeConvite(first.id, pro, 'aceito');
    const gap = MESMA_CIDADE + MARGEM;
    const at = (m: number) => `${String(17 + Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
    const tight = await evento(admin, foto.id, { horario: at(gap - 1), fim: '23:00' });
    const exact = await evento(admin, foto.id, { horario: at(gap), fim: '23:00' });
    const ct = (await invite(admin, tight.id, pro)).body;
    const ce = (await invite(admin, exact.id, pro)).body;
    expectTravel(await accept(pro, ct.id), first.id, gap - 1, MESMA_CIDADE);
    expect((await accept(pro, ce.id)).body.status).toBe('aceito');
  });

  it('the later event accepted first: travel from the new (earlier) event to it; the matrix one way, its reverse row', async () => {
    const { admin, foto } = await world();
    // Campinas → Jundiaí 50 min; Jundiaí → Campinas has its own row, 90 min.
    const put = await api('PUT', '/api/deslocamentos', {
      token: admin.token,
      body: {
        itens: [
          { origem_ibge: CAMPINAS, destino_ibge: JUNDIAI, minutos: 50 },
          { origem_ibge: JUNDIAI, destino_ibge: CAMPINAS, minutos: 90 },
        ],
      },
    });
    expect(put.status).toBe(200);
    // Evening event in Jundiaí accepted; an afternoon event in Campinas ending 18:30: 90 min of gap,
    // Campinas → Jundiaí 50 + 30: accepted.
    const a = await makePro('SP', [foto.id]);
    const jundiaiNight = await evento(admin, foto.id, { horario: '20:00', fim: '23:00', cidade: JUNDIAI });
    await makeConvite(jundiaiNight.id, a, 'aceito');
    const campinasAfternoon = await evento(admin, foto.id, { horario: '15:00', fim: '18:30', cidade: CAMPINAS });
    expect((await accept(a, (await invite(admin, campinasAfternoon.id, a)).body.id)).body.status).toBe('aceito');
    // The other way round: Jundiaí → Campinas is 90 + 30 > 90: refused, naming 90.
    const b = await makePro('SP', [foto.id]);
    const campinasNight = await evento(admin, foto.id, { horario: '20:00', fim: '23:00', cidade: CAMPINAS });
    await makeConvite(campinasNight.id, b, 'aceito');
    const jundiaiAfternoon = await evento(admin, foto.id, { horario: '15:00', fim: '18:30', cidade: JUNDIAI });
    const cb = (await invite(admin, jundiaiAfternoon.id, b)).body;
    expectTravel(await accept(b, cb.id), campinasNight.id, 90, 90);
  });

  it('adjacent days: a baile ending 02:00 the next day counts against the next morning', async () => {
    const { admin, foto, pro } = await world();
    const baile = await evento(admin, foto.id, { horario: '22:00', fim: '02:00', cidade: SAO_PAULO });
    await makeConvite(baile.id, pro, 'aceito');
    const travel = await estimated(SAO_PAULO, CAMPINAS);
    const early = await evento(admin, foto.id, { data: NEXT_DAY, horario: '03:00', fim: '06:00', cidade: CAMPINAS });
    const late = await evento(admin, foto.id, { data: NEXT_DAY, horario: '05:00', fim: '08:00', cidade: CAMPINAS });
    expectTravel(await accept(pro, (await invite(admin, early.id, pro)).body.id), baile.id, 60, travel);
    expect((await accept(pro, (await invite(admin, late.id, pro)).body.id)).body.status).toBe('aceito');
  });

  it('a city unknown on either side: no travel rule, only the overlap', async () => {
    const { admin, foto, pro } = await world();
    const a = await evento(admin, foto.id, { horario: '14:00', fim: '17:00', cidade: null });
    await makeConvite(a.id, pro, 'aceito');
    const b = await evento(admin, foto.id, { horario: '17:05', fim: '19:00', cidade: SANTOS });
    expect((await accept(pro, (await invite(admin, b.id, pro)).body.id)).body.status).toBe('aceito');
  });

  it("the venues' coordinates when both events have them", async () => {
    const { admin, foto, pro } = await world();
    // Two venues 100 m apart, in two cities whose centres are 80+ km apart: only the margin counts.
    const a = await evento(admin, foto.id, {
      horario: '14:00',
      fim: '17:00',
      cidade: CAMPINAS,
      venue: { latitude: -23.0, longitude: -47.0 },
    });
    await makeConvite(a.id, pro, 'aceito');
    const b = await evento(admin, foto.id, {
      horario: `17:${String(MARGEM + 10).padStart(2, '0')}`,
      fim: '19:00',
      cidade: SAO_PAULO,
      venue: { latitude: -23.0009, longitude: -47.0 },
    });
    expect((await accept(pro, (await invite(admin, b.id, pro)).body.id)).body.status).toBe('aceito');
  });

  it('a professional may not force: 403, nothing written', async () => {
    const { admin, foto, pro } = await world();
    const e = await evento(admin, foto.id, { horario: '20:00' });
    const c = (await invite(admin, e.id, pro)).body;
    expectError(await answer(pro.user.token, c.id, { status: 'aceito', forcar: true }), 403, 'FORBIDDEN');
    expect(await statusOf(c.id)).toBe('pendente');
  });
});

describe('TRAVEL_CONFLICT on the other paths to aceito', () => {
  async function colacaoAccepted() {
    const w = await world();
    const colacao = await evento(w.admin, w.foto.id, { horario: '15:00', fim: '17:00', cidade: CAMPINAS });
    await makeConvite(colacao.id, w.pro, 'aceito');
    return { ...w, colacao, travel: await estimated(CAMPINAS, SAO_PAULO) };
  }

  it('an application accepted at once: 409 with the conflict, nothing stays', async () => {
    const { admin, foto, pro, colacao, travel } = await colacaoAccepted();
    const baile = await evento(admin, foto.id, { horario: '19:00', fim: '23:00', cidade: SAO_PAULO });
    expectTravel(await apply(pro, baile.id), colacao.id, 120, travel);
    expect(await db.select().from(convites).where(eq(convites.agendaId, baile.id))).toHaveLength(0);
    // With approval it waits as solicitado: the administrator decides (below).
    const other = await evento(admin, foto.id, { horario: '19:30', fim: '23:00', cidade: SAO_PAULO, aprovacao: true });
    expect((await apply(pro, other.id)).body.status).toBe('solicitado');
  });

  it("an administrator's approval: 409; forcar passes it, logged with what it passed", async () => {
    const { admin, foto, pro, colacao, travel } = await colacaoAccepted();
    const baile = await evento(admin, foto.id, { horario: '19:00', fim: '23:00', cidade: SAO_PAULO, aprovacao: true });
    const app = (await apply(pro, baile.id)).body;
    expect(app.status).toBe('solicitado');
    expectTravel(await answer(admin.token, app.id, { status: 'aceito' }), colacao.id, 120, travel);
    expect(await statusOf(app.id)).toBe('solicitado');
    const forced = await answer(admin.token, app.id, { status: 'aceito', forcar: true });
    expect(forced.status).toBe(200);
    expect(forced.body.status).toBe('aceito');
    const [entry] = await entries('convites.approve', app.id);
    expect(entry!.atorId).toBe(admin.id);
    expect(entry!.dados).toMatchObject({
      status: { antes: 'solicitado', depois: 'aceito' },
      forcado: { depois: true },
      conflito_deslocamento: { depois: { conflito_com: colacao.id, folga_min: 120, deslocamento_min: travel } },
      indisponivel: { depois: false },
    });
  });

  it('forcar never passes an overlap or a full quota', async () => {
    const { admin, foto, pro } = await colacaoAccepted();
    const overlapping = await evento(admin, foto.id, { horario: '16:00', fim: '18:00', aprovacao: true });
    const a1 = (await apply(pro, overlapping.id)).body;
    expectError(await answer(admin.token, a1.id, { status: 'aceito', forcar: true }), 409, 'DOUBLE_BOOKED');
    const full = await evento(admin, foto.id, { data: '2030-09-01', horario: '20:00', quota: 1, aprovacao: true });
    const other = await makePro('SP', [foto.id]);
    await makeConvite(full.id, other, 'aceito');
    const a2 = (await apply(pro, full.id)).body;
    expectError(await answer(admin.token, a2.id, { status: 'aceito', forcar: true }), 409, 'QUOTA_FULL');
    expect(await entries('convites.approve', a1.id)).toHaveLength(0);
  });

  it('the waiting-list promotion skips a waiter with a travel conflict', async () => {
    const { admin, foto } = await world();
    const baile = await evento(admin, foto.id, { horario: '19:00', fim: '23:00', cidade: SAO_PAULO, quota: 1 });
    const holder = await makePro('SP', [foto.id]);
    const held = (await apply(holder, baile.id)).body;
    expect(held.status).toBe('aceito');
    const first = await makePro('SP', [foto.id]);
    const second = await makePro('SP', [foto.id]);
    const w1 = (await apply(first, baile.id, { lista_espera: true })).body;
    const w2 = (await apply(second, baile.id, { lista_espera: true })).body;
    expect([w1.status, w2.status]).toEqual(['espera', 'espera']);
    // The first waiter is meanwhile accepted on a colação in Campinas that afternoon.
    const colacao = await evento(admin, foto.id, { horario: '15:00', fim: '17:00', cidade: CAMPINAS });
    await makeConvite(colacao.id, first, 'aceito');
    expect((await answer(holder.user.token, held.id, { status: 'recusado' })).status).toBe(200);
    expect(await statusOf(w1.id)).toBe('espera');
    expect(await statusOf(w2.id)).toBe('aceito');
    expect(await entries('convites.promote', w2.id)).toHaveLength(1);
  });
});

describe('PROFESSIONAL_UNAVAILABLE (D24 effects)', () => {
  it('inviting onto a declared window: 409, nothing written; forcar (administrator) invites, logged, and its acceptance passes', async () => {
    const { admin, foto, pro } = await world();
    const e = await evento(admin, foto.id, { horario: '20:00' });
    await unavailable(pro);
    expectUnavailable(await invite(admin, e.id, pro));
    expect(await db.select().from(convites).where(eq(convites.agendaId, e.id))).toHaveLength(0);
    expect(
      await db
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, pro.user.id), eq(notifications.tipo, 'convite_recebido'))),
    ).toHaveLength(0);
    const forced = await invite(admin, e.id, pro, { forcar: true });
    expect(forced.status).toBe(201);
    const [entry] = await entries('convites.create', forced.body.id);
    expect(entry!.dados).toMatchObject({ forcado: { depois: true }, indisponivel: { depois: true } });
    expect((await accept(pro, forced.body.id)).body.status).toBe('aceito');
  });

  it('an agenda_viewer creator may not force (403); hours outside the declared ones are fine', async () => {
    const { admin, foto, pro } = await world();
    const viewer = await makeUser({ role: 'agenda_viewer' });
    const e = await evento(viewer, foto.id, { horario: '20:00' });
    await unavailable(pro, { horas: ['08:00', '12:00'] });
    const res = await api('POST', `/api/agenda/${e.id}/convites`, {
      token: viewer.token,
      body: { profissional_id: pro.prof.id, funcao_id: foto.id, forcar: true },
    });
    expectError(res, 403, 'FORBIDDEN');
    expect((await invite(admin, e.id, pro)).status).toBe(201);
    const morning = await evento(admin, foto.id, { horario: '11:00', fim: '13:00' });
    expectUnavailable(await invite(admin, morning.id, pro));
  });

  it('accepting after declaring: 409 (the invitation stays pendente)', async () => {
    const { admin, foto, pro } = await world();
    const e = await evento(admin, foto.id, { horario: '20:00' });
    const c = (await invite(admin, e.id, pro)).body;
    await unavailable(pro);
    expectUnavailable(await accept(pro, c.id));
    expect(await statusOf(c.id)).toBe('pendente');
  });

  it('applying: 409 with or without approval or waiting list; nothing stays', async () => {
    const { admin, foto, pro } = await world();
    await unavailable(pro);
    const open = await evento(admin, foto.id, { horario: '20:00' });
    const approval = await evento(admin, foto.id, { horario: '20:00', aprovacao: true });
    const full = await evento(admin, foto.id, { horario: '20:00', quota: 0 });
    expectUnavailable(await apply(pro, open.id));
    expectUnavailable(await apply(pro, approval.id));
    expectUnavailable(await apply(pro, full.id, { lista_espera: true }));
    for (const e of [open, approval, full])
      expect(await db.select().from(convites).where(eq(convites.agendaId, e.id))).toHaveLength(0);
  });

  it("an administrator's approval: 409; forcar approves, logged", async () => {
    const { admin, foto, pro } = await world();
    const e = await evento(admin, foto.id, { horario: '20:00', aprovacao: true });
    const app = (await apply(pro, e.id)).body;
    await unavailable(pro);
    expectUnavailable(await answer(admin.token, app.id, { status: 'aceito' }));
    expect((await answer(admin.token, app.id, { status: 'aceito', forcar: true })).body.status).toBe('aceito');
    const [entry] = await entries('convites.approve', app.id);
    expect(entry!.dados).toMatchObject({ forcado: { depois: true }, indisponivel: { depois: true } });
  });

  it('the waiting-list promotion skips an unavailable waiter', async () => {
    const { admin, foto } = await world();
    const e = await evento(admin, foto.id, { horario: '20:00', quota: 1 });
    const holder = await makePro('SP', [foto.id]);
    const held = (await apply(holder, e.id)).body;
    const first = await makePro('SP', [foto.id]);
    const second = await makePro('SP', [foto.id]);
    const w1 = (await apply(first, e.id, { lista_espera: true })).body;
    const w2 = (await apply(second, e.id, { lista_espera: true })).body;
    await unavailable(first);
    expect((await api('DELETE', `/api/convites/${held.id}`, { token: admin.token })).status).toBe(204);
    expect(await statusOf(w1.id)).toBe('espera');
    expect(await statusOf(w2.id)).toBe('aceito');
  });
});

describe('GET /api/vagas: hidden dates and conflito_deslocamento', () => {
  it('hides events on declared windows (the total too); preferencial hides nothing', async () => {
    const { admin, foto, pro } = await world();
    // 14:00-18:00: its window does not reach into the unavailable 2 October (a 20:00 one would, until 01:00).
    const e1 = await evento(admin, foto.id, { data: '2030-10-01', horario: '14:00', fim: '18:00' });
    const e2 = await evento(admin, foto.id, { data: '2030-10-02', horario: '20:00' });
    const e3 = await evento(admin, foto.id, { data: '2030-10-03', horario: '09:00', fim: '11:00' });
    const e4 = await evento(admin, foto.id, { data: '2030-10-04', horario: '20:00' });
    const list = (q = '') =>
      api('GET', `/api/vagas?funcao_id=${foto.id}&de=2030-10-01&ate=2030-10-31${q}`, { token: pro.user.token });
    expect((await list()).body.map((v: { agenda_id: string }) => v.agenda_id)).toEqual([e1.id, e2.id, e3.id, e4.id]);
    await unavailable(pro, { de: '2030-10-02' });
    // Its afternoon only: the 09:00 event stays.
    await unavailable(pro, { de: '2030-10-03', horas: ['13:00', '18:00'] });
    await unavailable(pro, { de: '2030-10-04', horas: ['21:00', '22:00'] });
    await db.insert(disponibilidades).values({
      profissionalId: pro.prof.id,
      tipo: 'preferencial',
      dataInicio: '2030-10-01',
      dataFim: '2030-10-01',
      origem: 'profissional',
    });
    const res = await list();
    expect(res.body.map((v: { agenda_id: string }) => v.agenda_id)).toEqual([e1.id, e3.id]);
    const paged = await list('&limit=1');
    expect(paged.body.map((v: { agenda_id: string }) => v.agenda_id)).toEqual([e1.id]);
    expect(paged.headers.get('x-total-count')).toBe('2');
    // Unfiltered (the kept counts' total) and by city: the same subtraction.
    const all = await api('GET', '/api/vagas?limit=1', { token: pro.user.token });
    expect(all.headers.get('x-total-count')).toBe('2');
  });

  it('conflito_deslocamento: what accepting would meet, else null', async () => {
    const { admin, foto, pro } = await world();
    const colacao = await evento(admin, foto.id, {
      data: '2030-11-05',
      horario: '15:00',
      fim: '17:00',
      cidade: CAMPINAS,
    });
    await makeConvite(colacao.id, pro, 'aceito');
    const baile19 = await evento(admin, foto.id, { data: '2030-11-05', horario: '19:00', cidade: SAO_PAULO });
    const baile21 = await evento(admin, foto.id, { data: '2030-11-05', horario: '21:00', cidade: SAO_PAULO });
    const res = await api('GET', `/api/vagas?funcao_id=${foto.id}&de=2030-11-05&ate=2030-11-05`, {
      token: pro.user.token,
    });
    const byId = Object.fromEntries(res.body.map((v: { agenda_id: string }) => [v.agenda_id, v]));
    expect(byId[baile19.id].conflito_deslocamento).toBe(true);
    expect(byId[baile19.id].conflito_deslocamento_detalhe).toEqual({
      conflito_com: colacao.id,
      folga_min: 120,
      deslocamento_min: await estimated(CAMPINAS, SAO_PAULO),
    });
    expect(byId[baile19.id].conflito_horario).toBe(false);
    expect(byId[baile21.id].conflito_deslocamento).toBe(false);
    expect(byId[baile21.id].conflito_deslocamento_detalhe).toBeNull();
  });
});

describe('concurrency', () => {
  it('one professional accepting two events too close to travel between, at once: at most one is accepted (5 rounds)', async () => {
    for (let round = 0; round < 5; round++) {
      const { admin, foto, pro } = await world();
      const colacao = await evento(admin, foto.id, { horario: '15:00', fim: '17:00', cidade: CAMPINAS });
      const baile = await evento(admin, foto.id, { horario: '19:00', fim: '23:00', cidade: SAO_PAULO });
      const ids = [(await invite(admin, colacao.id, pro)).body.id, (await invite(admin, baile.id, pro)).body.id];
      const results = await Promise.all(ids.map((id) => accept(pro, id)));
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(results.find((r) => r.status === 409)!.body.code).toBe('TRAVEL_CONFLICT');
      const statuses = await Promise.all(ids.map(statusOf));
      expect(statuses.filter((s) => s === 'aceito')).toHaveLength(1);
    }
  }, 60_000);

  it('20 acceptances at once, half in travel conflict: only compatible ones pass and the quota holds', async () => {
    const admin = await makeAdmin();
    const foto = await makeFuncao('SP');
    const baile = await evento(admin, foto.id, { horario: '19:00', fim: '23:00', cidade: SAO_PAULO, quota: 5 });
    const pros = await Promise.all(Array.from({ length: 20 }, () => makePro('SP', [foto.id])));
    const colacao = await evento(admin, foto.id, { horario: '15:00', fim: '17:00', cidade: CAMPINAS, quota: 20 });
    const conflicting = new Set<string>();
    for (const p of pros.slice(0, 10)) {
      await makeConvite(colacao.id, p, 'aceito');
      conflicting.add(p.prof.id);
    }
    const invited = await Promise.all(pros.map((p) => makeConvite(baile.id, p, 'pendente')));
    const results = await Promise.all(invited.map((c, i) => accept(pros[i]!, c.id)));
    const byCode: Record<string, number> = {};
    for (const r of results)
      byCode[r.status === 200 ? '200' : r.body.code] = (byCode[r.status === 200 ? '200' : r.body.code] ?? 0) + 1;
    expect(byCode).toEqual({ 200: 5, TRAVEL_CONFLICT: 10, QUOTA_FULL: 5 });
    const accepted = await db
      .select()
      .from(convites)
      .where(and(eq(convites.agendaId, baile.id), eq(convites.status, 'aceito')));
    expect(accepted).toHaveLength(5);
    for (const c of accepted) expect(conflicting.has(c.profissionalId)).toBe(false);
  }, 60_000);
});

describe('the WhatsApp button reply (the professional accept through the webhook)', () => {
  const repliesTo = async (profissionalId: string) =>
    (
      await db
        .select({ dados: whatsappOutbox.dados })
        .from(whatsappOutbox)
        .where(and(eq(whatsappOutbox.profissionalId, profissionalId), eq(whatsappOutbox.tipo, 'resposta')))
    ).map((r) => String(r.dados.texto));

  async function tapped(prepare: (x: Awaited<ReturnType<typeof invitedPro>>) => Promise<void>) {
    const x = await invitedPro(true);
    await prepare(x);
    const token = await conviteToken(env.JWT_SECRET as string, x.convite.id, x.prof.id);
    expect((await deliver(buttonReply(x.m.e164.slice(1), `aceitar:${token}`))).status).toBe(200);
    return x;
  }

  it('is refused for a declared unavailability: the invitation stays pendente, the reply says why', async () => {
    const x = await tapped(async (x) => {
      await db.insert(disponibilidades).values({
        profissionalId: x.prof.id,
        tipo: 'indisponivel',
        dataInicio: x.event.dataEvento,
        dataFim: x.event.dataEvento,
        origem: 'profissional',
      });
    });
    expect(await statusOf(x.convite.id)).toBe('pendente');
    expect(await repliesTo(x.prof.id)).toEqual([expect.stringContaining('indisponível')]);
  });

  it('is refused for travel: the reply gives the minutes', async () => {
    const x = await tapped(async (x) => {
      // The event (19:30, São Paulo) and a colação in Campinas until 18:00 the same day, accepted.
      await db.update(agenda).set({ cidadeIbge: SAO_PAULO }).where(eq(agenda.id, x.event.id));
      const colacao = await makeEvento('SP', x.admin, {
        dataEvento: x.event.dataEvento,
        horario: '16:00',
        horarioFim: '18:00',
        cidadeIbge: CAMPINAS,
      });
      await makeConvite(colacao.id, { prof: x.prof, funcaoId: x.funcao.id }, 'aceito');
    });
    expect(await statusOf(x.convite.id)).toBe('pendente');
    const travel = await estimated(CAMPINAS, SAO_PAULO);
    expect(await repliesTo(x.prof.id)).toEqual([
      expect.stringContaining(`o intervalo até outro evento aceito é de 90 min, e o deslocamento leva ${travel} min`),
    ]);
  });
});
