import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { convites, presencas } from '../../../src/db/schema';
import { PresencaSchema } from '../../../src/routes/checkin/checkin.schemas';
import { distanceM } from '../../../src/services/checkin/janela';
import { eventCode, parseCode, STEP_MS, stepOf } from '../../../src/services/checkin/codes';
import { fromB64url } from '../../../src/lib/tokens';
import { db, makeUser } from '../../helpers/factories';
import { api, expectError } from '../../helpers/request';
import {
  at,
  eventToken,
  fresh,
  member,
  MIN,
  north,
  scene,
  START,
  T,
  useClock,
  VENUE,
  logOf,
} from '../../helpers/checkin';

useClock();

const checkin = (token: string, body: Record<string, unknown>) => api('POST', '/api/presencas', { token, body });
const settings = (token: string, id: string, body: Record<string, unknown>) =>
  api('PUT', `/api/agenda/${id}/checkin`, { token, body });

describe("an event's check-in settings and coordinator", () => {
  it('has the defaults; planners change them; only an administrator names the coordinator', async () => {
    at(T);
    const { admin, viewer, ev, conv, pro, funcaoId } = await scene();
    const got = await api('GET', `/api/agenda/${ev.id}/checkin`, { token: admin.token });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      agenda_id: ev.id,
      raio_checkin_m: 300,
      checkin_abre_min: 90,
      checkin_fecha_min: 60,
      exige_localizacao: false,
      chave_versao: 1,
      coordenador: null,
      local: VENUE,
      janela: {
        abre_em: '2027-05-10T20:30:00.000Z',
        fecha_entrada_em: '2027-05-10T23:00:00.000Z',
        fecha_saida_em: '2027-05-11T04:00:00.000Z',
        referencia_em: '2027-05-10T22:00:00.000Z',
      },
    });
    const changed = await settings(viewer.token, ev.id, { raio_checkin_m: 200, exige_localizacao: true });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ raio_checkin_m: 200, exige_localizacao: true, checkin_abre_min: 90 });
    expect(await logOf(ev.id, 'agenda_checkin.update')).toHaveLength(1);
    expectError(await settings(viewer.token, ev.id, { coordenador_convite_id: conv.id }), 403, 'FORBIDDEN');

    // The professional is not the coordinator yet: the settings are not its to see.
    expectError(await api('GET', `/api/agenda/${ev.id}/checkin`, { token: pro.user.token }), 404, 'NOT_FOUND');
    const named = await settings(admin.token, ev.id, { coordenador_convite_id: conv.id });
    expect(named.status).toBe(200);
    expect(named.body.coordenador).toEqual({ convite_id: conv.id, profissional_id: pro.prof.id, nome: pro.prof.nome });
    expect(named.body.raio_checkin_m).toBe(200);
    const seen = await api('GET', `/api/agenda/${ev.id}/checkin`, { token: pro.user.token });
    expect(seen.status).toBe(200);

    const pending = await member(ev.id, funcaoId);
    await db.update(convites).set({ status: 'pendente' }).where(eq(convites.id, pending.conv.id));
    expectError(await settings(admin.token, ev.id, { coordenador_convite_id: pending.conv.id }), 409, 'INVALID_STATE');
    const other = await scene();
    expectError(await settings(admin.token, ev.id, { coordenador_convite_id: other.conv.id }), 404, 'NOT_FOUND');
    const cleared = await settings(admin.token, ev.id, { coordenador_convite_id: null });
    expect(cleared.body.coordenador).toBeNull();
    const stranger = await makeUser({ role: 'agenda_viewer' });
    expectError(await settings(stranger.token, ev.id, { raio_checkin_m: 100 }), 404, 'NOT_FOUND');
    expectError(
      await api('GET', `/api/agenda/${ev.id}/checkin`, { token: admin.token, regiao: 'MG' }),
      404,
      'NOT_FOUND',
    );
  });
});

