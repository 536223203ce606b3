import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { agenda, tiposEventos, users } from '../../../src/db/schema';
import { AgendaSchema } from '../../../src/routes/agenda/agenda.schemas';
import { db, makeAdmin, makeCatalog, makeFot, makeUser, type TestUser, makeEvento } from '../../helpers/factories';
import { expectKeptCounts, keptCountsAfterAll } from '../../helpers/kept-columns';
import { api, authHeaders, expectError } from '../../helpers/request';

keptCountsAfterAll();

/** An event on 2026-12-10 (the day whose totals are read below). */
const makeAgendaEvento = (
  regiao: string,
  creator: { id: string } | null,
  over: Partial<typeof agenda.$inferInsert> = {},
) => makeEvento(regiao, creator, { dataEvento: '2026-12-10', ...over });

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- request bodies, built freely
async function refsBody(regiao = 'SP', over: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const fot = await makeFot(regiao);
  const tipo = await makeCatalog(tiposEventos, regiao);
  return { fot_id: fot.id, tipo_evento_id: tipo.id, data_evento: '2026-12-05', ...over };
}

describe('POST /api/agenda', () => {
  it('creates an event with every field, its creator, region and nested FOT and event type', async () => {
    const viewer = await makeUser({ role: 'agenda_viewer' });
    const body = await refsBody('MG', {
      horario: '19:30',
      local_evento: 'Clube',
      endereco: 'Rua A, 1',
      observacoes_evento: 'obs',
      logistica_observacoes: 'log',
      status_profissionais: 'pendente',
      pre_venda: true,
      qtd_formandos: 120,
      qtd_fotografos: 3,
      qtd_cinegrafistas: 2,
      qtd_recepcionistas: 1,
      qtd_estudios: 1,
      qtd_ponto_foto: 2,
      qtd_ponto_id: 1,
      qtd_ponto_decorado: 1,
      qtd_pontos_led: 4,
      qtd_plataforma_360: 1,
      foto_faltante: 1,
      cine_faltante: 0,
      recep_faltante: 0,
      user_id: crypto.randomUUID(),
      regiao: 'SP',
      id: crypto.randomUUID(),
    });
    const res = await api('POST', '/api/agenda', { token: viewer.token, regiao: 'MG', body });
    expect(res.status).toBe(201);
    expect(AgendaSchema.safeParse(res.body).error).toBeUndefined();
    const { user_id: _u, regiao: _r, id: _i, ...sent } = body;
    expect(res.body).toMatchObject({ ...sent, user_id: viewer.id, regiao: 'MG' });
    expect(res.body.id).not.toBe(body.id);
    expect(res.body.fot).toMatchObject({
      id: body.fot_id,
      empresa_nome: expect.any(String),
      curso_nome: expect.any(String),
      ano_formatura_label: expect.any(String),
    });
    expect(res.body.tipo_evento.id).toBe(body.tipo_evento_id);
    expect(res.body.fot.curso_nome).not.toBe(res.body.fot.ano_formatura_label);
  });

  it.each([
    [{ fot_id: undefined }, 'fot_id: é obrigatório'],
    [{ tipo_evento_id: 'x' }, 'tipo_evento_id: deve ser um UUID'],
    [{ data_evento: undefined }, 'data_evento: é obrigatório'],
    [{ data_evento: '2026-02-30' }, 'data_evento: deve ser uma data AAAA-MM-DD'],
    [{ data_evento: '05/12/2026' }, 'data_evento: deve ser uma data AAAA-MM-DD'],
    [{ horario: '24:00' }, 'horario: deve ser um horário HH:MM'],
    [{ horario: '7:30' }, 'horario: deve ser um horário HH:MM'],
    [{ qtd_fotografos: -1 }, 'qtd_fotografos: deve ser maior ou igual a 0'],
    [{ qtd_formandos: 1.5 }, 'qtd_formandos: deve ser um número inteiro'],
    [{ foto_faltante: '2' }, 'foto_faltante: deve ser um número'],
    [{ status_profissionais: 'x'.repeat(51) }, 'status_profissionais: deve ter no máximo 50 caracteres'],
    [{ pre_venda: 1 }, 'pre_venda: deve ser true ou false'],
  ])('rejects %j with 400 naming the field', async (over, message) => {
    const admin = await makeAdmin();
    const res = await api('POST', '/api/agenda', { token: admin.token, body: await refsBody('SP', over) });
    expectError(res, 400, 'VALIDATION_FAILED');
    expect(res.body.error).toContain(message);
  });

  it('refuses a FOT or event type of another region with 404 naming the field', async () => {
    const admin = await makeAdmin();
    const mg = await refsBody('MG');
    const sp = await refsBody('SP');
    const a = await api('POST', '/api/agenda', { token: admin.token, body: { ...sp, fot_id: mg.fot_id } });
    expectError(a, 404, 'NOT_FOUND');
    expect(a.body.error).toContain('fot_id');
    const b = await api('POST', '/api/agenda', {
      token: admin.token,
      body: { ...sp, tipo_evento_id: mg.tipo_evento_id },
    });
    expect(b.body.error).toContain('tipo_evento_id');
  });
});

