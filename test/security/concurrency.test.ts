/**
 * Races through HTTP that the route suites do not already run. Already covered elsewhere (not repeated):
 * concurrent creates of one catalog name (catalogs.test.ts), one FOT number (cadastro-fot.test.ts),
 * one e-mail through POST /api/admin/users (admin-users.test.ts), the last SUPERADMIN
 * (admin-last-superadmin.test.ts), one refresh token (auth.test.ts), 20 professionals and the last
 * quota place (convites.test.ts).
 *
 * Each test fires N requests at once; D1 serialises the statements, so a rule that is checked by a
 * read before a separate write shows up here as more than one winner.
 */
import { and, eq, inArray, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as schema from '../../src/db/schema';
import { LOGIN_MAX_PER_CLIENT, LOGIN_MAX_PER_EMAIL, LOGIN_MAX_PER_IP } from '../../src/services/accounts/sessions';
import { db, makeAdmin, makeCatalog, makeProfissional, makeUser, uniq } from '../helpers/factories';
import { api, expectError, type ApiResult } from '../helpers/request';
import { insertAgenda, insertConvite } from './world';

const all = <T>(n: number, f: (i: number) => Promise<T>) => Promise.all(Array.from({ length: n }, (_, i) => f(i)));

function tally(results: ApiResult[]) {
  const out: Record<string, number> = {};
  for (const r of results) {
    const k = `${r.status}${r.body?.code ? ` ${r.body.code}` : ''}`;
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}

describe('login rate limit under a burst of parallel attempts (API4)', () => {
  it(`evaluates at most ${LOGIN_MAX_PER_CLIENT} passwords of one e-mail from one client out of 30 sent at once; the rest are 429`, async () => {
    const u = await makeUser();
    const client = `10.77.${Math.floor(Math.random() * 250)}.1`;
    const results = await all(30, (i) =>
      api('POST', '/auth/login', {
        body: { email: u.email, senha: `wrong-password-${i}` },
        headers: { 'cf-connecting-ip': client },
      }),
    );
    const counts = tally(results);
    expect(counts['401 INVALID_CREDENTIALS'] ?? 0, JSON.stringify(counts)).toBeLessThanOrEqual(LOGIN_MAX_PER_CLIENT);
    expect((counts['401 INVALID_CREDENTIALS'] ?? 0) + (counts['429 RATE_LIMITED'] ?? 0)).toBe(30);
    for (const r of results.filter((r) => r.status === 429))
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    // Even the right password waits now, from that client.
    expectError(
      await api('POST', '/auth/login', {
        body: { email: u.email, senha: u.password },
        headers: { 'cf-connecting-ip': client },
      }),
      429,
      'RATE_LIMITED',
    );
  });

  it(`evaluates at most ${LOGIN_MAX_PER_EMAIL} passwords of one e-mail out of ${LOGIN_MAX_PER_EMAIL + 20} sent at once from as many clients`, async () => {
    const u = await makeUser();
    const n = LOGIN_MAX_PER_EMAIL + 20;
    const results = await all(n, (i) =>
      api('POST', '/auth/login', {
        body: { email: u.email, senha: `wrong-password-${i}` },
        headers: { 'cf-connecting-ip': `10.76.${i}.${Math.floor(Math.random() * 250)}` },
      }),
    );
    const counts = tally(results);
    expect(counts['401 INVALID_CREDENTIALS'] ?? 0, JSON.stringify(counts)).toBeLessThanOrEqual(LOGIN_MAX_PER_EMAIL);
    expect((counts['401 INVALID_CREDENTIALS'] ?? 0) + (counts['429 RATE_LIMITED'] ?? 0)).toBe(n);
  });

  it(`evaluates at most ${LOGIN_MAX_PER_IP} passwords from one IP out of 40 sprayed over 40 e-mails at once`, async () => {
    const ip = `10.78.${Math.floor(Math.random() * 250)}.9`;
    const results = await all(40, () =>
      api('POST', '/auth/login', {
        body: { email: `${uniq('spray')}@example.com`, senha: 'wrong-password' },
        headers: { 'cf-connecting-ip': ip },
      }),
    );
    const counts = tally(results);
    expect(counts['401 INVALID_CREDENTIALS'] ?? 0, JSON.stringify(counts)).toBeLessThanOrEqual(LOGIN_MAX_PER_IP);
    expect((counts['401 INVALID_CREDENTIALS'] ?? 0) + (counts['429 RATE_LIMITED'] ?? 0)).toBe(40);
  });

  it('does not count parallel successful logins as failures', async () => {
    const u = await makeUser();
    const results = await all(5, (i) =>
      api('POST', '/auth/login', {
        body: { email: u.email, senha: u.password },
        headers: { 'cf-connecting-ip': `10.79.${i}.2` },
      }),
    );
    expect(tally(results)).toEqual({ 200: 5 });
    for (let i = 0; i < 4; i++) {
      expectError(
        await api('POST', '/auth/login', {
          body: { email: u.email, senha: 'wrong-password' },
          headers: { 'cf-connecting-ip': `10.79.9.${i}` },
        }),
        401,
        'INVALID_CREDENTIALS',
      );
    }
    expect(
      (
        await api('POST', '/auth/login', {
          body: { email: u.email, senha: u.password },
          headers: { 'cf-connecting-ip': '10.79.9.9' },
        })
      ).status,
    ).toBe(200);
  });
});

describe('one e-mail, many accounts at once', () => {
  it('30 parallel POST /auth/register with one e-mail: exactly one 201, the rest 400 EMAIL_TAKEN, one row', async () => {
    const email = `${uniq('race')}@example.com`;
    const results = await all(30, (i) =>
      api('POST', '/auth/register', {
        body: {
          email: i % 2 ? email.toUpperCase() : email,
          senha: 'segredo123',
          nome: `Pessoa ${i}`,
          role: 'profissional',
        },
      }),
    );
    expect(tally(results)).toEqual({ 201: 1, '400 EMAIL_TAKEN': 29 });
    for (const r of results.filter((r) => r.status === 400)) expectError(r, 400, 'EMAIL_TAKEN');
    const rows = await db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.email, email));
    expect(rows).toHaveLength(1);
    // The session of the winner only: the losers' batches left nothing behind.
    const sessions = await db.select().from(schema.refreshTokens).where(eq(schema.refreshTokens.userId, rows[0]!.id));
    expect(sessions).toHaveLength(1);
  });

  it('20 parallel team registrations (POST /api/profissionais with email + senha): one login, one profile, no orphans', async () => {
    const admin = await makeAdmin();
    const email = `${uniq('team')}@example.com`;
    const results = await all(20, (i) =>
      api('POST', '/api/profissionais', {
        token: admin.token,
        body: { nome: `Equipe ${i}`, email, senha: 'segredo123' },
      }),
    );
    expect(tally(results)).toEqual({ 201: 1, '400 EMAIL_TAKEN': 19 });
    expect(await db.select().from(schema.users).where(eq(schema.users.email, email))).toHaveLength(1);
    expect(await db.select().from(schema.profissionais).where(eq(schema.profissionais.email, email))).toHaveLength(1);
  });

  it('20 parallel own-profile creations by one profissional: one 201, the rest 409 CONFLICT, one profile', async () => {
    const u = await makeUser({ role: 'profissional' });
    const results = await all(20, (i) =>
      api('POST', '/api/profissionais', { token: u.token, body: { nome: `Eu ${i}` } }),
    );
    expect(tally(results)).toEqual({ 201: 1, '409 CONFLICT': 19 });
    expect(await db.select().from(schema.profissionais).where(eq(schema.profissionais.usuarioId, u.id))).toHaveLength(
      1,
    );
  });
});

