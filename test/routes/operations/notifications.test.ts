import {
  createExecutionContext,
  createMessageBatch,
  env,
  getQueueResult,
  waitOnExecutionContext,
} from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { createApp } from '../../../src/app';
import { ConfigError, getConfig } from '../../../src/env';
import { agenda, convites, funcoes, notifications, pushTokens, tiposEventos } from '../../../src/db/schema';
import { handlePushBatch } from '../../../src/queue/push-consumer';
import { NotificationSchema, PushTokenSchema } from '../../../src/routes/operations/notifications.schemas';
import type { PushMessage } from '../../../src/lib/messages';
import {
  db,
  makeAdmin,
  makeCatalog,
  makeFot,
  makeNotification,
  makeNotifications,
  makeProfissional,
  makeUser,
  uniq,
  type TestUser,
} from '../../helpers/factories';
import { capturingQueue, recordRetryDelays } from '../../helpers/queue';
import { api, authHeaders, expectError, UNKNOWN_ID } from '../../helpers/request';
import { expectKeptCounts, keptCountsAfterAll } from '../../helpers/kept-columns';

// Every user's unread count these tests left is kept (drizzle/0028).
keptCountsAfterAll('notificacoes');

const N = '/api/v1/notifications';

/** The caller's notifications through the API (one page of up to 200). */
async function inbox(user: TestUser) {
  const res = await api('GET', `${N}?limit=200`, { token: user.token });
  expect(res.status).toBe(200);
  return res.body as {
    id: string;
    tipo: string;
    titulo: string;
    mensagem: string;
    dados: Record<string, unknown>;
    lida: boolean;
  }[];
}
const tipos = async (user: TestUser) => (await inbox(user)).map((n) => n.tipo);

describe('GET /api/v1/notifications', () => {
  it('lists only the caller’s notifications, newest first, in the documented shape', async () => {
    const me = await makeUser({ role: 'profissional' });
    const other = await makeUser();
    await makeNotification(me.id, { createdAt: '2026-01-01T00:00:00.000Z', titulo: 'velha' });
    await makeNotification(me.id, { createdAt: '2026-03-01T00:00:00.000Z', titulo: 'nova', dados: { agenda_id: 'x' } });
    await makeNotification(other.id, { titulo: 'de outro' });
    const res = await api('GET', N, { token: me.token });
    expect(res.status).toBe(200);
    expect(res.body.map((n: { titulo: string }) => n.titulo)).toEqual(['nova', 'velha']);
    for (const n of res.body) expect(NotificationSchema.safeParse(n).error).toBeUndefined();
    expect(res.body[0]).toMatchObject({
      tipo: 'agenda_criada',
      mensagem: expect.any(String),
      dados: { agenda_id: 'x' },
      lida: false,
      read_at: null,
      created_at: '2026-03-01T00:00:00.000Z',
    });
    expect(res.headers.get('x-next-cursor')).toBeNull();
  });

  it('pages exactly with antes through 120 notifications created at the same instant: no duplicates, no gaps', async () => {
    const me = await makeUser();
    const rows = await makeNotifications(me.id, 120, { createdAt: '2026-05-05T05:05:05.000Z' });
    const seen: string[] = [];
    const sizes: number[] = [];
    let antes: string | null = null;
    do {
      const res: Awaited<ReturnType<typeof api<{ id: string }[]>>> = await api(
        'GET',
        `${N}${antes ? `?antes=${encodeURIComponent(antes)}` : ''}`,
        { token: me.token },
      );
      expect(res.status).toBe(200);
      sizes.push(res.body.length);
      seen.push(...res.body.map((n) => n.id));
      antes = res.headers.get('x-next-cursor');
    } while (antes && sizes.length < 10);
    expect(sizes).toEqual([50, 50, 20]);
    expect(new Set(seen).size).toBe(120);
    expect(seen).toEqual(
      rows
        .map((r) => r.id)
        .sort()
        .reverse(),
    );
  });

  it('pages with limit, and accepts an ISO timestamp as antes (strictly before it)', async () => {
    const me = await makeUser();
    for (const [i, at] of ['2026-01-01', '2026-02-01', '2026-03-01', '2026-04-01'].entries()) {
      await makeNotification(me.id, { createdAt: `${at}T00:00:00.000Z`, titulo: `n${i}` });
    }
    const first = await api('GET', `${N}?limit=3`, { token: me.token });
    expect(first.body.map((n: { titulo: string }) => n.titulo)).toEqual(['n3', 'n2', 'n1']);
    const next = await api('GET', `${N}?limit=3&antes=${first.headers.get('x-next-cursor')}`, { token: me.token });
    expect(next.body.map((n: { titulo: string }) => n.titulo)).toEqual(['n0']);
    expect(next.headers.get('x-next-cursor')).toBeNull();
    const before = await api('GET', `${N}?antes=2026-03-01T00:00:00.000Z`, { token: me.token });
    expect(before.body.map((n: { titulo: string }) => n.titulo)).toEqual(['n1', 'n0']);
  });

  it('filters unread with nao_lidas=true; nao_lidas=false lists all', async () => {
    const me = await makeUser();
    await makeNotification(me.id, { titulo: 'lida', lida: true, readAt: new Date().toISOString() });
    await makeNotification(me.id, { titulo: 'nao lida' });
    const unread = await api('GET', `${N}?nao_lidas=true`, { token: me.token });
    expect(unread.body.map((n: { titulo: string }) => n.titulo)).toEqual(['nao lida']);
    expect((await api('GET', `${N}?nao_lidas=false`, { token: me.token })).body).toHaveLength(2);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=201', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=1.5', 'limit'],
    ['limit=-1', 'limit'],
    ['antes=garbage!', 'antes'],
    [`antes=${btoa('not|a-cursor')}`, 'antes'],
    [`antes=${btoa(`2026-01-01T00:00:00.000Z|not-a-uuid`)}`, 'antes'],
    [`antes=${btoa(`2026-13-45|${UNKNOWN_ID}`)}`, 'antes'],
    ['antes=2026-01-01', 'antes'],
    ['nao_lidas=yes', 'nao_lidas'],
  ])('answers 400 VALIDATION_FAILED for %s', async (query, field) => {
    const me = await makeUser();
    const res = await api('GET', `${N}?${query}`, { token: me.token });
    expectError(res, 400, 'VALIDATION_FAILED');
    expect(res.body.error).toContain(`${field}:`);
  });
});