describe('who sees and does what (decisions D4)', () => {
  const users: Record<string, TestUser> = {};
  const ev: Record<string, string> = {};

  beforeAll(async () => {
    users.admin = await makeAdmin();
    users.owner = await makeUser({ role: 'BUSINESS_OWNER' });
    users.viewerA = await makeUser({ role: 'agenda_viewer' });
    users.viewerB = await makeUser({ role: 'agenda_viewer' });
    const fx = await makeFot('SP');
    const fy = await makeFot('SP');
    users.ownerX = await makeUser({ role: 'EVENT_OWNER', empresaId: fx.empresaId });
    users.prof = await makeUser({ role: 'profissional' });
    users.researcher = await makeUser({ role: 'RESEARCHER' });
    const tipo = await makeCatalog(tiposEventos, 'SP');
    ev.a = (await makeAgendaEvento('SP', users.viewerA, { fotId: fx.id, tipoEventoId: tipo.id })).id;
    ev.b = (await makeAgendaEvento('SP', users.viewerB, { fotId: fy.id, tipoEventoId: tipo.id })).id;
    ev.admin = (await makeAgendaEvento('SP', users.admin, { fotId: fx.id, tipoEventoId: tipo.id })).id;
  });

  const mine = (ids: string[]) => ids.filter((id) => Object.values(ev).includes(id)).sort();

  it.each([
    ['admin', ['a', 'b', 'admin']],
    ['owner', ['a', 'b', 'admin']],
    ['viewerA', ['a']],
    ['ownerX', ['a', 'admin']],
    ['prof', []],
  ])('GET /api/agenda as %s lists exactly its events', async (who, expected) => {
    const res = await api('GET', '/api/agenda', { token: users[who]!.token });
    expect(res.status).toBe(200);
    expect(mine(res.body.map((e: { id: string }) => e.id))).toEqual(expected.map((k) => ev[k]!).sort());
  });

  it.each(['admin', 'owner', 'viewerA', 'ownerX', 'prof'])(
    "a page's X-Total-Count as %s is its own events' count, not the region's",
    async (who) => {
      const token = users[who]!.token;
      const all = await api('GET', '/api/agenda', { token });
      const page = await api('GET', '/api/agenda?limit=1', { token });
      expect(page.status).toBe(200);
      expect(Number(page.headers.get('X-Total-Count'))).toBe(all.body.length);
    },
  );

  // role × action → status, on event `a` (created by viewerA on a FOT of ownerX's company) and `b`.
  const table: [string, string, string, number][] = [
    ['researcher', 'GET', 'list', 403],
    ['researcher', 'GET', 'a', 403],
    ['viewerA', 'GET', 'a', 200],
    ['viewerA', 'GET', 'b', 404],
    ['viewerB', 'PUT', 'a', 404],
    ['viewerB', 'DELETE', 'a', 404],
    ['ownerX', 'GET', 'a', 200],
    ['ownerX', 'GET', 'b', 404],
    ['ownerX', 'PUT', 'a', 403],
    ['ownerX', 'DELETE', 'a', 403],
    ['ownerX', 'POST', 'new', 403],
    ['prof', 'GET', 'a', 404],
    ['prof', 'PUT', 'a', 403],
    ['prof', 'POST', 'new', 403],
    ['researcher', 'POST', 'new', 403],
    ['admin', 'GET', 'b', 200],
    ['viewerA', 'PUT', 'a', 200],
    ['owner', 'PUT', 'b', 200],
  ];
  it.each(table)('%s %s %s → %i', async (who, method, target, status) => {
    const token = users[who]!.token;
    let res;
    if (target === 'list') res = await api('GET', '/api/agenda', { token });
    else if (target === 'new') res = await api('POST', '/api/agenda', { token, body: await refsBody('SP') });
    else
      res = await api(method, `/api/agenda/${ev[target]}`, {
        token,
        body: method === 'PUT' ? { local_evento: `by ${who}` } : undefined,
      });
    expect(res.status).toBe(status);
    if (status >= 400) expectError(res, status, status === 403 ? 'FORBIDDEN' : 'NOT_FOUND');
  });

  it("agenda_viewer deletes its own event (204) and not another's (404)", async () => {
    const own = await makeAgendaEvento('SP', users.viewerA!);
    const other = await makeAgendaEvento('SP', users.viewerB!);
    expectError(await api('DELETE', `/api/agenda/${other.id}`, { token: users.viewerA!.token }), 404, 'NOT_FOUND');
    const res = await api('DELETE', `/api/agenda/${own.id}`, { token: users.viewerA!.token });
    expect(res.status).toBe(204);
    expect(await db.select().from(agenda).where(eq(agenda.id, own.id))).toHaveLength(0);
    expect(await db.select().from(agenda).where(eq(agenda.id, other.id))).toHaveLength(1);
  });
});