describe('prices, names and tokens', () => {
  it('30 parallel price upserts of one (event type, function): all 200 with the same id, one row holding one of the values', async () => {
    const admin = await makeAdmin();
    const tipo = await makeCatalog(schema.tiposEventos, 'SP');
    const funcao = await makeCatalog(schema.funcoes, 'SP');
    const results = await all(30, (i) =>
      api('POST', '/api/tipos-eventos/precos', {
        token: admin.token,
        body: { tipo_evento_id: tipo.id, funcao_profissional_id: funcao.id, valor: 100 + i },
      }),
    );
    expect(tally(results)).toEqual({ 200: 30 });
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    const rows = await db
      .select()
      .from(schema.precos)
      .where(and(eq(schema.precos.tipoEventoId, tipo.id), eq(schema.precos.funcaoProfissionalId, funcao.id)));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.valorCentavos).toBeGreaterThanOrEqual(10_000);
    expect(rows[0]!.valorCentavos).toBeLessThanOrEqual(12_900);
  });

  it('20 entries renamed at once onto one free name: exactly one 200, the rest 409 CONFLICT', async () => {
    const admin = await makeAdmin();
    const entries = await all(20, () => makeCatalog(schema.cursos, 'SP'));
    const nome = uniq('Curso disputado');
    const results = await Promise.all(
      entries.map((e) => api('PUT', `/api/cursos/${e.id}`, { token: admin.token, body: { nome } })),
    );
    expect(tally(results)).toEqual({ 200: 1, '409 CONFLICT': 19 });
    expect(await db.select().from(schema.cursos).where(eq(schema.cursos.label, nome))).toHaveLength(1);
  });

  it('20 users registering one push token at once: one row, held by one of them', async () => {
    const people = await all(20, () => makeUser());
    const token = `ExponentPushToken[${uniq('race')}]`;
    const results = await Promise.all(
      people.map((p) =>
        api('POST', '/api/v1/notifications/push-token', { token: p.token, body: { token, plataforma: 'android' } }),
      ),
    );
    expect(tally(results)).toEqual({ 201: 20 });
    const rows = await db.select().from(schema.pushTokens).where(eq(schema.pushTokens.token, token));
    expect(rows).toHaveLength(1);
    expect(people.map((p) => p.id)).toContain(rows[0]!.userId);
  });
});