describe('unread count and marking read', () => {
  it('counts the caller’s unread notifications only', async () => {
    const me = await makeUser();
    const other = await makeUser();
    await makeNotifications(me.id, 3);
    await makeNotification(me.id, { lida: true });
    await makeNotifications(other.id, 2);
    expect((await api('GET', `${N}/unread-count`, { token: me.token })).body).toEqual({ count: 3 });
  });

  it('PUT read-all marks every unread one of the caller and says how many; nobody else’s', async () => {
    const me = await makeUser();
    const other = await makeUser();
    await makeNotifications(me.id, 4);
    await makeNotifications(other.id, 2);
    const res = await api('PUT', `${N}/read-all`, { token: me.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: '4 notificações marcadas como lidas', count: 4 });
    expect((await api('GET', `${N}/unread-count`, { token: me.token })).body.count).toBe(0);
    expect((await inbox(me)).every((n) => n.lida)).toBe(true);
    expect((await api('PUT', `${N}/read-all`, { token: me.token })).body.count).toBe(0);
    expect((await api('GET', `${N}/unread-count`, { token: other.token })).body.count).toBe(2);
  });

  it('the unread count follows every write, by route or by hand (kept by triggers, drizzle/0028)', async () => {
    const me = await makeUser();
    const unread = async () => {
      const res = await api('GET', `${N}/unread-count`, { token: me.token });
      expect(res.status).toBe(200);
      return res.body.count;
    };
    const [a, b, c] = await makeNotifications(me.id, 3);
    await makeNotification(me.id, { lida: true });
    expect(await unread()).toBe(3);
    expect((await api('PUT', `${N}/${a!.id}/read`, { token: me.token })).status).toBe(200);
    expect((await api('PUT', `${N}/${a!.id}/read`, { token: me.token })).status).toBe(200);
    expect(await unread()).toBe(2);
    expect((await api('DELETE', `${N}/${b!.id}`, { token: me.token })).status).toBe(204);
    expect(await unread()).toBe(1);
    // by hand (a console, a script): marked unread again, moved to another user, deleted
    await env.DB.prepare('UPDATE notifications SET lida = 0 WHERE id = ?').bind(a!.id).run();
    expect(await unread()).toBe(2);
    const other = await makeUser();
    await env.DB.prepare('UPDATE notifications SET user_id = ? WHERE id = ?').bind(other.id, c!.id).run();
    expect(await unread()).toBe(1);
    expect((await api('GET', `${N}/unread-count`, { token: other.token })).body.count).toBe(1);
    await expectKeptCounts();
    expect((await api('PUT', `${N}/read-all`, { token: me.token })).body.count).toBe(1);
    expect(await unread()).toBe(0);
    // the account deleted takes its notifications (cascade)
    await env.DB.prepare('DELETE FROM users WHERE id = ?').bind(other.id).run();
    expect((await expectKeptCounts()).notificacoes).toBeGreaterThan(0);
  });

  it('PUT {id}/read answers the notification read, setting read_at the first time only', async () => {
    const me = await makeUser();
    const n = await makeNotification(me.id);
    const first = await api('PUT', `${N}/${n.id.toUpperCase()}/read`, { token: me.token });
    expect(first.status).toBe(200);
    expect(NotificationSchema.safeParse(first.body).error).toBeUndefined();
    expect(first.body).toMatchObject({ id: n.id, lida: true, read_at: expect.stringMatching(/Z$/) });
    const again = await api('PUT', `${N}/${n.id}/read`, { token: me.token });
    expect(again.body.read_at).toBe(first.body.read_at);
  });

  it('PUT {id}/read: another user’s id and an unknown id are 404, a malformed id 400', async () => {
    const me = await makeUser();
    const theirs = await makeNotification((await makeUser()).id);
    expectError(await api('PUT', `${N}/${theirs.id}/read`, { token: me.token }), 404, 'NOT_FOUND');
    expectError(await api('PUT', `${N}/${UNKNOWN_ID}/read`, { token: me.token }), 404, 'NOT_FOUND');
    expectError(await api('PUT', `${N}/123/read`, { token: me.token }), 400, 'INVALID_ID');
    const [row] = await db.select().from(notifications).where(eq(notifications.id, theirs.id));
    expect(row!.lida).toBe(false);
  });
});