describe('GET /api/agenda filters and order', () => {
  it('orders by date then time and filters by de, ate and fot_id', async () => {
    const admin = await makeAdmin();
    const fot = await makeFot('MG');
    const tipo = await makeCatalog(tiposEventos, 'MG');
    const mk = (dataEvento: string, horario: string | null) =>
      makeAgendaEvento('MG', admin, { fotId: fot.id, tipoEventoId: tipo.id, dataEvento, horario });
    const late = await mk('2027-03-02', '21:00');
    const early = await mk('2027-03-02', '08:00');
    const first = await mk('2027-03-01', '23:00');
    const outside = await mk('2027-04-01', null);
    const res = await api('GET', `/api/agenda?fot_id=${fot.id}`, { token: admin.token, regiao: 'MG' });
    expect(res.body.map((e: { id: string }) => e.id)).toEqual([first.id, early.id, late.id, outside.id]);
    const ranged = await api('GET', `/api/agenda?fot_id=${fot.id}&de=2027-03-02&ate=2027-03-31`, {
      token: admin.token,
      regiao: 'MG',
    });
    expect(ranged.body.map((e: { id: string }) => e.id)).toEqual([early.id, late.id]);
    expectError(await api('GET', '/api/agenda?de=2027-13-01', { token: admin.token }), 400, 'VALIDATION_FAILED');
    expectError(
      await api('GET', '/api/agenda?de=2027-03-02&ate=2027-03-01', { token: admin.token }),
      400,
      'VALIDATION_FAILED',
    );
    expectError(await api('GET', '/api/agenda?fot_id=1', { token: admin.token }), 400, 'VALIDATION_FAILED');
  });

  it("never shows another region's events, and their ids are 404", async () => {
    const admin = await makeAdmin();
    const mg = await makeAgendaEvento('MG', admin);
    const res = await api('GET', '/api/agenda', { token: admin.token, regiao: 'SP' });
    expect(res.body.map((e: { id: string }) => e.id)).not.toContain(mg.id);
    expectError(await api('GET', `/api/agenda/${mg.id}`, { token: admin.token }), 404, 'NOT_FOUND');
    expectError(
      await api('PUT', `/api/agenda/${mg.id}`, { token: admin.token, body: { horario: '10:00' } }),
      404,
      'NOT_FOUND',
    );
    expectError(await api('DELETE', `/api/agenda/${mg.id}`, { token: admin.token }), 404, 'NOT_FOUND');
    expectError(await api('GET', '/api/agenda/abc', { token: admin.token }), 400, 'INVALID_ID');
    expectError(await api('GET', `/api/agenda/${crypto.randomUUID()}`, { token: admin.token }), 404, 'NOT_FOUND');
  });

  it('costs the same D1 round trips for 1 and 200 events', async () => {
    const admin = await makeAdmin();
    const fot = await makeFot('MG');
    const tipo = await makeCatalog(tiposEventos, 'MG');
    await makeAgendaEvento('MG', admin, { fotId: fot.id, tipoEventoId: tipo.id });
    const headers = authHeaders(admin.token, { 'x-regiao': 'MG' });
    const one = await api('GET', `/api/agenda?fot_id=${fot.id}`, { headers, countQueries: true });
    expect(one.body).toHaveLength(1);
    for (let i = 0; i < 199; i += 10) {
      await db.insert(agenda).values(
        Array.from({ length: 10 }, () => ({
          regiao: 'MG',
          userId: admin.id,
          fotId: fot.id,
          tipoEventoId: tipo.id,
          dataEvento: '2027-01-01',
        })).slice(0, Math.min(10, 199 - i)),
      );
    }
    const many = await api('GET', `/api/agenda?fot_id=${fot.id}`, { headers, countQueries: true });
    expect(many.body).toHaveLength(200);
    expect(many.roundTrips).toBe(one.roundTrips);
    expect(many.roundTrips).toBe(1); // the user row, events, teams and total in one batch
  });
});