describe('the event code and POST /api/presencas', () => {
  it('records an arrival once: 201, then the same record (200) on a replay', async () => {
    at(T);
    const { admin, ev, pro, conv } = await scene();
    const qr = await api('GET', `/api/agenda/${ev.id}/checkin/qr`, { token: admin.token });
    expect(qr.status).toBe(200);
    expect(qr.body.url).toBe(`https://app.example.com/checkin?c=${qr.body.token}`);
    expect(parseCode(qr.body.token)).toMatchObject({ tipo: 'evento', agendaId: ev.id, versao: 1 });
    expect(Date.parse(qr.body.expira_em) - T).toBeLessThanOrEqual(STEP_MS);

    const body = { token: qr.body.token, tipo: 'entrada', ...north(100), precisao_m: 20 };
    const res = await checkin(pro.user.token, body);
    expect(res.status).toBe(201);
    expect(PresencaSchema.safeParse(res.body).error).toBeUndefined();
    expect(res.body).toMatchObject({
      convite_id: conv.id,
      agenda_id: ev.id,
      profissional_id: pro.prof.id,
      tipo: 'entrada',
      momento: new Date(T).toISOString(),
      origem: 'qr_evento',
      offline: false,
      distancia_m: 100,
      dentro_raio: true,
      situacao: 'ok',
      atraso_min: 0,
    });
    // No key and no code in the professional's answer.
    expect(JSON.stringify(res.body)).not.toContain(qr.body.token);
    const again = await checkin(pro.user.token, body);
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(res.body.id);
  });

  it('accepts the current and previous step; refuses an older one, another key version, a tampered code', async () => {
    at(T);
    const { ev, funcaoId } = await scene();
    const a = await member(ev.id, funcaoId);
    const b = await member(ev.id, funcaoId);
    const c = await member(ev.id, funcaoId);
    expect((await checkin(a.pro.user.token, { token: await eventToken(ev.id), tipo: 'entrada' })).status).toBe(201);
    const previous = await eventToken(ev.id, { ms: T - STEP_MS });
    expect((await checkin(b.pro.user.token, { token: previous, tipo: 'entrada' })).status).toBe(201);
    const older = await eventToken(ev.id, { ms: T - 2 * STEP_MS });
    expectError(await checkin(c.pro.user.token, { token: older, tipo: 'entrada' }), 409, 'INVALID_TOKEN');
    const future = await eventToken(ev.id, { ms: T + STEP_MS });
    expectError(await checkin(c.pro.user.token, { token: future, tipo: 'entrada' }), 409, 'INVALID_TOKEN');
    const v2 = await eventToken(ev.id, { versao: 2 });
    expectError(await checkin(c.pro.user.token, { token: v2, tipo: 'entrada' }), 409, 'INVALID_TOKEN');
    const good = await eventToken(ev.id);
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
    for (const i of [2, 10, 25, good.length - 3])
      expectError(await checkin(c.pro.user.token, { token: flip(good, i), tipo: 'entrada' }), 409, 'INVALID_TOKEN');
    expectError(await checkin(c.pro.user.token, { token: 'abc', tipo: 'entrada' }), 409, 'INVALID_TOKEN');
    // Another event's code: the caller is not on it.
    const other = await scene();
    expectError(
      await checkin(c.pro.user.token, { token: await eventToken(other.ev.id), tipo: 'entrada' }),
      404,
      'NOT_FOUND',
    );
    expect((await checkin(c.pro.user.token, { token: good, tipo: 'entrada' })).status).toBe(201);
  });

  it('rotation retires the old version at once', async () => {
    at(T);
    const { admin, viewer, ev, pro } = await scene();
    const old = await eventToken(ev.id);
    const rotated = await api('POST', `/api/agenda/${ev.id}/checkin/chave/rotacionar`, { token: viewer.token });
    expect(rotated.status).toBe(200);
    expect(rotated.body.chave_versao).toBe(2);
    expect(await logOf(ev.id, 'agenda_checkin.rotacionar')).toHaveLength(1);
    expectError(await checkin(pro.user.token, { token: old, tipo: 'entrada' }), 409, 'INVALID_TOKEN');
    const qr = await api('GET', `/api/agenda/${ev.id}/checkin/qr`, { token: admin.token });
    expect(parseCode(qr.body.token)).toMatchObject({ versao: 2 });
    expect((await checkin(pro.user.token, { token: qr.body.token, tipo: 'entrada' })).status).toBe(201);
  });

  it('opens checkin_abre_min before the call time and closes entries checkin_fecha_min after the start', async () => {
    const { ev, funcaoId, pro } = await scene({ chegada: '18:30' });
    // Call time 18:30 (21:30Z): opens 17:00 (20:00Z); entries close 20:00 (23:00Z).
    const open = Date.parse('2027-05-10T20:00:00.000Z');
    const close = Date.parse('2027-05-10T23:00:00.000Z');
    at(open - 1000);
    const early = await member(ev.id, funcaoId);
    expectError(
      await checkin(early.pro.user.token, { token: await eventToken(ev.id), tipo: 'entrada' }),
      409,
      'CHECKIN_WINDOW_CLOSED',
    );
    at(open);
    const first = await checkin(await fresh(pro.user), { token: await eventToken(ev.id), tipo: 'entrada' });
    expect(first.status).toBe(201);
    expect(first.body.atraso_min).toBe(0);
    at(Date.parse('2027-05-10T21:47:30.000Z'));
    const late = await member(ev.id, funcaoId);
    const l = await checkin(late.pro.user.token, { token: await eventToken(ev.id), tipo: 'entrada' });
    expect(l.body.atraso_min).toBe(17); // against the call time 18:30, not the start
    at(close);
    const edge = await member(ev.id, funcaoId);
    expect((await checkin(edge.pro.user.token, { token: await eventToken(ev.id), tipo: 'entrada' })).status).toBe(201);
    at(close + 1000);
    const after = await member(ev.id, funcaoId);
    expectError(
      await checkin(after.pro.user.token, { token: await eventToken(ev.id), tipo: 'entrada' }),
      409,
      'CHECKIN_WINDOW_CLOSED',
    );
    // Exits stay open until the end (19:00 + 5 h) + 60 min; an exit needs an entrada.
    expectError(
      await checkin(after.pro.user.token, { token: await eventToken(ev.id), tipo: 'saida' }),
      409,
      'INVALID_STATE',
    );
    at(Date.parse('2027-05-11T03:59:00.000Z'));
    const out = await checkin(await fresh(edge.pro.user), { token: await eventToken(ev.id), tipo: 'saida' });
    expect(out.status).toBe(201);
    expect(out.body).toMatchObject({ tipo: 'saida', atraso_min: null });
    at(START + 6 * 60 * MIN + 1000);
    expectError(
      await checkin(await fresh(late.pro.user), { token: await eventToken(ev.id), tipo: 'saida' }),
      409,
      'CHECKIN_WINDOW_CLOSED',
    );
  });

  it('geofence: inside, on the edge, outside (revisar, or 409 where required), poor accuracy', async () => {
    at(T);
    const { admin, ev, funcaoId } = await scene();
    const go = async (pos: Record<string, number>) => {
      const m = await member(ev.id, funcaoId);
      return checkin(m.pro.user.token, { token: await eventToken(ev.id), tipo: 'entrada', ...pos });
    };
    // The computed distances the rule is applied to.
    expect(Math.round(distanceM(VENUE, north(450)))).toBe(450);
    const inside = await go({ ...north(250), precisao_m: 10 });
    expect(inside.body).toMatchObject({ dentro_raio: true, distancia_m: 250, situacao: 'ok' });
    // On the edge: 449.99 m with 200 m accuracy: 449.99 - min(200, 150) <= 300.
    const edge = await go({ ...north(449.99), precisao_m: 200 });
    expect(edge.body).toMatchObject({ dentro_raio: true, distancia_m: 450, situacao: 'ok' });
    const outside = await go({ ...north(455), precisao_m: 200 });
    expect(outside.body).toMatchObject({ dentro_raio: false, distancia_m: 455, situacao: 'revisar' });
    const poor = await go({ ...north(2000), precisao_m: 600 });
    expect(poor.body).toMatchObject({ dentro_raio: null, distancia_m: 2000, situacao: 'ok' });
    const none = await go({});
    expect(none.body).toMatchObject({ dentro_raio: null, distancia_m: null, situacao: 'ok' });
    // One coordinate without the other is no position.
    const half = await go({ latitude: VENUE.latitude, precisao_m: 5 });
    expect(half.body).toMatchObject({ dentro_raio: null, latitude: null, precisao_m: null, situacao: 'ok' });

    await settings(admin.token, ev.id, { exige_localizacao: true });
    const refused = await member(ev.id, funcaoId);
    const r = await checkin(refused.pro.user.token, {
      token: await eventToken(ev.id),
      tipo: 'entrada',
      ...north(455),
      precisao_m: 200,
    });
    expectError(r, 409, 'OUTSIDE_GEOFENCE');
    expect(r.body.error).toContain('455 m');
    const unknown = await go({ ...north(100), precisao_m: 501 });
    expect(unknown.body).toMatchObject({ dentro_raio: null, situacao: 'revisar' });
    const ok = await go({ ...north(100), precisao_m: 30 });
    expect(ok.body).toMatchObject({ dentro_raio: true, situacao: 'ok' });
  });

  it('an event without coordinates: the position is unknown', async () => {
    at(T);
    const { ev, pro } = await scene({ venue: false });
    const res = await checkin(pro.user.token, { token: await eventToken(ev.id), tipo: 'entrada', ...north(10) });
    expect(res.body).toMatchObject({ dentro_raio: null, distancia_m: null, situacao: 'ok' });
  });

  it('10 parallel check-ins of one person make one record', async () => {
    at(T);
    const { ev, pro, conv } = await scene();
    const token = await eventToken(ev.id);
    const all = await Promise.all(
      Array.from({ length: 10 }, () => checkin(pro.user.token, { token, tipo: 'entrada', ...north(5) })),
    );
    expect(all.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(all.map((r) => r.body.id)).size).toBe(1);
    expect(await db.select().from(presencas).where(eq(presencas.conviteId, conv.id))).toHaveLength(1);
  });

  it('only an accepted invitee checks in (404 otherwise); other roles are refused by the route', async () => {
    at(T);
    const { ev, funcaoId } = await scene();
    const declined = await member(ev.id, funcaoId);
    await db.update(convites).set({ status: 'recusado' }).where(eq(convites.id, declined.conv.id));
    expectError(
      await checkin(declined.pro.user.token, { token: await eventToken(ev.id), tipo: 'entrada' }),
      404,
      'NOT_FOUND',
    );
    const admin = await makeUser({ role: 'SUPERADMIN' });
    expectError(await checkin(admin.token, { token: await eventToken(ev.id), tipo: 'entrada' }), 403, 'FORBIDDEN');
    expectError(
      await checkin(declined.pro.user.token, { token: await eventToken(ev.id), tipo: 'entrada', latitude: 91 }),
      400,
      'VALIDATION_FAILED',
    );
  });

  it('without CHECKIN_SECRET the codes answer 503 CONFIG_MISSING', async () => {
    at(T);
    const { admin, ev, pro } = await scene();
    const bindings = { CHECKIN_SECRET: '' } as never;
    expectError(
      await api('GET', `/api/agenda/${ev.id}/checkin/qr`, { token: admin.token, bindings }),
      503,
      'CONFIG_MISSING',
    );
    expectError(
      await api('POST', '/api/presencas', {
        token: pro.user.token,
        body: { token: await eventToken(ev.id), tipo: 'entrada' },
        bindings,
      }),
      503,
      'CONFIG_MISSING',
    );
  });
});

