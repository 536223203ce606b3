// Job listings, applications, the waiting list and double booking by time window (docs/decisions.md#d17, #d11).
import { env } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { convites, lancamentos, logsAtividade, notifications, tiposEventos } from '../../../src/db/schema';
import { saoPauloDate } from '../../../src/lib/dates';
import {
  db,
  makeAdmin,
  makeCatalog,
  makeFot,
  makePreco,
  makeUser,
  type TestUser,
  makeEvento,
  makeFuncao,
  makePro,
} from '../../helpers/factories';
import { api, expectError } from '../../helpers/request';
import { expectKeptColumns, expectKeptCounts, keptColumnsAfterAll } from '../../helpers/kept-columns';

// Every team row these tests touched keeps its event's region, date and accepted count (triggers).
keptColumnsAfterAll();

const FUTURE = '2030-06-10';
interface EventOpts {
  regiao?: string;
  data?: string;
  horario?: string | null;
  horarioFim?: string | null;
  cidade?: string;
  estado?: string;
  tipoId?: string;
}

/** A listing's event: in the future, at 20:00, in Campinas, unless `o` says otherwise. */
const makeVagaEvento = (creator: TestUser, o: EventOpts = {}) =>
  makeEvento(o.regiao ?? 'SP', creator, {
    dataEvento: o.data ?? FUTURE,
    horario: o.horario === undefined ? '20:00' : o.horario,
    horarioFim: o.horarioFim ?? null,
    tipoEventoId: o.tipoId,
    fot: { cidade: o.cidade ?? 'Campinas', estado: o.estado ?? 'SP' },
  });

const equipe = (admin: TestUser, eventId: string, items: unknown[], regiao = 'SP') =>
  api('PUT', `/api/agenda/${eventId}/equipe`, { token: admin.token, regiao, body: items });

/** An event with one published function of the given quota. */
async function published(quota = 1, o: EventOpts & { aprovacao?: boolean } = {}) {
  const admin = await makeAdmin();
  const foto = await makeFuncao(o.regiao);
  const event = await makeVagaEvento(admin, o);
  const res = await equipe(
    admin,
    event.id,
    [{ funcao_id: foto.id, quantidade: quota, publicar: true, requer_aprovacao: o.aprovacao ?? false }],
    o.regiao,
  );
  expect(res.status).toBe(200);
  return { admin, foto, event };
}

/** An administrator invites a professional to an event, for one function. */
const invite = (admin: TestUser, eventId: string, profissionalId: string, funcaoId: string) =>
  api('POST', `/api/agenda/${eventId}/convites`, {
    token: admin.token,
    body: { profissional_id: profissionalId, funcao_id: funcaoId },
  });

const apply = (user: TestUser, eventId: string, body: unknown) =>
  api('POST', `/api/vagas/${eventId}/candidaturas`, { token: user.token, body });

const statusOf = async (id: string) =>
  (await db.select({ s: convites.status }).from(convites).where(eq(convites.id, id)))[0]?.s;

const notificationsOf = (userId: string, tipo: string) =>
  db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.tipo, tipo)));

const entries = (acao: string, id: string) =>
  db
    .select()
    .from(logsAtividade)
    .where(and(eq(logsAtividade.acao, acao), eq(logsAtividade.entidadeId, id)));