describe('invitations and approvals', () => {
  async function eventFixture(dataEvento = '2026-12-05') {
    const admin = await makeAdmin();
    const funcao = await makeCatalog(schema.funcoes, 'SP');
    const tipo = await makeCatalog(schema.tiposEventos, 'SP');
    const { makeFot } = await import('../helpers/factories');
    const fot = await makeFot('SP');
    const event = await insertAgenda('SP', fot.id, tipo.id, admin.id, dataEvento);
    return { admin, funcao, tipo, fot, event };
  }

  it('20 parallel invitations of one professional to one event: one 201, the rest 409 CONFLICT, one row, one notification', async () => {
    const { admin, funcao, event } = await eventFixture();
    const u = await makeUser({ role: 'profissional' });
    const prof = await makeProfissional('SP', { usuarioId: u.id }, [funcao.id]);
    const results = await all(20, () =>
      api('POST', `/api/agenda/${event.id}/convites`, {
        token: admin.token,
        body: { profissional_id: prof.id, funcao_id: funcao.id },
      }),
    );
    expect(tally(results)).toEqual({ 201: 1, '409 CONFLICT': 19 });
    expect(await db.select().from(schema.convites).where(eq(schema.convites.agendaId, event.id))).toHaveLength(1);
    const notes = await db
      .select()
      .from(schema.notifications)
      .where(and(eq(schema.notifications.userId, u.id), eq(schema.notifications.tipo, 'convite_recebido')));
    expect(notes).toHaveLength(1);
  });

  it('one professional accepting 10 invitations of the same date at once: exactly one is accepted, the rest 409 DOUBLE_BOOKED', async () => {
    const u = await makeUser({ role: 'profissional' });
    const first = await eventFixture('2027-03-14');
    const prof = await makeProfissional('SP', { usuarioId: u.id }, [first.funcao.id]);
    const events = [
      first.event,
      ...(await all(9, () => insertAgenda('SP', first.fot.id, first.tipo.id, first.admin.id, '2027-03-14'))),
    ];
    const invites = await Promise.all(events.map((e) => insertConvite(e.id, prof.id, first.funcao.id)));
    const results = await Promise.all(
      invites.map((c) => api('PATCH', `/api/convites/${c.id}`, { token: u.token, body: { status: 'aceito' } })),
    );
    expect(tally(results)).toEqual({ 200: 1, '409 DOUBLE_BOOKED': 9 });
    const accepted = await db
      .select()
      .from(schema.convites)
      .where(
        and(
          inArray(
            schema.convites.id,
            invites.map((c) => c.id),
          ),
          eq(schema.convites.status, 'aceito'),
        ),
      );
    expect(accepted).toHaveLength(1);
  });

  it('20 parallel approvals of one pending account: all 200, the user is told exactly once', async () => {
    const admin = await makeAdmin();
    const pending = await makeUser({ role: 'RESEARCHER', ativo: false });
    const results = await all(20, () => api('PATCH', `/api/admin/users/${pending.id}/approve`, { token: admin.token }));
    expect(tally(results)).toEqual({ 200: 20 });
    const notes = await db
      .select()
      .from(schema.notifications)
      .where(and(eq(schema.notifications.userId, pending.id), like(schema.notifications.tipo, 'conta_aprovada')));
    expect(notes).toHaveLength(1);
  });
});