describe('the display key', () => {
  it('goes to planners in its window, logged without the key; never to a professional', async () => {
    at(T);
    const { admin, viewer, ev, conv, pro } = await scene();
    await settings(admin.token, ev.id, { coordenador_convite_id: conv.id });
    const res = await api('GET', `/api/agenda/${ev.id}/checkin/chave`, { token: viewer.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ agenda_id: ev.id, chave_versao: 1, passo_s: 15 });
    const [entry] = await logOf(ev.id, 'agenda_checkin.chave');
    expect(JSON.stringify(entry)).not.toContain(res.body.chave);
    // The key draws codes the server accepts.
    const drawn = await eventCode(fromB64url(res.body.chave), { versao: 1, agendaId: ev.id, step: stepOf(Date.now()) });
    expect((await checkin(pro.user.token, { token: drawn, tipo: 'entrada' })).status).toBe(201);
    expectError(await api('GET', `/api/agenda/${ev.id}/checkin/chave`, { token: pro.user.token }), 403, 'FORBIDDEN');
    // The coordinator gets the rotating code, not the key.
    expect((await api('GET', `/api/agenda/${ev.id}/checkin/qr`, { token: pro.user.token })).status).toBe(200);
    at(Date.parse('2027-05-11T04:00:01.000Z'));
    expectError(
      await api('GET', `/api/agenda/${ev.id}/checkin/chave`, { token: await fresh(admin) }),
      409,
      'CHECKIN_WINDOW_CLOSED',
    );
  });
});