describe('DELETE /api/v1/notifications/{id}', () => {
  it('deletes the caller’s notification (204), then 404', async () => {
    const me = await makeUser();
    const n = await makeNotification(me.id);
    const res = await api('DELETE', `${N}/${n.id}`, { token: me.token });
    expect(res.status).toBe(204);
    expect(res.body).toBe('');
    expectError(await api('DELETE', `${N}/${n.id}`, { token: me.token }), 404, 'NOT_FOUND');
  });

  it('answers 404 for another user’s notification and leaves it, 400 INVALID_ID for a malformed id', async () => {
    const me = await makeUser();
    const theirs = await makeNotification((await makeUser()).id);
    expectError(await api('DELETE', `${N}/${theirs.id}`, { token: me.token }), 404, 'NOT_FOUND');
    expect(await db.select().from(notifications).where(eq(notifications.id, theirs.id))).toHaveLength(1);
    expectError(await api('DELETE', `${N}/not-a-uuid`, { token: me.token }), 400, 'INVALID_ID');
  });
});

describe('authentication', () => {
  const routes: [string, string, unknown?][] = [
    ['GET', N],
    ['GET', `${N}/unread-count`],
    ['PUT', `${N}/read-all`],
    ['PUT', `${N}/${UNKNOWN_ID}/read`],
    ['DELETE', `${N}/${UNKNOWN_ID}`],
    ['POST', `${N}/push-token`, { token: 't', plataforma: 'ios' }],
    ['DELETE', `${N}/push-token`, { token: 't' }],
  ];
  it.each(routes)(
    '%s %s: 401 without a token, 403 ACCOUNT_PENDING for a pending account',
    async (method, path, body) => {
      expectError(await api(method, path, { body }), 401, 'UNAUTHENTICATED');
      const pending = await makeUser({ ativo: false });
      expectError(await api(method, path, { body, token: pending.token }), 403, 'ACCOUNT_PENDING');
    },
  );
});