describe('agenda horario_fim (D9 amended)', () => {
  it('is stored, answered and validated on create and update', async () => {
    const admin = await makeAdmin();
    const fot = await makeFot('SP');
    const tipo = await makeCatalog(tiposEventos, 'SP');
    const res = await api('POST', '/api/agenda', {
      token: admin.token,
      body: { fot_id: fot.id, tipo_evento_id: tipo.id, data_evento: FUTURE, horario: '21:00', horario_fim: '03:00' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ horario: '21:00', horario_fim: '03:00' });
    const upd = await api('PUT', `/api/agenda/${res.body.id}`, { token: admin.token, body: { horario_fim: '04:30' } });
    expect(upd.body.horario_fim).toBe('04:30');
    const cleared = await api('PUT', `/api/agenda/${res.body.id}`, { token: admin.token, body: { horario_fim: null } });
    expect(cleared.body.horario_fim).toBeNull();
    expectError(
      await api('PUT', `/api/agenda/${res.body.id}`, { token: admin.token, body: { horario_fim: '25:00' } }),
      400,
      'VALIDATION_FAILED',
    );
  });
});

describe('equipe publicar / requer_aprovacao', () => {
  it('default false, are stored and answered with the waiting-list count', async () => {
    const admin = await makeAdmin();
    const f = await makeFuncao();
    const g = await makeFuncao();
    const event = await makeVagaEvento(admin);
    const res = await equipe(admin, event.id, [
      { funcao_id: f.id, quantidade: 2 },
      { funcao_id: g.id, quantidade: 1, publicar: true, requer_aprovacao: true },
    ]);
    expect(res.status).toBe(200);
    const byId = Object.fromEntries(res.body.equipe.map((e: { funcao_id: string }) => [e.funcao_id, e]));
    expect(byId[f.id]).toMatchObject({ publicar: false, requer_aprovacao: false, lista_espera: 0 });
    expect(byId[g.id]).toMatchObject({ publicar: true, requer_aprovacao: true, lista_espera: 0 });
    expectError(
      await equipe(admin, event.id, [{ funcao_id: f.id, quantidade: 1, publicar: 'sim' }]),
      400,
      'VALIDATION_FAILED',
    );
  });
});

describe('GET /api/vagas', () => {
  it('lists published functions the professional holds, with valor, places left and no client data', async () => {
    const { admin, foto, event } = await published(3, { horarioFim: '23:00' });
    await makePreco(event.tipoEventoId, foto.id, { valorCentavos: 35050 });
    const { user } = await makePro('SP', [foto.id]);
    const taken = await makePro('SP', [foto.id]);
    expect((await apply(taken.user, event.id, { funcao_id: foto.id })).body.status).toBe('aceito');
    const res = await api('GET', '/api/vagas', { token: user.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('X-Total-Count')).toBe('1');
    expect(res.body).toEqual([
      {
        agenda_id: event.id,
        data_evento: FUTURE,
        horario: '20:00',
        horario_fim: '23:00',
        local_evento: null,
        cidade: 'Campinas',
        uf: 'SP',
        tipo_evento: { id: event.tipoEventoId, nome: expect.any(String) },
        funcao_id: foto.id,
        funcao_nome: foto.label,
        requer_aprovacao: false,
        vagas_restantes: 2,
        valor: 350.5,
        conflito_horario: false,
        conflito_deslocamento: false,
        conflito_deslocamento_detalhe: null,
      },
    ]);
    void admin;
  });

  it('excludes: own invitation, other region, past, full, unpublished, function not held', async () => {
    const admin = await makeAdmin();
    const foto = await makeFuncao();
    const other = await makeFuncao();
    const { user, prof } = await makePro('SP', [foto.id]);
    const mk = async (o: EventOpts, item: Record<string, unknown>) => {
      const e = await makeVagaEvento(admin, o);
      await equipe(admin, e.id, [{ funcao_id: foto.id, quantidade: 1, publicar: true, ...item }], o.regiao);
      return e;
    };
    const visible = await mk({}, {});
    const invited = await mk({}, {});
    await invite(admin, invited.id, prof.id, foto.id);
    const past = await mk({ data: '2020-01-01' }, {});
    const full = await mk({}, { quantidade: 0 });
    const unpublished = await mk({}, { publicar: false });
    const notHeld = await makeVagaEvento(admin);
    await equipe(admin, notHeld.id, [{ funcao_id: other.id, quantidade: 1, publicar: true }]);
    const mgFoto = await makeFuncao('MG');
    const mgEvent = await makeVagaEvento(admin, { regiao: 'MG' });
    await equipe(admin, mgEvent.id, [{ funcao_id: mgFoto.id, quantidade: 1, publicar: true }], 'MG');
    const res = await api('GET', '/api/vagas', { token: user.token });
    const ids = res.body.map((v: { agenda_id: string }) => v.agenda_id);
    expect(ids).toEqual([visible.id]);
    for (const hidden of [invited, past, full, unpublished, notHeld, mgEvent]) expect(ids).not.toContain(hidden.id);
    // The page's total (its own count statement) applies the same exclusions as the list.
    expect(res.headers.get('X-Total-Count')).toBe('1');
    const page = await api('GET', '/api/vagas?limit=1', { token: user.token });
    expect(page.body.map((v: { agenda_id: string }) => v.agenda_id)).toEqual([visible.id]);
    expect(page.headers.get('X-Total-Count')).toBe('1');
  });

  it("the city and state filters follow the record's city changed and the event moved to another record", async () => {
    const admin = await makeAdmin();
    const foto = await makeFuncao();
    const { user } = await makePro('SP', [foto.id]);
    const ev = await makeVagaEvento(admin, { data: '2030-09-01', cidade: 'Sorocaba', estado: 'SP' });
    await equipe(admin, ev.id, [{ funcao_id: foto.id, quantidade: 1, publicar: true }]);
    const ids = async (q: string) => {
      const res = await api('GET', `/api/vagas?${q}`, { token: user.token });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const page = await api('GET', `/api/vagas?${q}&limit=1`, { token: user.token });
      expect(page.headers.get('X-Total-Count'), q).toBe(String(res.body.length));
      return res.body.map((v: { agenda_id: string }) => v.agenda_id);
    };
    expect(await ids('cidade=SOROCABA')).toEqual([ev.id]);
    const changed = await api('PUT', `/api/cadastro-fot/${ev.fotId}`, {
      token: admin.token,
      body: { cidade: 'Jundiaí', estado: 'MG' },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(await ids('cidade=sorocaba')).toEqual([]);
    expect(await ids('cidade=jundiaí')).toEqual([ev.id]);
    expect(await ids('uf=MG')).toContain(ev.id);
    const other = await makeFot('SP', { cidade: 'Itu', estado: 'SP' });
    const moved = await api('PUT', `/api/agenda/${ev.id}`, { token: admin.token, body: { fot_id: other.id } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(await ids('cidade=jundiaí')).toEqual([]);
    expect(await ids('cidade=itu')).toEqual([ev.id]);
    expect(await ids('uf=MG')).not.toContain(ev.id);
    await expectKeptColumns();
  });

  it('filters by function, event type, dates, city and state; orders by date and time; pages', async () => {
    const admin = await makeAdmin();
    const foto = await makeFuncao();
    const cine = await makeFuncao();
    const tipo = await makeCatalog(tiposEventos, 'SP');
    const { user } = await makePro('SP', [foto.id, cine.id]);
    const late = await makeVagaEvento(admin, {
      data: '2030-07-01',
      horario: '21:00',
      cidade: 'Santos',
      tipoId: tipo.id,
    });
    const early = await makeVagaEvento(admin, { data: '2030-07-01', horario: '09:00', cidade: 'Campinas' });
    const mg = await makeVagaEvento(admin, { data: '2030-08-01', estado: 'MG', cidade: 'Uberaba' });
    for (const e of [late, early, mg])
      await equipe(admin, e.id, [
        { funcao_id: foto.id, quantidade: 1, publicar: true },
        { funcao_id: cine.id, quantidade: 1, publicar: e.id === early.id },
      ]);
    const get = async (q = '') => (await api('GET', `/api/vagas${q}`, { token: user.token })).body;
    const key = (v: { agenda_id: string; funcao_id: string }) => `${v.agenda_id}:${v.funcao_id}`;
    const all = await get();
    // by date and time, then by function name
    expect(all.map(key).slice(2)).toEqual([`${late.id}:${foto.id}`, `${mg.id}:${foto.id}`]);
    expect(all.map((v: { agenda_id: string }) => v.agenda_id)).toEqual([early.id, early.id, late.id, mg.id]);
    expect((await get(`?funcao_id=${cine.id}`)).map(key)).toEqual([`${early.id}:${cine.id}`]);
    // One function's page walks its places (services/teams/vagas.ts fromFunctionPlaces): the same order.
    expect((await get(`?funcao_id=${foto.id}`)).map(key)).toEqual([early, late, mg].map((e) => `${e.id}:${foto.id}`));
    expect((await get(`?funcao_id=${foto.id}&uf=sp&ate=2030-07-15`)).map(key)).toEqual(
      [early, late].map((e) => `${e.id}:${foto.id}`),
    );
    expect((await get(`?funcao_id=${foto.id}&limit=1&offset=1`)).map(key)).toEqual([`${late.id}:${foto.id}`]);
    expect((await get(`?tipo_evento_id=${tipo.id}`)).map(key)).toEqual([`${late.id}:${foto.id}`]);
    expect((await get('?de=2030-07-15')).map(key)).toEqual([`${mg.id}:${foto.id}`]);
    expect((await get('?ate=2030-07-15')).length).toBe(3);
    expect((await get('?cidade=santos')).map(key)).toEqual([`${late.id}:${foto.id}`]);
    expect((await get('?uf=mg')).map(key)).toEqual([`${mg.id}:${foto.id}`]);
    const page = await api('GET', '/api/vagas?limit=1&offset=2', { token: user.token });
    expect(page.body.map(key)).toEqual([`${late.id}:${foto.id}`]);
    expect(page.headers.get('X-Total-Count')).toBe('4');
    // Each filter's paged total is its whole list's length (the count joins the FOT record only for cidade/uf).
    for (const q of [
      `funcao_id=${cine.id}`,
      `funcao_id=${foto.id}&uf=sp`,
      `tipo_evento_id=${tipo.id}`,
      'de=2030-07-15',
      'ate=2030-07-15',
      'cidade=santos',
      'uf=mg',
    ]) {
      const total = (await api('GET', `/api/vagas?${q}&limit=1`, { token: user.token })).headers.get('X-Total-Count');
      expect(total, q).toBe(String((await get(`?${q}`)).length));
    }
    expectError(await api('GET', '/api/vagas?uf=XX', { token: user.token }), 400, 'VALIDATION_FAILED');
    expectError(
      await api('GET', '/api/vagas?de=2030-02-01&ate=2030-01-01', { token: user.token }),
      400,
      'VALIDATION_FAILED',
    );
    expectError(await api('GET', '/api/vagas?funcao_id=x', { token: user.token }), 400, 'VALIDATION_FAILED');
  });

  it('marks conflito_horario with the time-window rule', async () => {
    const admin = await makeAdmin();
    const foto = await makeFuncao();
    const { user } = await makePro('SP', [foto.id]);
    const colacao = await makeVagaEvento(admin, { horario: '14:00', horarioFim: '17:00' });
    const baile = await makeVagaEvento(admin, { horario: '21:00', horarioFim: '03:00' });
    const overlapping = await makeVagaEvento(admin, { horario: '16:00', horarioFim: '18:00' });
    for (const e of [colacao, baile, overlapping])
      await equipe(admin, e.id, [{ funcao_id: foto.id, quantidade: 2, publicar: true }]);
    expect((await apply(user, colacao.id, { funcao_id: foto.id })).body.status).toBe('aceito');
    const list = (await api('GET', '/api/vagas', { token: user.token })).body as {
      agenda_id: string;
      conflito_horario: boolean;
    }[];
    const flag = Object.fromEntries(list.map((v) => [v.agenda_id, v.conflito_horario]));
    expect(flag).toEqual({ [baile.id]: false, [overlapping.id]: true });
  });

  it("a team's counts follow every change of its invitations, by route or by hand (kept by triggers, drizzle/0027)", async () => {
    const { admin, foto, event } = await published(1, { aprovacao: true });
    const team = async () => {
      const res = await api('GET', `/api/agenda/${event.id}`, { token: admin.token });
      expect(res.status).toBe(200);
      const { aceitos, pendentes, lista_espera } = res.body.equipe.find(
        (e: { funcao_id: string }) => e.funcao_id === foto.id,
      );
      return [aceitos, pendentes, lista_espera];
    };
    expect(await team()).toEqual([0, 0, 0]);
    // an invitation and an application wait (pendente, solicitado)
    const a = await makePro('SP', [foto.id]);
    const inv = (await invite(admin, event.id, a.prof.id, foto.id)).body;
    const b = await makePro('SP', [foto.id]);
    const asked = (await apply(b.user, event.id, { funcao_id: foto.id })).body;
    expect(asked.status).toBe('solicitado');
    expect(await team()).toEqual([0, 2, 0]);
    // the invitation accepted fills the place; the team replaced (no approval now) recounts; the next
    // application joins the waiting list
    await api('PATCH', `/api/convites/${inv.id}`, { token: a.user.token, body: { status: 'aceito' } });
    expect(await team()).toEqual([1, 1, 0]);
    await equipe(admin, event.id, [{ funcao_id: foto.id, quantidade: 1, publicar: true }]);
    expect(await team()).toEqual([1, 1, 0]);
    const c = await makePro('SP', [foto.id]);
    expect((await apply(c.user, event.id, { funcao_id: foto.id, lista_espera: true })).body.status).toBe('espera');
    expect(await team()).toEqual([1, 1, 1]);
    // the application withdrawn by an administrator, a profile deleted (its invitation cascades)
    expect((await api('DELETE', `/api/convites/${asked.id}`, { token: admin.token })).status).toBe(204);
    expect(await team()).toEqual([1, 0, 1]);
    expect((await api('DELETE', `/api/profissionais/${c.prof.id}`, { token: admin.token })).status).toBe(200);
    expect(await team()).toEqual([1, 0, 0]);
    // by hand: a status and a function changed
    await env.DB.prepare(`UPDATE convites SET status = 'espera' WHERE id = ?`).bind(inv.id).run();
    expect(await team()).toEqual([0, 0, 1]);
    const other = await makeFuncao();
    await equipe(admin, event.id, [
      { funcao_id: foto.id, quantidade: 2, publicar: true },
      { funcao_id: other.id, quantidade: 1 },
    ]);
    expect(await team()).toEqual([0, 0, 1]);
    await env.DB.prepare(`UPDATE convites SET funcao_id = ?, status = 'pendente' WHERE id = ?`)
      .bind(other.id, inv.id)
      .run();
    expect(await team()).toEqual([0, 0, 0]);
    expect(await expectKeptColumns()).toBeGreaterThan(1);
    // the event deleted takes its team and invitations
    expect((await api('DELETE', `/api/agenda/${event.id}`, { token: admin.token })).status).toBe(204);
    await expectKeptColumns();
  });

  it('places left follow every change of the event, its team and its invitations (kept by triggers)', async () => {
    const { admin, foto, event } = await published(2);
    const { user } = await makePro('SP', [foto.id]);
    // The caller holds this new function only: its listing is this event's, or none (`left: null`).
    const seen = async (q = '') => {
      const res = await api('GET', `/api/vagas?limit=10${q}`, { token: user.token });
      expect(res.status).toBe(200);
      expect(res.body.every((v: { agenda_id: string }) => v.agenda_id === event.id)).toBe(true);
      return { total: Number(res.headers.get('X-Total-Count')), left: res.body[0]?.vagas_restantes ?? null };
    };
    expect(await seen()).toEqual({ total: 1, left: 2 });
    // an application accepted at once, then an invitation accepted: the place is full, not listed
    const a = await makePro('SP', [foto.id]);
    const conv = (await apply(a.user, event.id, { funcao_id: foto.id })).body;
    expect(await seen()).toEqual({ total: 1, left: 1 });
    const b = await makePro('SP', [foto.id]);
    const inv = (await invite(admin, event.id, b.prof.id, foto.id)).body;
    expect(await seen()).toEqual({ total: 1, left: 1 });
    await api('PATCH', `/api/convites/${inv.id}`, { token: b.user.token, body: { status: 'aceito' } });
    expect(await seen()).toEqual({ total: 0, left: null });
    // the team replaced with a larger quota counts the accepted invitations already there
    await equipe(admin, event.id, [{ funcao_id: foto.id, quantidade: 4, publicar: true }]);
    expect(await seen()).toEqual({ total: 1, left: 2 });
    // a decline, a cancellation and a deleted profile (its invitations cascade) give places back
    await api('PATCH', `/api/convites/${conv.id}`, { token: a.user.token, body: { status: 'recusado' } });
    expect(await seen()).toEqual({ total: 1, left: 3 });
    const c = await makePro('SP', [foto.id]);
    expect((await apply(c.user, event.id, { funcao_id: foto.id })).body.status).toBe('aceito');
    expect(await seen()).toEqual({ total: 1, left: 2 });
    expect((await api('DELETE', `/api/profissionais/${c.prof.id}`, { token: admin.token })).status).toBe(200);
    expect(await seen()).toEqual({ total: 1, left: 3 });
    expect((await api('DELETE', `/api/convites/${inv.id}`, { token: admin.token })).status).toBe(204);
    expect(await seen()).toEqual({ total: 1, left: 4 });
    // the event moved: its listing follows its date
    const moved = await api('PUT', `/api/agenda/${event.id}`, {
      token: admin.token,
      body: { data_evento: '2031-03-01' },
    });
    expect(moved.status).toBe(200);
    expect(await seen('&ate=2030-12-31')).toEqual({ total: 0, left: null });
    expect(await seen('&de=2031-03-01&ate=2031-03-01')).toEqual({ total: 1, left: 4 });
    // writes no route makes (a console, a script) are kept too: another region, a team row re-keyed
    await env.DB.prepare(`UPDATE agenda SET regiao = 'MG' WHERE id = ?`).bind(event.id).run();
    expect(await seen()).toEqual({ total: 0, left: null });
    await env.DB.prepare(`UPDATE agenda SET regiao = 'SP' WHERE id = ?`).bind(event.id).run();
    expect(await seen()).toEqual({ total: 1, left: 4 });
    const other = await makeVagaEvento(admin, { data: '2031-04-01' });
    await env.DB.prepare(`UPDATE agenda_equipe SET agenda_id = ? WHERE agenda_id = ?`).bind(other.id, event.id).run();
    expect(await expectKeptColumns()).toBeGreaterThan(0);
    expect((await expectKeptCounts()).vagas).toBeGreaterThan(0);
    await env.DB.prepare(`UPDATE agenda_equipe SET agenda_id = ? WHERE agenda_id = ?`).bind(event.id, other.id).run();
    expect(await seen()).toEqual({ total: 1, left: 4 });
    // re-keyed to a function no open place has had yet (its count row does not exist), and back
    const fresh = await makeFuncao();
    await env.DB.prepare(`UPDATE agenda_equipe SET funcao_id = ? WHERE agenda_id = ? AND funcao_id = ?`)
      .bind(fresh.id, event.id, foto.id)
      .run();
    expect(await seen()).toEqual({ total: 0, left: null });
    await expectKeptCounts();
    await env.DB.prepare(`UPDATE agenda_equipe SET funcao_id = ? WHERE agenda_id = ? AND funcao_id = ?`)
      .bind(foto.id, event.id, fresh.id)
      .run();
    expect(await seen()).toEqual({ total: 1, left: 4 });
    // the event deleted: its places are gone
    expect((await api('DELETE', `/api/agenda/${event.id}`, { token: admin.token })).status).toBe(204);
    expect(await seen()).toEqual({ total: 0, left: null });
    await expectKeptColumns();
    await expectKeptCounts();
  });

  it('is for a professional with a profile', async () => {
    const noProfile = await makeUser({ role: 'profissional' });
    expectError(await api('GET', '/api/vagas', { token: noProfile.token }), 404, 'NOT_FOUND');
    const admin = await makeAdmin();
    expectError(await api('GET', '/api/vagas', { token: admin.token }), 403, 'FORBIDDEN');
    expectError(await api('GET', '/api/vagas'), 401, 'UNAUTHENTICATED');
  });
});

describe('POST /api/vagas/{agenda_id}/candidaturas', () => {
  it('without approval: aceito at once, logged, administrators and creator notified', async () => {
    const { admin, foto, event } = await published(1);
    const { user, prof } = await makePro('SP', [foto.id]);
    const res = await apply(user, event.id, { funcao_id: foto.id });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      agenda_id: event.id,
      profissional_id: prof.id,
      status: 'aceito',
      origem: 'candidatura',
      convidado_por: null,
    });
    expect(await notificationsOf(admin.id, 'candidatura_recebida')).toHaveLength(1);
    expect(await entries('convites.apply', res.body.id)).toHaveLength(1);
    expect(await entries('convites.accept', res.body.id)).toHaveLength(1);
    const view = await api('GET', `/api/agenda/${event.id}`, { token: admin.token });
    expect(view.body.equipe[0]).toMatchObject({ aceitos: 1, faltantes: 0 });
    const mine = await api('GET', '/api/convites?status=aceito', { token: user.token });
    expect(mine.body.map((c: { id: string }) => c.id)).toEqual([res.body.id]);
  });

  it('a second application to the same event is 409 ALREADY_APPLIED, also after an invitation', async () => {
    const { admin, foto, event } = await published(3);
    const { user, prof } = await makePro('SP', [foto.id]);
    expect((await apply(user, event.id, { funcao_id: foto.id })).status).toBe(201);
    expectError(await apply(user, event.id, { funcao_id: foto.id }), 409, 'ALREADY_APPLIED');
    const other = await published(3);
    const b = await makePro('SP', [other.foto.id]);
    await invite(other.admin, other.event.id, b.prof.id, other.foto.id);
    expectError(await apply(b.user, other.event.id, { funcao_id: other.foto.id }), 409, 'ALREADY_APPLIED');
    void admin;
    void prof;
  });

  it('refuses: unpublished 404, other region 404, unknown 404, not held 400, past 409, bad body 400, roles', async () => {
    const { admin, foto, event } = await published(1);
    const unpub = await makeFuncao();
    await equipe(admin, event.id, [
      { funcao_id: foto.id, quantidade: 1, publicar: true },
      { funcao_id: unpub.id, quantidade: 1 },
    ]);
    const notHeld = await makeFuncao();
    const { user } = await makePro('SP', [foto.id, unpub.id]);
    expectError(await apply(user, event.id, { funcao_id: unpub.id }), 404, 'NOT_FOUND');
    expectError(await apply(user, event.id, { funcao_id: notHeld.id }), 404, 'NOT_FOUND');
    const held = await published(1);
    const other = await makeFuncao();
    await equipe(held.admin, held.event.id, [
      { funcao_id: held.foto.id, quantidade: 1, publicar: true },
      { funcao_id: other.id, quantidade: 1, publicar: true },
    ]);
    expectError(await apply(user, held.event.id, { funcao_id: other.id }), 400, 'VALIDATION_FAILED');
    const mg = await published(1, { regiao: 'MG' });
    const mgPro = await makePro('SP', [mg.foto.id]);
    expectError(await apply(mgPro.user, mg.event.id, { funcao_id: mg.foto.id }), 404, 'NOT_FOUND');
    expectError(await apply(user, crypto.randomUUID(), { funcao_id: foto.id }), 404, 'NOT_FOUND');
    const past = await published(1, { data: '2020-01-01' });
    const pastPro = await makePro('SP', [past.foto.id]);
    expectError(await apply(pastPro.user, past.event.id, { funcao_id: past.foto.id }), 409, 'INVALID_STATE');
    expectError(await apply(user, event.id, { funcao_id: 'x' }), 400, 'VALIDATION_FAILED');
    expectError(await apply(user, event.id, { funcao_id: foto.id, lista_espera: 'sim' }), 400, 'VALIDATION_FAILED');
    expectError(await apply(user, 'nope', { funcao_id: foto.id }), 400, 'INVALID_ID');
    expectError(await apply(admin, event.id, { funcao_id: foto.id }), 403, 'FORBIDDEN');
    const noProfile = await makeUser({ role: 'profissional' });
    expectError(await apply(noProfile, event.id, { funcao_id: foto.id }), 404, 'NOT_FOUND');
    expectError(
      await api('POST', `/api/vagas/${event.id}/candidaturas`, { body: { funcao_id: foto.id } }),
      401,
      'UNAUTHENTICATED',
    );
    expect(await db.select().from(convites).where(eq(convites.agendaId, past.event.id))).toEqual([]);
  });

  it('a full function is 409 QUOTA_FULL, or espera with lista_espera', async () => {
    const { foto, event } = await published(1);
    const a = await makePro('SP', [foto.id]);
    const b = await makePro('SP', [foto.id]);
    const c = await makePro('SP', [foto.id]);
    expect((await apply(a.user, event.id, { funcao_id: foto.id })).body.status).toBe('aceito');
    expectError(await apply(b.user, event.id, { funcao_id: foto.id }), 409, 'QUOTA_FULL');
    expect(await db.select().from(convites).where(eq(convites.profissionalId, b.prof.id))).toEqual([]);
    const waiting = await apply(c.user, event.id, { funcao_id: foto.id, lista_espera: true });
    expect(waiting.status).toBe(201);
    expect(waiting.body.status).toBe('espera');
    const view = await api('GET', `/api/agenda/${event.id}`, { token: (await makeAdmin()).token });
    expect(view.body.equipe[0]).toMatchObject({ aceitos: 1, pendentes: 0, lista_espera: 1 });
    // lista_espera with a place open: accepted at once
    const open = await published(2);
    const d = await makePro('SP', [open.foto.id]);
    expect((await apply(d.user, open.event.id, { funcao_id: open.foto.id, lista_espera: true })).body.status).toBe(
      'aceito',
    );
  });

  it('with approval: solicitado; an administrator approves (same guard) or refuses', async () => {
    const { admin, foto, event } = await published(1, { aprovacao: true });
    const a = await makePro('SP', [foto.id]);
    const b = await makePro('SP', [foto.id]);
    const c = await makePro('SP', [foto.id]);
    const ca = (await apply(a.user, event.id, { funcao_id: foto.id })).body;
    const cb = (await apply(b.user, event.id, { funcao_id: foto.id })).body;
    const cc = (await apply(c.user, event.id, { funcao_id: foto.id })).body;
    expect([ca.status, cb.status, cc.status]).toEqual(['solicitado', 'solicitado', 'solicitado']);
    const view = await api('GET', `/api/agenda/${event.id}`, { token: admin.token });
    expect(view.body.equipe[0]).toMatchObject({ aceitos: 0, pendentes: 3, faltantes: 1 });
    // the professional cannot accept its own application
    expectError(
      await api('PATCH', `/api/convites/${ca.id}`, { token: a.user.token, body: { status: 'aceito' } }),
      409,
      'INVALID_STATE',
    );
    const patch = (id: string, status: string, regiao = 'SP') =>
      api('PATCH', `/api/convites/${id}`, { token: admin.token, regiao, body: { status } });
    // The professional's notifications of a decision, as [titulo, mensagem, dados].
    const decisionNotes = async (userId: string, tipo: string) =>
      (await notificationsOf(userId, tipo)).map((n) => [n.titulo, n.mensagem, n.dados]);
    expectError(await patch(ca.id, 'aceito', 'MG'), 404, 'NOT_FOUND');
    const ok = await patch(ca.id, 'aceito');
    expect(ok.status).toBe(200);
    expect(ok.body.status).toBe('aceito');
    expect(await decisionNotes(a.user.id, 'candidatura_aprovada')).toEqual([
      [
        'Candidatura aprovada',
        `Sua candidatura para o evento de ${FUTURE} foi aprovada.`,
        { convite_id: ca.id, agenda_id: event.id, status: 'aceito' },
      ],
    ]);
    expect(await entries('convites.approve', ca.id)).toHaveLength(1);
    expectError(await patch(cb.id, 'aceito'), 409, 'QUOTA_FULL');
    expect(await statusOf(cb.id)).toBe('solicitado');
    expect(await notificationsOf(b.user.id, 'candidatura_aprovada')).toHaveLength(0);
    const no = await patch(cc.id, 'recusado');
    expect(no.body.status).toBe('recusado');
    expect(await decisionNotes(c.user.id, 'candidatura_recusada')).toEqual([
      [
        'Candidatura recusada',
        `Sua candidatura para o evento de ${FUTURE} foi recusada.`,
        { convite_id: cc.id, agenda_id: event.id, status: 'recusado' },
      ],
    ]);
    expect(await entries('convites.reject', cc.id)).toHaveLength(1);
    expectError(await patch(cc.id, 'aceito'), 409, 'INVALID_STATE');
    expectError(await patch(ca.id, 'recusado'), 409, 'INVALID_STATE');
    // a refused application is not accepted by its professional
    expectError(
      await api('PATCH', `/api/convites/${cc.id}`, { token: c.user.token, body: { status: 'aceito' } }),
      409,
      'INVALID_STATE',
    );
    expect(await statusOf(cc.id)).toBe('recusado');
    expectError(await patch(crypto.randomUUID(), 'aceito'), 404, 'NOT_FOUND');
    expectError(await patch(cb.id, 'talvez'), 400, 'VALIDATION_FAILED');
  });

  it('of 20 professionals applying for the last place exactly one gets it', async () => {
    const { foto, event } = await published(1, { regiao: 'MG' });
    const pros = await Promise.all(Array.from({ length: 20 }, () => makePro('MG', [foto.id])));
    const results = await Promise.all(pros.map((p) => apply(p.user, event.id, { funcao_id: foto.id })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 201)) expectError(r, 409, 'QUOTA_FULL');
    const rows = await db.select().from(convites).where(eq(convites.agendaId, event.id));
    expect(rows.map((r) => r.status)).toEqual(['aceito']);
  }, 60_000);
});

describe('waiting-list promotion', () => {
  async function fullWithWaiters(waiters: number, quota = 1) {
    const w = await published(quota);
    const holders = [];
    for (let i = 0; i < quota; i++) {
      const p = await makePro('SP', [w.foto.id]);
      holders.push({ ...p, conv: (await apply(p.user, w.event.id, { funcao_id: w.foto.id })).body });
    }
    const queue = [];
    for (let i = 0; i < waiters; i++) {
      const p = await makePro('SP', [w.foto.id]);
      const conv = (await apply(p.user, w.event.id, { funcao_id: w.foto.id, lista_espera: true })).body;
      expect(conv.status).toBe('espera');
      queue.push({ ...p, conv });
    }
    return { ...w, holders, queue };
  }

  it('a decline promotes the oldest waiter in the same request, notified and logged', async () => {
    const { holders, queue } = await fullWithWaiters(2);
    const res = await api('PATCH', `/api/convites/${holders[0]!.conv.id}`, {
      token: holders[0]!.user.token,
      body: { status: 'recusado' },
    });
    expect(res.status).toBe(200);
    expect(await statusOf(queue[0]!.conv.id)).toBe('aceito');
    expect(await statusOf(queue[1]!.conv.id)).toBe('espera');
    expect(await notificationsOf(queue[0]!.user.id, 'convite_promovido')).toHaveLength(1);
    expect(await notificationsOf(queue[1]!.user.id, 'convite_promovido')).toHaveLength(0);
    expect(await entries('convites.promote', queue[0]!.conv.id)).toHaveLength(1);
  });

  it('declines share one cached batch (db/cached-batch.ts): each promotes its own waiter, logged as its own', async () => {
    const { holders, queue } = await fullWithWaiters(2, 2);
    for (const [i, holder] of holders.entries()) {
      const res = await api('PATCH', `/api/convites/${holder.conv.id}`, {
        token: holder.user.token,
        body: { status: 'recusado' },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'recusado', confirmado_em: null });
      const requestId = res.headers.get('x-request-id');
      const [declined] = await entries('convites.decline', holder.conv.id);
      expect(declined).toMatchObject({ atorId: holder.user.id, requestId, createdAt: expect.any(String) });
      const [promoted] = await entries('convites.promote', queue[i]!.conv.id);
      expect(promoted).toMatchObject({ atorId: holder.user.id, requestId });
      expect(promoted!.id).not.toBe(declined!.id);
      expect(await statusOf(queue[i]!.conv.id)).toBe('aceito');
      expect(await notificationsOf(queue[i]!.user.id, 'convite_promovido')).toHaveLength(1);
    }
  });

  it('an administrator cancellation promotes; declining a waiter or a pending one promotes nobody', async () => {
    const { admin, holders, queue, event, foto } = await fullWithWaiters(2);
    const invited = await makePro('SP', [foto.id]);
    const inv = (await invite(admin, event.id, invited.prof.id, foto.id)).body;
    await api('PATCH', `/api/convites/${inv.id}`, { token: invited.user.token, body: { status: 'recusado' } });
    expect(await statusOf(queue[0]!.conv.id)).toBe('espera');
    await api('PATCH', `/api/convites/${queue[1]!.conv.id}`, {
      token: queue[1]!.user.token,
      body: { status: 'recusado' },
    });
    expect(await statusOf(queue[0]!.conv.id)).toBe('espera');
    expect((await api('DELETE', `/api/convites/${holders[0]!.conv.id}`, { token: admin.token })).status).toBe(204);
    expect(await statusOf(queue[0]!.conv.id)).toBe('aceito');
    expect(await notificationsOf(queue[0]!.user.id, 'convite_promovido')).toHaveLength(1);
  });

  it('skips a waiter who would be double-booked', async () => {
    const { admin, holders, queue, event } = await fullWithWaiters(2);
    // the first waiter is meanwhile accepted elsewhere at an overlapping time
    const elsewhere = await makeVagaEvento(admin, { data: event.dataEvento, horario: '21:00' });
    const f = await makeFuncao();
    await db.insert(convites).values({
      agendaId: elsewhere.id,
      profissionalId: queue[0]!.prof.id,
      funcaoId: f.id,
      status: 'aceito',
    });
    await api('PATCH', `/api/convites/${holders[0]!.conv.id}`, {
      token: holders[0]!.user.token,
      body: { status: 'recusado' },
    });
    expect(await statusOf(queue[0]!.conv.id)).toBe('espera');
    expect(await statusOf(queue[1]!.conv.id)).toBe('aceito');
  });

  it('two cancellations at once promote two different people (5 rounds)', async () => {
    for (let round = 0; round < 5; round++) {
      const { admin, holders, queue } = await fullWithWaiters(3, 2);
      const results = await Promise.all(
        holders.map((h) => api('DELETE', `/api/convites/${h.conv.id}`, { token: admin.token })),
      );
      expect(results.map((r) => r.status)).toEqual([204, 204]);
      const statuses = await Promise.all(queue.map((q) => statusOf(q.conv.id)));
      expect(statuses).toEqual(['aceito', 'aceito', 'espera']);
      for (const q of queue.slice(0, 2)) expect(await notificationsOf(q.user.id, 'convite_promovido')).toHaveLength(1);
    }
  }, 60_000);
});

describe('double booking by time window (D11 amended)', () => {
  async function twoEvents(a: EventOpts, b: EventOpts) {
    const admin = await makeAdmin();
    const foto = await makeFuncao();
    const e1 = await makeVagaEvento(admin, a);
    const e2 = await makeVagaEvento(admin, b);
    for (const e of [e1, e2]) await equipe(admin, e.id, [{ funcao_id: foto.id, quantidade: 2, publicar: true }]);
    const { user } = await makePro('SP', [foto.id]);
    expect((await apply(user, e1.id, { funcao_id: foto.id })).body.status).toBe('aceito');
    return apply(user, e2.id, { funcao_id: foto.id });
  }

  it('colação 14:00-17:00 and baile 21:00-03:00 the same day: both accepted', async () => {
    const r = await twoEvents({ horario: '14:00', horarioFim: '17:00' }, { horario: '21:00', horarioFim: '03:00' });
    expect(r.status).toBe(201);
    expect(r.body.status).toBe('aceito');
  });

  it('overlapping windows are refused 409 DOUBLE_BOOKED (also across midnight)', async () => {
    expectError(
      await twoEvents({ horario: '14:00', horarioFim: '17:00' }, { horario: '16:30', horarioFim: '20:00' }),
      409,
      'DOUBLE_BOOKED',
    );
    expectError(
      await twoEvents(
        { data: '2030-06-10', horario: '21:00', horarioFim: '03:00' },
        { data: '2030-06-11', horario: '02:00', horarioFim: '05:00' },
      ),
      409,
      'DOUBLE_BOOKED',
    );
  });

  it('the boundary: one ends when the other starts is not an overlap', async () => {
    const r = await twoEvents({ horario: '14:00', horarioFim: '17:00' }, { horario: '17:00', horarioFim: '19:00' });
    expect(r.body.status).toBe('aceito');
    const midnight = await twoEvents(
      { data: '2030-06-10', horario: '21:00', horarioFim: '03:00' },
      { data: '2030-06-11', horario: '03:00', horarioFim: '06:00' },
    );
    expect(midnight.body.status).toBe('aceito');
  });

  it('without horario_fim an event lasts 5 hours; without horario the whole day', async () => {
    // 14:00 + 5 h = 19:00
    expectError(await twoEvents({ horario: '14:00' }, { horario: '18:59' }), 409, 'DOUBLE_BOOKED');
    expect((await twoEvents({ horario: '14:00' }, { horario: '19:00' })).body.status).toBe('aceito');
    expectError(await twoEvents({ horario: null }, { horario: '23:00', horarioFim: '23:30' }), 409, 'DOUBLE_BOOKED');
    expect(
      (await twoEvents({ data: '2030-06-10', horario: null }, { data: '2030-06-11', horario: '00:00' })).body.status,
    ).toBe('aceito');
  });

  it('the accept path uses the same rule', async () => {
    const admin = await makeAdmin();
    const foto = await makeFuncao();
    const colacao = await makeVagaEvento(admin, { horario: '14:00', horarioFim: '17:00' });
    const baile = await makeVagaEvento(admin, { horario: '21:00', horarioFim: '03:00' });
    const jantar = await makeVagaEvento(admin, { horario: '16:00', horarioFim: '22:00' });
    const { user, prof } = await makePro('SP', [foto.id]);
    const ids = [];
    for (const e of [colacao, baile, jantar]) ids.push((await invite(admin, e.id, prof.id, foto.id)).body.id);
    const accept = (id: string) =>
      api('PATCH', `/api/convites/${id}`, { token: user.token, body: { status: 'aceito' } });
    expect((await accept(ids[0])).status).toBe(200);
    expect((await accept(ids[1])).status).toBe(200);
    expectError(await accept(ids[2]), 409, 'DOUBLE_BOOKED');
  });
});

describe('saoPauloDate', () => {
  it('is the São Paulo calendar date (UTC-3)', () => {
    expect(saoPauloDate(new Date('2030-01-02T02:59:00Z'))).toBe('2030-01-01');
    expect(saoPauloDate(new Date('2030-01-02T03:00:00Z'))).toBe('2030-01-02');
  });
});

describe('fees on every path to aceito (docs/decisions.md#d18-finance)', () => {
  const feesOf = (conviteId: string) =>
    db
      .select({ status: lancamentos.status, valor: lancamentos.valorCentavos, origem: lancamentos.origem })
      .from(lancamentos)
      .where(eq(lancamentos.conviteId, conviteId));

  it('an application accepted at once, an approval and a waiting-list promotion each create one fee; the decline cancels its own', async () => {
    const { foto, event } = await published(1);
    await makePreco(event.tipoEventoId, foto.id, { valorCentavos: 45_000 });
    const a = await makePro('SP', [foto.id]);
    const b = await makePro('SP', [foto.id]);
    const first = await apply(a.user, event.id, { funcao_id: foto.id });
    expect(first.body.status).toBe('aceito');
    expect(await feesOf(first.body.id)).toEqual([{ status: 'previsto', valor: 45_000, origem: 'cache' }]);
    const waiter = await apply(b.user, event.id, { funcao_id: foto.id, lista_espera: true });
    expect(waiter.body.status).toBe('espera');
    expect(await feesOf(waiter.body.id)).toEqual([]);

    // a declines: its fee is cancelled and b, promoted in the same batch, gets its own fee.
    const declined = await api('PATCH', `/api/convites/${first.body.id}`, {
      token: a.user.token,
      body: { status: 'recusado' },
    });
    expect(declined.status).toBe(200);
    expect(await statusOf(waiter.body.id)).toBe('aceito');
    expect(await feesOf(first.body.id)).toEqual([{ status: 'cancelado', valor: 45_000, origem: 'cache' }]);
    expect(await feesOf(waiter.body.id)).toEqual([{ status: 'previsto', valor: 45_000, origem: 'cache' }]);

    // An approval of a solicitado application.
    const other = await published(1, { aprovacao: true });
    await makePreco(other.event.tipoEventoId, other.foto.id, { valorCentavos: 30_000 });
    const c = await makePro('SP', [other.foto.id]);
    const asked = await apply(c.user, other.event.id, { funcao_id: other.foto.id });
    expect(asked.body.status).toBe('solicitado');
    expect(await feesOf(asked.body.id)).toEqual([]);
    const approved = await api('PATCH', `/api/convites/${asked.body.id}`, {
      token: other.admin.token,
      body: { status: 'aceito' },
    });
    expect(approved.status).toBe(200);
    expect(await feesOf(asked.body.id)).toEqual([{ status: 'previsto', valor: 30_000, origem: 'cache' }]);
  });
});