describe('X-Total-Count of the unfiltered agenda (kept counts, drizzle/0022)', () => {
  /** The total a paged list answers, and the events a direct count finds for the same caller. */
  async function totals(user: TestUser, regiao: string, query = '') {
    const res = await api('GET', `/api/agenda?limit=1${query}`, { token: user.token, regiao });
    expect(res.status).toBe(200);
    return Number(res.headers.get('X-Total-Count'));
  }
  const counted = async (regiao: string, userId?: string) =>
    (await db.select().from(agenda).where(eq(agenda.regiao, regiao))).filter((e) => !userId || e.userId === userId)
      .length;

  it('stays exact through creates, deletes, a region or creator changed by hand and a deleted creator', async () => {
    const admin = await makeAdmin();
    const viewer = await makeUser({ role: 'agenda_viewer' });
    const other = await makeUser({ role: 'agenda_viewer' });
    const mine = await Promise.all([1, 2, 3].map(() => makeAgendaEvento('MG', viewer)));
    await makeAgendaEvento('MG', other);
    const made = await api('POST', '/api/agenda', { token: admin.token, regiao: 'MG', body: await refsBody('MG') });
    expect(made.status).toBe(201);
    const expectTotals = async () => {
      expect(await totals(admin, 'MG')).toBe(await counted('MG'));
      expect(await totals(admin, 'SP')).toBe(await counted('SP'));
      expect(await totals(viewer, 'MG')).toBe(await counted('MG', viewer.id));
      expect(await totals(viewer, 'SP')).toBe(await counted('SP', viewer.id));
    };
    expect(await totals(viewer, 'MG')).toBe(3);
    await expectTotals();

    // Moved to another region, and given to another creator, by hand (a console, a script).
    await db.update(agenda).set({ regiao: 'SP' }).where(eq(agenda.id, mine[0]!.id));
    await db.update(agenda).set({ userId: other.id }).where(eq(agenda.id, mine[1]!.id));
    expect(await totals(viewer, 'MG')).toBe(1);
    expect(await totals(viewer, 'SP')).toBe(1);
    expect(await totals(other, 'MG')).toBe(2);
    await expectTotals();

    expect((await api('DELETE', `/api/agenda/${made.body.id}`, { token: admin.token, regiao: 'MG' })).status).toBe(204);
    await expectTotals();
    // The creator's account deleted: its events stay (user_id set null) and leave its own count.
    const left = await counted('MG');
    await db.delete(users).where(eq(users.id, other.id));
    expect(await counted('MG', other.id)).toBe(0);
    expect(await totals(admin, 'MG')).toBe(left);
    await expectTotals();
    // A filtered list still counts its events.
    expect(await totals(admin, 'MG', '&de=2026-12-10&ate=2026-12-10')).toBe(
      (await db.select().from(agenda).where(eq(agenda.regiao, 'MG'))).filter((e) => e.dataEvento === '2026-12-10')
        .length,
    );
    expect((await expectKeptCounts()).eventos).toBeGreaterThan(0);
  });
});

describe('PUT and DELETE /api/agenda/{id}', () => {
  it('PUT changes only the fields sent and validates them like POST', async () => {
    const admin = await makeAdmin();
    const e = await makeAgendaEvento('SP', admin, { horario: '10:00', localEvento: 'Salão' });
    const res = await api('PUT', `/api/agenda/${e.id}`, {
      token: admin.token,
      body: { horario: '11:15', qtd_fotografos: 4 },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      horario: '11:15',
      qtd_fotografos: 4,
      local_evento: 'Salão',
      data_evento: '2026-12-10',
      user_id: admin.id,
    });
    expectError(
      await api('PUT', `/api/agenda/${e.id}`, { token: admin.token, body: { data_evento: '2026-13-01' } }),
      400,
      'VALIDATION_FAILED',
    );
    const other = await refsBody('MG');
    expectError(
      await api('PUT', `/api/agenda/${e.id}`, { token: admin.token, body: { fot_id: other.fot_id } }),
      404,
      'NOT_FOUND',
    );
  });

  it('DELETE answers 204 with no body, then 404', async () => {
    const admin = await makeAdmin();
    const e = await makeAgendaEvento('SP', admin);
    const res = await api('DELETE', `/api/agenda/${e.id}`, { token: admin.token });
    expect(res.status).toBe(204);
    expect(res.body).toBe('');
    expectError(await api('DELETE', `/api/agenda/${e.id}`, { token: admin.token }), 404, 'NOT_FOUND');
  });

  it('keeps the FOT record and event type an event uses (409 IN_USE)', async () => {
    const admin = await makeAdmin();
    const e = await makeAgendaEvento('SP', admin);
    expectError(await api('DELETE', `/api/cadastro-fot/${e.fotId}`, { token: admin.token }), 409, 'IN_USE');
    expectError(await api('DELETE', `/api/tipos-eventos/${e.tipoEventoId}`, { token: admin.token }), 409, 'IN_USE');
  });
});