describe('push tokens', () => {
  const tokensOf = (userId: string) => db.select().from(pushTokens).where(eq(pushTokens.userId, userId));

  it('POST stores the token for the caller (201); again updates it, never duplicates', async () => {
    const me = await makeUser();
    const token = `ExponentPushToken[${uniq()}]`;
    const res = await api('POST', `${N}/push-token`, {
      token: me.token,
      body: { token: `  ${token} `, plataforma: 'android' },
    });
    expect(res.status).toBe(201);
    expect(PushTokenSchema.safeParse(res.body).error).toBeUndefined();
    expect(res.body).toMatchObject({ token, plataforma: 'android' });
    await api('POST', `${N}/push-token`, { token: me.token, body: { token, plataforma: 'ios' } });
    expect((await tokensOf(me.id)).map((t) => [t.token, t.plataforma])).toEqual([[token, 'ios']]);
  });

  it('re-assigns a token another user held to the caller, in one statement', async () => {
    const before = await makeUser();
    const after = await makeUser();
    const token = `ExponentPushToken[${uniq()}]`;
    await api('POST', `${N}/push-token`, { token: before.token, body: { token, plataforma: 'android' } });
    const counted = await api('POST', `${N}/push-token`, {
      token: after.token,
      body: { token, plataforma: 'web' },
      countQueries: true,
    });
    expect(counted.status).toBe(201);
    expect(counted.roundTrips).toBe(2); // auth's user lookup + the upsert
    expect(await tokensOf(before.id)).toEqual([]);
    expect((await tokensOf(after.id)).map((t) => [t.token, t.plataforma])).toEqual([[token, 'web']]);
    expect(await db.select().from(pushTokens).where(eq(pushTokens.token, token))).toHaveLength(1);
  });

  it.each([
    [{ plataforma: 'android' }, 'token: é obrigatório'],
    [{ token: '   ', plataforma: 'android' }, 'token: é obrigatório'],
    [{ token: 'x'.repeat(256), plataforma: 'android' }, 'token: deve ter no máximo 255 caracteres'],
    [{ token: 'x', plataforma: 'windows' }, 'plataforma: deve ser um de: android, ios, web'],
    [{ token: 'x' }, 'plataforma: é obrigatório'],
  ])('POST rejects %j with 400', async (body, message) => {
    const me = await makeUser();
    const res = await api('POST', `${N}/push-token`, { token: me.token, body });
    expectError(res, 400, 'VALIDATION_FAILED');
    expect(res.body.error).toContain(message);
  });

  it('DELETE removes the caller’s own token (204); another user’s or an unknown token is 204 and untouched', async () => {
    const me = await makeUser();
    const other = await makeUser();
    const mine = `ExponentPushToken[${uniq()}]`;
    const theirs = `ExponentPushToken[${uniq()}]`;
    await api('POST', `${N}/push-token`, { token: me.token, body: { token: mine, plataforma: 'ios' } });
    await api('POST', `${N}/push-token`, { token: other.token, body: { token: theirs, plataforma: 'ios' } });
    expect((await api('DELETE', `${N}/push-token`, { token: me.token, body: { token: theirs } })).status).toBe(204);
    expect(await tokensOf(other.id)).toHaveLength(1);
    expect((await api('DELETE', `${N}/push-token`, { token: me.token, body: { token: mine } })).status).toBe(204);
    expect(await tokensOf(me.id)).toEqual([]);
    expect(
      (await api('DELETE', `${N}/push-token`, { token: me.token, body: { token: 'never-registered' } })).status,
    ).toBe(204);
    expectError(await api('DELETE', `${N}/push-token`, { token: me.token, body: {} }), 400, 'VALIDATION_FAILED');
  });
});

