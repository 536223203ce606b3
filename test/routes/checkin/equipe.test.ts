import { env } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { cadastroFot, convites, faltas, presencas, profissionais } from '../../../src/db/schema';
import { LeiturasSchema } from '../../../src/routes/checkin/checkin.schemas';
import { faltasProvaveis } from '../../../src/services/checkin/faltas';
import { parseCode } from '../../../src/services/checkin/codes';
import { db, makeEmpresa, makeUser, notificationsOf } from '../../helpers/factories';
import { api, expectError, UNKNOWN_ID } from '../../helpers/request';
import {
  at,
  DIA,
  eventToken,
  fresh,
  member,
  MIN,
  personalToken,
  scene,
  START,
  T,
  useClock,
  logOf,
} from '../../helpers/checkin';
import { createDb } from '../../../src/db/client';

useClock();

const H = 3600_000;
const leituras = (token: string, id: string, body: Record<string, unknown>) =>
  api('POST', `/api/agenda/${id}/presencas/leituras`, { token, body });

/** A scene whose professional is its coordinator. */
async function withCoordinator() {
  const s = await scene();
  const named = await api('PUT', `/api/agenda/${s.ev.id}/checkin`, {
    token: s.admin.token,
    body: { coordenador_convite_id: s.conv.id },
  });
  expect(named.status).toBe(200);
  return s;
}