describe('producers: account approved and role changed', () => {
  it('approving a pending account notifies that user once (conta_aprovada)', async () => {
    const admin = await makeAdmin();
    const pending = await makeUser({ role: 'RESEARCHER', ativo: false });
    expect((await api('PATCH', `/api/admin/users/${pending.id}/approve`, { token: admin.token })).status).toBe(200);
    expect((await api('PATCH', `/api/admin/users/${pending.id}/approve`, { token: admin.token })).status).toBe(200);
    const list = await inbox(pending);
    expect(list.map((n) => n.tipo)).toEqual(['conta_aprovada']);
    expect(list[0]!.titulo).toBe('Conta aprovada');
    expect(await tipos(admin)).toEqual([]);
    expectError(await api('PATCH', `/api/admin/users/${UNKNOWN_ID}/approve`, { token: admin.token }), 404, 'NOT_FOUND');
    expect(await db.select().from(notifications).where(eq(notifications.userId, UNKNOWN_ID))).toEqual([]);
  });

  it('the approval enqueues one push message for the notification, after the write', async () => {
    const admin = await makeAdmin();
    const pending = await makeUser({ ativo: false });
    const { queue, sent } = capturingQueue<PushMessage>();
    const ctx = createExecutionContext();
    const res = await createApp().request(
      `/api/admin/users/${pending.id}/approve`,
      { method: 'PATCH', headers: authHeaders(admin.token) },
      { ...env, PUSH_QUEUE: queue },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(200);
    const [row] = await db.select().from(notifications).where(eq(notifications.userId, pending.id));
    expect(sent).toEqual([
      [
        {
          body: {
            userId: pending.id,
            notificationId: row!.id,
            titulo: row!.titulo,
            mensagem: row!.mensagem,
            dados: {},
          },
        },
      ],
    ]);
  });

  it('changing a role notifies that user (papel_alterado with the new and old role); the same role does not', async () => {
    const admin = await makeAdmin();
    const user = await makeUser({ role: 'RESEARCHER' });
    expect(
      (await api('PATCH', `/api/admin/users/${user.id}/role`, { token: admin.token, body: { role: 'agenda_viewer' } }))
        .status,
    ).toBe(200);
    expect(
      (await api('PATCH', `/api/admin/users/${user.id}/role`, { token: admin.token, body: { role: 'agenda_viewer' } }))
        .status,
    ).toBe(200);
    const list = await inbox(user);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ tipo: 'papel_alterado', dados: { role: 'agenda_viewer', anterior: 'RESEARCHER' } });
    expect(list[0]!.mensagem).toContain('agenda_viewer');
    expect(await tipos(admin)).toEqual([]);
  });

  it('a refused role change (BUSINESS_OWNER touching a SUPERADMIN) notifies nobody', async () => {
    const owner = await makeUser({ role: 'BUSINESS_OWNER' });
    const target = await makeAdmin();
    expectError(
      await api('PATCH', `/api/admin/users/${target.id}/role`, { token: owner.token, body: { role: 'RESEARCHER' } }),
      403,
      'FORBIDDEN',
    );
    expect(await tipos(target)).toEqual([]);
  });
});