describe('the personal code', () => {
  it('is the invitee own, from the day before until exits close', async () => {
    at(Date.parse('2027-05-09T02:59:00.000Z')); // 23:59 of the 8th in São Paulo
    const { ev, pro, conv, funcaoId } = await scene();
    expectError(
      await api('GET', `/api/convites/${conv.id}/checkin/qr`, { token: pro.user.token }),
      409,
      'CHECKIN_WINDOW_CLOSED',
    );
    at(Date.parse('2027-05-09T03:00:00.000Z'));
    const res = await api('GET', `/api/convites/${conv.id}/checkin/qr`, { token: await fresh(pro.user) });
    expect(res.status).toBe(200);
    expect(parseCode(res.body.token)).toMatchObject({ tipo: 'pessoal', conviteId: conv.id });
    expect(res.body.expira_em).toBe('2027-05-09T15:00:00.000Z');
    const other = await member(ev.id, funcaoId);
    expectError(
      await api('GET', `/api/convites/${conv.id}/checkin/qr`, { token: other.pro.user.token }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await api('GET', `/api/convites/${UNKNOWN_ID}/checkin/qr`, { token: other.pro.user.token }),
      404,
      'NOT_FOUND',
    );
    await db.update(convites).set({ status: 'pendente' }).where(eq(convites.id, other.conv.id));
    expectError(
      await api('GET', `/api/convites/${other.conv.id}/checkin/qr`, { token: other.pro.user.token }),
      409,
      'INVALID_STATE',
    );
  });
});

describe("the coordinator's readings", () => {
  it('live: name, function and avatar; twice in a batch records once; offline dated by the code; 12 h refused', async () => {
    at(T);
    const { ev, pro, conv, funcaoId } = await withCoordinator();
    const a = await member(ev.id, funcaoId);
    await db
      .update(profissionais)
      .set({ avatarUrl: 'https://cdn.example.test/a.jpg' })
      .where(eq(profissionais.id, a.pro.prof.id));
    const b = await member(ev.id, funcaoId);
    const c = await member(ev.id, funcaoId);
    const stranger = await scene();
    const live = await personalToken(a.conv.id);
    const offline = await personalToken(b.conv.id, T - 25 * MIN); // 18:15: issued 25 min ago
    const stale = await personalToken(c.conv.id, T - 12 * H - 60_000);
    const res = await leituras(pro.user.token, ev.id, {
      tokens: [
        live,
        live,
        offline,
        stale,
        await personalToken(stranger.conv.id),
        'nao-e-um-codigo-valido-de-jeito-nenhum-xx',
        await eventToken(ev.id),
      ],
    });
    expect(res.status).toBe(200);
    expect(LeiturasSchema.safeParse(res.body).error).toBeUndefined();
    const [r0, r1, r2, r3, r4, r5, r6] = res.body.resultados;
    expect(r0).toMatchObject({
      status: 'registrada',
      convite_id: a.conv.id,
      nome: a.pro.prof.nome,
      avatar_url: 'https://cdn.example.test/a.jpg',
      presenca: { origem: 'qr_pessoal', offline: false, momento: new Date(T).toISOString(), atraso_min: 0 },
    });
    expect(typeof r0.funcao).toBe('string');
    expect(r1).toMatchObject({ status: 'ja_registrada', presenca: { id: r0.presenca.id } });
    expect(r2).toMatchObject({
      status: 'registrada',
      convite_id: b.conv.id,
      presenca: { offline: true, momento: new Date(Math.floor((T - 25 * MIN) / 15000) * 15000).toISOString() },
    });
    expect(r3).toMatchObject({ status: 'recusada', code: 'INVALID_TOKEN', convite_id: c.conv.id });
    expect(r4).toMatchObject({ status: 'recusada', code: 'NOT_FOUND', convite_id: null, nome: null });
    expect(r5).toMatchObject({ status: 'recusada', code: 'INVALID_TOKEN' });
    expect(r6).toMatchObject({ status: 'recusada', code: 'INVALID_TOKEN' });
    // The batch again (an offline device sending twice): the same records.
    const again = await leituras(pro.user.token, ev.id, { tokens: [live, offline] });
    expect(again.body.resultados.map((r: { status: string }) => r.status)).toEqual(['ja_registrada', 'ja_registrada']);
    expect(again.body.resultados[0].presenca.id).toBe(r0.presenca.id);
    const rows = await db.select().from(presencas).where(eq(presencas.agendaId, ev.id));
    expect(rows).toHaveLength(2);
    void conv;
  });

  it('only the staff of the event reads codes; 10 parallel batches record once', async () => {
    at(T);
    const { ev, pro, admin, funcaoId } = await scene();
    const a = await member(ev.id, funcaoId);
    const code = await personalToken(a.conv.id);
    // Not (yet) the coordinator.
    expectError(await leituras(pro.user.token, ev.id, { tokens: [code] }), 404, 'NOT_FOUND');
    const all = await Promise.all(Array.from({ length: 10 }, () => leituras(admin.token, ev.id, { tokens: [code] })));
    const statuses = all.map((r) => r.body.resultados[0].status).sort();
    expect(statuses.filter((s) => s === 'registrada')).toHaveLength(1);
    expect(statuses.filter((s) => s === 'ja_registrada')).toHaveLength(9);
    expect(await db.select().from(presencas).where(eq(presencas.conviteId, a.conv.id))).toHaveLength(1);
    expectError(await leituras(admin.token, ev.id, { tokens: [] }), 400, 'VALIDATION_FAILED');
    expectError(await leituras(admin.token, ev.id, { tokens: Array(101).fill(code) }), 400, 'VALIDATION_FAILED');
  });
});

describe('manual records, the review and the attendance list', () => {
  it('the coordinator records by hand (logged); a retry answers the record; another one is 409', async () => {
    at(T);
    const { ev, pro, funcaoId } = await withCoordinator();
    const a = await member(ev.id, funcaoId);
    const body = {
      convite_id: a.conv.id,
      tipo: 'entrada',
      momento: '2027-05-10T22:07:00.000Z',
      motivo: 'celular sem bateria',
    };
    at(START + 10 * MIN);
    const token = await fresh(pro.user);
    const res = await api('POST', `/api/agenda/${ev.id}/presencas/manual`, { token, body });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ origem: 'manual', atraso_min: 7, motivo: 'celular sem bateria', situacao: 'ok' });
    expect(await logOf(res.body.id, 'presencas.manual')).toHaveLength(1);
    const retry = await api('POST', `/api/agenda/${ev.id}/presencas/manual`, { token, body });
    expect(retry.status).toBe(200);
    expect(retry.body.id).toBe(res.body.id);
    expectError(
      await api('POST', `/api/agenda/${ev.id}/presencas/manual`, {
        token,
        body: { ...body, momento: '2027-05-10T22:08:00.000Z' },
      }),
      409,
      'CONFLICT',
    );
    const b = await member(ev.id, funcaoId);
    expectError(
      await api('POST', `/api/agenda/${ev.id}/presencas/manual`, {
        token,
        body: { ...body, convite_id: b.conv.id, momento: '2027-05-10T23:30:00.000Z' },
      }),
      400,
      'VALIDATION_FAILED',
    );
    expectError(
      await api('POST', `/api/agenda/${ev.id}/presencas/manual`, {
        token,
        body: { ...body, convite_id: b.conv.id, momento: '2027-05-10T19:00:00.000Z' },
      }),
      409,
      'CHECKIN_WINDOW_CLOSED',
    );
    // A professional who is not the coordinator.
    expectError(
      await api('POST', `/api/agenda/${ev.id}/presencas/manual`, {
        token: await fresh(b.pro.user),
        body: { ...body, convite_id: b.conv.id },
      }),
      404,
      'NOT_FOUND',
    );
  });

  it('lists the team with atraso_min and situacao; EVENT_OWNER sees names and arrived only; revisar is decided', async () => {
    at(T);
    const empresa = await makeEmpresa();
    const { admin, ev, pro, conv, funcaoId } = await scene();
    await db.update(cadastroFot).set({ empresaId: empresa.id }).where(eq(cadastroFot.id, ev.fotId));
    const late = await member(ev.id, funcaoId);
    const absent = await member(ev.id, funcaoId);
    await api('POST', '/api/presencas', {
      token: pro.user.token,
      body: { token: await eventToken(ev.id), tipo: 'entrada' },
    });
    at(START + 23 * MIN);
    const r = await api('POST', '/api/presencas', {
      token: await fresh(late.pro.user),
      body: { token: await eventToken(ev.id), tipo: 'entrada', latitude: 0, longitude: 0, precisao_m: 5 },
    });
    expect(r.body).toMatchObject({ situacao: 'revisar', atraso_min: 23, dentro_raio: false });

    const list = await api('GET', `/api/agenda/${ev.id}/presencas`, { token: await fresh(admin) });
    expect(list.status).toBe(200);
    const byConv = Object.fromEntries(list.body.map((m: { convite_id: string }) => [m.convite_id, m]));
    expect(byConv[conv.id]).toMatchObject({ chegou: true, atraso_min: 0, situacao: 'ok', saida: null, falta: null });
    expect(byConv[late.conv.id]).toMatchObject({ chegou: true, atraso_min: 23, situacao: 'revisar' });
    expect(byConv[absent.conv.id]).toMatchObject({ chegou: false, entrada: null, atraso_min: null, situacao: null });

    const owner = await makeUser({ role: 'EVENT_OWNER', empresaId: empresa.id });
    const own = await api('GET', `/api/agenda/${ev.id}/presencas`, { token: owner.token });
    expect(own.status).toBe(200);
    for (const m of own.body) expect(Object.keys(m).sort()).toEqual(['chegou', 'funcao_nome', 'nome']);
    expect(own.body.filter((m: { chegou: boolean }) => m.chegou)).toHaveLength(2);
    const otherOwner = await makeUser({ role: 'EVENT_OWNER', empresaId: (await makeEmpresa()).id });
    expectError(await api('GET', `/api/agenda/${ev.id}/presencas`, { token: otherOwner.token }), 404, 'NOT_FOUND');
    expectError(await api('GET', `/api/agenda/${ev.id}/presencas`, { token: await fresh(pro.user) }), 404, 'NOT_FOUND');

    const adminToken = await fresh(admin);
    const decided = await api('PATCH', `/api/presencas/${r.body.id}`, {
      token: adminToken,
      body: { situacao: 'invalida', motivo: 'estava em casa' },
    });
    expect(decided.status).toBe(200);
    expect(decided.body).toMatchObject({ situacao: 'invalida', motivo: 'estava em casa', revisado_por: admin.id });
    expect(await logOf(r.body.id, 'presencas.revisar')).toHaveLength(1);
    const after = await api('GET', `/api/agenda/${ev.id}/presencas`, { token: adminToken });
    expect(after.body.find((m: { convite_id: string }) => m.convite_id === late.conv.id)).toMatchObject({
      chegou: false,
      situacao: 'invalida',
    });
    expectError(
      await api('PATCH', `/api/presencas/${r.body.id}`, { token: adminToken, body: { situacao: 'ok' }, regiao: 'MG' }),
      404,
      'NOT_FOUND',
    );
  });
});

describe('no-shows', () => {
  it('only an administrator records one, after the start, without an entrada; once; the professional is told', async () => {
    at(T);
    const { admin, ev, pro, conv, funcaoId } = await scene();
    const url = `/api/convites/${conv.id}/falta`;
    expectError(await api('POST', url, { token: admin.token, body: {} }), 409, 'INVALID_STATE'); // not started
    at(START + 30 * MIN);
    const token = await fresh(admin);
    const all = await Promise.all(
      Array.from({ length: 10 }, () => api('POST', url, { token, body: { motivo: 'não apareceu' } })),
    );
    expect(all.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect(all[0]!.body).toMatchObject({
      convite_id: conv.id,
      status: 'confirmada',
      confirmada_por: admin.id,
      motivo: 'não apareceu',
    });
    expect(await logOf(conv.id, 'faltas.confirmar')).toHaveLength(1);
    expect(await notificationsOf(pro.user.id, 'falta_registrada')).toHaveLength(1);
    // A confirmed no-show closes the door to a check-in.
    expectError(
      await api('POST', '/api/presencas', {
        token: await fresh(pro.user),
        body: { token: await eventToken(ev.id), tipo: 'entrada' },
      }),
      409,
      'INVALID_STATE',
    );
    // With an entrada it is not a no-show.
    const came = await member(ev.id, funcaoId);
    await api('POST', '/api/presencas', {
      token: came.pro.user.token,
      body: { token: await eventToken(ev.id), tipo: 'entrada' },
    });
    expectError(await api('POST', `/api/convites/${came.conv.id}/falta`, { token, body: {} }), 409, 'INVALID_STATE');
    expectError(
      await api('POST', `/api/convites/${came.conv.id}/falta`, { token, body: {}, regiao: 'MG' }),
      404,
      'NOT_FOUND',
    );
    expectError(await api('POST', `/api/convites/${UNKNOWN_ID}/falta`, { token }), 404, 'NOT_FOUND');
    const viewer = await makeUser({ role: 'agenda_viewer' });
    expectError(await api('POST', url, { token: viewer.token, body: {} }), 403, 'FORBIDDEN');
  });

  it('the job flags falta_provavel once per invitation and tells the administrators once', async () => {
    at(T);
    const { ev, conv, funcaoId, pro } = await scene();
    const came = await member(ev.id, funcaoId);
    await api('POST', '/api/presencas', {
      token: came.pro.user.token,
      body: { token: await eventToken(ev.id), tipo: 'entrada' },
    });
    const superadmin = await makeUser({ role: 'SUPERADMIN' });
    const dbx = createDb(env.DB);
    const before = await faltasProvaveis(dbx, new Date(START + 59 * MIN));
    expect(await db.select().from(faltas).where(eq(faltas.conviteId, conv.id))).toHaveLength(0);
    void before;
    const run = await faltasProvaveis(dbx, new Date(START + 61 * MIN));
    expect(run.faltas).toBeGreaterThanOrEqual(1);
    const rows = await db.select().from(faltas).where(eq(faltas.agendaId, ev.id));
    expect(rows.map((r) => [r.conviteId, r.status])).toEqual([[conv.id, 'provavel']]);
    const told = await notificationsOf(superadmin.id, 'falta_provavel');
    expect(told.filter((n) => (n.dados as { agenda_id: string }).agenda_id === ev.id)).toHaveLength(1);
    await faltasProvaveis(dbx, new Date(START + 61 * MIN));
    await faltasProvaveis(dbx, new Date(START + 120 * MIN));
    expect(await db.select().from(faltas).where(eq(faltas.agendaId, ev.id))).toHaveLength(1);
    expect(
      (await notificationsOf(superadmin.id, 'falta_provavel')).filter(
        (n) => (n.dados as { agenda_id: string }).agenda_id === ev.id,
      ),
    ).toHaveLength(1);
    // Only an administrator confirms it.
    at(START + 2 * 60 * MIN);
    const res = await api('POST', `/api/convites/${conv.id}/falta`, { token: await fresh(superadmin), body: {} });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'confirmada', provavel_em: new Date(START + 61 * MIN).toISOString() });
    const [row] = await db
      .select()
      .from(faltas)
      .where(and(eq(faltas.conviteId, conv.id)));
    expect(row!.status).toBe('confirmada');
    void pro;
    void DIA;
  });
});