describe('producers: agenda events', () => {
  /** A FOT with two active EVENT_OWNERs of its company, one pending, and one of another company. */
  async function scene() {
    const fot = await makeFot('SP');
    const tipo = await makeCatalog(tiposEventos, 'SP');
    const owners = [
      await makeUser({ role: 'EVENT_OWNER', empresaId: fot.empresaId }),
      await makeUser({ role: 'EVENT_OWNER', empresaId: fot.empresaId }),
    ];
    const pendingOwner = await makeUser({ role: 'EVENT_OWNER', empresaId: fot.empresaId, ativo: false });
    const stranger = await makeUser({ role: 'EVENT_OWNER', empresaId: (await makeFot('SP')).empresaId });
    const viewer = await makeUser({ role: 'agenda_viewer' });
    const admin = await makeAdmin();
    return { fot, tipo, owners, pendingOwner, stranger, viewer, admin };
  }
  const body = (s: Awaited<ReturnType<typeof scene>>) => ({
    fot_id: s.fot.id,
    tipo_evento_id: s.tipo.id,
    data_evento: '2026-12-05',
  });
  const countFor = async (userId: string, tipo: string) =>
    (
      await db
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, userId), eq(notifications.tipo, tipo)))
    ).length;

  it('creating an event notifies its company’s active EVENT_OWNERs (agenda_criada), not the caller', async () => {
    const s = await scene();
    const res = await api('POST', '/api/agenda', { token: s.viewer.token, body: body(s) });
    expect(res.status).toBe(201);
    for (const o of s.owners) {
      const [n] = await inbox(o);
      expect(n).toMatchObject({
        tipo: 'agenda_criada',
        dados: { agenda_id: res.body.id, fot_id: s.fot.id, data_evento: '2026-12-05' },
      });
      expect(n!.mensagem).toContain('05/12/2026');
      expect(n!.mensagem).toContain(`FOT ${s.fot.fot}`);
    }
    for (const u of [s.viewer, s.pendingOwner, s.stranger]) expect(await countFor(u.id, 'agenda_criada')).toBe(0);
  });

  it('changing an event notifies its creator and the EVENT_OWNERs (agenda_alterada), not the caller', async () => {
    const s = await scene();
    const id = (await api('POST', '/api/agenda', { token: s.viewer.token, body: body(s) })).body.id;
    expect((await api('PUT', `/api/agenda/${id}`, { token: s.admin.token, body: { horario: '20:00' } })).status).toBe(
      200,
    );
    expect(await countFor(s.viewer.id, 'agenda_alterada')).toBe(1);
    for (const o of s.owners) expect(await countFor(o.id, 'agenda_alterada')).toBe(1);
    for (const u of [s.admin, s.pendingOwner, s.stranger]) expect(await countFor(u.id, 'agenda_alterada')).toBe(0);
    // The creator changing its own event is not told about it.
    expect((await api('PUT', `/api/agenda/${id}`, { token: s.viewer.token, body: { horario: '21:00' } })).status).toBe(
      200,
    );
    expect(await countFor(s.viewer.id, 'agenda_alterada')).toBe(1);
    expect(await countFor(s.owners[0]!.id, 'agenda_alterada')).toBe(2);
  });

  it('moving an event to another FOT tells the EVENT_OWNERs of both companies, with the new date', async () => {
    const s = await scene();
    const id = (await api('POST', '/api/agenda', { token: s.admin.token, body: body(s) })).body.id;
    const newFot = await makeFot('SP');
    const newOwner = await makeUser({ role: 'EVENT_OWNER', empresaId: newFot.empresaId });
    const res = await api('PUT', `/api/agenda/${id}`, {
      token: s.admin.token,
      body: { fot_id: newFot.id, data_evento: '2026-12-24' },
    });
    expect(res.status).toBe(200);
    const [n] = (await inbox(newOwner)).filter((x) => x.tipo === 'agenda_alterada');
    expect(n).toMatchObject({ dados: { agenda_id: id, fot_id: newFot.id, data_evento: '2026-12-24' } });
    expect(n!.mensagem).toContain(`FOT ${newFot.fot}`);
    expect(await countFor(s.owners[0]!.id, 'agenda_alterada')).toBe(1);
  });

  it('an update or delete that finds nothing (404) notifies nobody', async () => {
    const s = await scene();
    const id = (await api('POST', '/api/agenda', { token: s.admin.token, body: body(s) })).body.id;
    const otherViewer = await makeUser({ role: 'agenda_viewer' });
    expectError(
      await api('PUT', `/api/agenda/${id}`, { token: otherViewer.token, body: { horario: '20:00' } }),
      404,
      'NOT_FOUND',
    );
    expectError(await api('DELETE', `/api/agenda/${id}`, { token: otherViewer.token }), 404, 'NOT_FOUND');
    expectError(
      await api('PUT', `/api/agenda/${id}`, { token: s.admin.token, regiao: 'MG', body: { horario: '20:00' } }),
      404,
      'NOT_FOUND',
    );
    for (const o of s.owners) expect(await tipos(o)).toEqual(['agenda_criada']);
  });

  it('deleting an event notifies its creator, the EVENT_OWNERs and its team (agenda_excluida), not the caller', async () => {
    const s = await scene();
    const id = (await api('POST', '/api/agenda', { token: s.viewer.token, body: body(s) })).body.id;
    const funcao = await makeCatalog(funcoes, 'SP');
    const member = await makeUser({ role: 'profissional' });
    const invited = await makeUser({ role: 'profissional' });
    const declined = await makeUser({ role: 'profissional' });
    for (const [u, status] of [
      [member, 'aceito'],
      [invited, 'pendente'],
      [declined, 'recusado'],
    ] as const) {
      const prof = await makeProfissional('SP', { usuarioId: u.id }, [funcao.id]);
      await db.insert(convites).values({ agendaId: id, profissionalId: prof.id, funcaoId: funcao.id, status });
    }
    expect((await api('DELETE', `/api/agenda/${id}`, { token: s.admin.token })).status).toBe(204);
    for (const u of [s.viewer, ...s.owners, member, invited]) {
      const [n] = (await inbox(u)).filter((x) => x.tipo === 'agenda_excluida');
      expect(n, u.role).toMatchObject({ dados: { agenda_id: id, fot_id: s.fot.id, data_evento: '2026-12-05' } });
    }
    for (const u of [s.admin, declined, s.stranger, s.pendingOwner])
      expect(await countFor(u.id, 'agenda_excluida')).toBe(0);
    expect(await db.select().from(agenda).where(eq(agenda.id, id))).toEqual([]);
  });

  it('notifies a dozen EVENT_OWNERs in the write itself: creating costs as many round trips with 12 recipients as with none', async () => {
    const s = await scene();
    const many = [...s.owners];
    for (let i = 0; i < 10; i++) many.push(await makeUser({ role: 'EVENT_OWNER', empresaId: s.fot.empresaId }));
    const create = (fotId: string) =>
      api('POST', '/api/agenda', { token: s.admin.token, body: { ...body(s), fot_id: fotId }, countQueries: true });
    const none = await create((await makeFot('SP')).id); // a company without EVENT_OWNERs
    const twelve = await create(s.fot.id);
    expect([none.status, twelve.status]).toEqual([201, 201]);
    expect(twelve.roundTrips).toBe(none.roundTrips);
    for (const o of many) expect(await countFor(o.id, 'agenda_criada')).toBe(1);
  });
});

describe('push consumer (src/queue/push-consumer.ts)', () => {
  const ENDPOINT = 'https://push.example.test/--/api/v2/push/send';
  const withEndpoint = { ...env, PUSH_ENDPOINT: ENDPOINT };

  /** A user with push tokens and one stored notification per message; the queue messages for them. */
  async function setup(tokenCount = 2, notificationCount = 1) {
    const user = await makeUser();
    const tokens = Array.from({ length: tokenCount }, () => `ExponentPushToken[${uniq()}]`);
    for (let i = 0; i < tokens.length; i += 16) {
      await db
        .insert(pushTokens)
        .values(tokens.slice(i, i + 16).map((token) => ({ userId: user.id, token, plataforma: 'android' as const })));
    }
    const rows = await makeNotifications(user.id, notificationCount, { dados: { agenda_id: 'ag-1' } });
    const messages: QueuedMessage[] = rows.map((r, i) => ({
      id: `msg-${i}-${uniq()}`,
      timestamp: new Date(),
      attempts: 1,
      body: {
        userId: user.id,
        notificationId: r.id,
        titulo: r.titulo,
        mensagem: r.mensagem,
        dados: r.dados as Record<string, unknown>,
      },
    }));
    return { user, tokens, rows, messages };
  }

  /** A fake provider: records each request's JSON and answers with `answer(messages)`. */
  function fakeProvider(answer: (sent: { to: string }[]) => Response | Promise<Response>) {
    const calls: {
      url: string;
      method: string;
      body: { to: string; title: string; body: string; data: Record<string, unknown>; sound: string }[];
    }[] = [];
    const fetchImpl = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const body = JSON.parse(String(init?.body));
      calls.push({ url: String(input), method: init?.method ?? 'GET', body });
      return answer(body);
    }) as unknown as typeof fetch;
    return { calls, fetchImpl };
  }
  const ok = (sent: { to: string }[]) =>
    Response.json({ data: sent.map((_, i) => ({ status: 'ok', id: `ticket-${i}` })) });

  interface QueuedMessage {
    id: string;
    timestamp: Date;
    attempts: number;
    body: PushMessage;
  }
  /** Runs the consumer; answers the pool's queue result plus the delay each retried message asked for. */
  async function run(messages: QueuedMessage[], e: Cloudflare.Env, fetchImpl: typeof fetch) {
    const batch = createMessageBatch<PushMessage>('event-ops-push', messages as never);
    const delays = recordRetryDelays(batch);
    const ctx = createExecutionContext();
    await handlePushBatch(batch, e, fetchImpl);
    return { ...(await getQueueResult(batch, ctx)), delays };
  }

  it('sends each notification to every token of its user in the Expo format and acknowledges', async () => {
    const { tokens, rows, messages } = await setup(2);
    const { calls, fetchImpl } = fakeProvider(ok);
    const result = await run(messages, withEndpoint, fetchImpl);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe(ENDPOINT);
    expect(calls[0]!.method).toBe('POST');
    expect(calls[0]!.body).toEqual(
      expect.arrayContaining(
        tokens.map((to) => ({
          to,
          title: rows[0]!.titulo,
          body: rows[0]!.mensagem,
          data: { agenda_id: 'ag-1', notification_id: rows[0]!.id },
          sound: 'default',
        })),
      ),
    );
    expect(calls[0]!.body).toHaveLength(2);
    expect(result.retryMessages).toEqual([]);
    expect(result.explicitAcks).toEqual(messages.map((m) => m.id));
  });

  it('retries every message with exponential backoff when the provider answers 500', async () => {
    const { messages } = await setup(1, 2);
    messages[1]!.attempts = 3;
    const { calls, fetchImpl } = fakeProvider(() => new Response('upstream down', { status: 500 }));
    const result = await run(messages, withEndpoint, fetchImpl);
    expect(calls).toHaveLength(1);
    expect(result.explicitAcks).toEqual([]);
    expect(result.retryMessages.map((m: { msgId: string }) => m.msgId)).toEqual([messages[0]!.id, messages[1]!.id]);
    expect(result.delays).toEqual({ [messages[0]!.id]: 10, [messages[1]!.id]: 40 });
  });

  it('retries on a network failure and on 429, honouring Retry-After', async () => {
    const a = await setup(1);
    const down = await run(a.messages, withEndpoint, (async () => {
      throw new TypeError('connect ECONNREFUSED');
    }) as unknown as typeof fetch);
    expect(down.retryMessages.map((m: { msgId: string }) => m.msgId)).toEqual([a.messages[0]!.id]);
    expect(down.delays).toEqual({ [a.messages[0]!.id]: 10 });
    const limited = await run(
      a.messages,
      withEndpoint,
      fakeProvider(() => new Response('{}', { status: 429, headers: { 'retry-after': '120' } })).fetchImpl,
    );
    expect(limited.retryMessages.map((m: { msgId: string }) => m.msgId)).toEqual([a.messages[0]!.id]);
    expect(limited.delays).toEqual({ [a.messages[0]!.id]: 120 });
  });

  it('deletes a token the provider reports as DeviceNotRegistered and keeps the others', async () => {
    const { user, tokens, messages } = await setup(2);
    const dead = tokens[1]!;
    const { fetchImpl } = fakeProvider((sent) =>
      Response.json({
        data: sent.map((m) =>
          m.to === dead
            ? {
                status: 'error',
                message: `"${dead}" is not a registered push notification recipient`,
                details: { error: 'DeviceNotRegistered' },
              }
            : { status: 'ok', id: 'ticket' },
        ),
      }),
    );
    const result = await run(messages, withEndpoint, fetchImpl);
    expect(result.explicitAcks).toEqual([messages[0]!.id]);
    expect((await db.select().from(pushTokens).where(eq(pushTokens.userId, user.id))).map((t) => t.token)).toEqual([
      tokens[0],
    ]);
  });

  it('logs a malformed answer and acknowledges instead of retrying forever', async () => {
    const { messages } = await setup(1);
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const result = await run(messages, withEndpoint, fakeProvider(() => Response.json({ tickets: 'nope' })).fetchImpl);
    expect(result.retryMessages).toEqual([]);
    expect(result.explicitAcks).toEqual([messages[0]!.id]);
    expect(error.mock.calls.map((c) => String(c[0])).join('\n')).toContain('malformed provider answer');
    error.mockRestore();
  });

  it('sends at most 100 messages per request', async () => {
    const { messages } = await setup(130);
    const { calls, fetchImpl } = fakeProvider(ok);
    const result = await run(messages, withEndpoint, fetchImpl);
    expect(calls.map((c) => c.body.length)).toEqual([100, 30]);
    expect(result.explicitAcks).toEqual([messages[0]!.id]);
  });

  it('sends nothing for a user without tokens or a notification deleted meanwhile, and acknowledges', async () => {
    const noTokens = await setup(0);
    const deleted = await setup(1);
    await db.delete(notifications).where(eq(notifications.id, deleted.rows[0]!.id));
    const { calls, fetchImpl } = fakeProvider(ok);
    const result = await run([...noTokens.messages, ...deleted.messages], withEndpoint, fetchImpl);
    expect(calls).toEqual([]);
    expect(result.explicitAcks.sort()).toEqual([noTokens.messages[0]!.id, deleted.messages[0]!.id].sort());
  });

  it('without PUSH_ENDPOINT sends nothing and acknowledges the batch silently', async () => {
    const { messages } = await setup(1);
    const { calls, fetchImpl } = fakeProvider(ok);
    const result = await run(messages, { ...env, PUSH_ENDPOINT: '' }, fetchImpl);
    expect(calls).toEqual([]);
    expect(result.ackAll).toBe(true);
    expect(result.retryMessages).toEqual([]);
  });

  it('takes PUSH_ENDPOINT from configuration only: https, or http to localhost', () => {
    const cfg = (PUSH_ENDPOINT?: string) => getConfig({ ...env, PUSH_ENDPOINT }).PUSH_ENDPOINT;
    expect(cfg(undefined)).toBeUndefined();
    expect(cfg(' ')).toBeUndefined();
    expect(cfg('https://exp.host/--/api/v2/push/send')).toBe('https://exp.host/--/api/v2/push/send');
    expect(cfg('http://localhost:9999/push')).toBe('http://localhost:9999/push');
    for (const bad of ['http://exp.host/--/api/v2/push/send', 'ftp://exp.host/x', 'not a url']) {
      expect(() => cfg(bad), bad).toThrow(ConfigError);
    }
  });
});
