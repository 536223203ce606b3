/**
 * D1 failing half-way through every multi-row write (test/helpers/failing-d1.ts): for EACH statement of
 * the write's batch in turn, that statement is replaced by an invalid one, so D1 itself fails and rolls
 * the batch back. Every time:
 *   - the answer is exactly 500 {"error":"erro interno","code":"INTERNAL"};
 *   - every table the write touches holds what it held before (all or nothing);
 *   - the one log line names no password, password hash, e-mail or other bound parameter, and no SQL;
 * and then the same request on the real binding succeeds and changes those tables (so the check above
 * is not vacuous).
 */
import { env } from 'cloudflare:test';
import { count, eq, inArray } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import * as schema from '../../src/db/schema';
import { failingD1 } from '../helpers/failing-d1';
import {
  db,
  makeAdmin,
  makeCatalog,
  makeFot,
  makeProfissional,
  makeUser,
  PASSWORD,
  uniq,
  type TestUser,
} from '../helpers/factories';
import { api } from '../helpers/request';
import { insertAgenda, insertConvite, insertNotification } from './world';
import { keptColumnsAfterAll } from '../helpers/kept-columns';

// Every team row these tests touched keeps its event's region, date and accepted count (triggers).
keptColumnsAfterAll();

const INTERNAL = '{"error":"erro interno","code":"INTERNAL"}';

interface Write {
  method: string;
  path: string;
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

let log: MockInstance;
beforeEach(() => {
  log = vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => log.mockRestore());

/** Strings that the log of a failed request must never contain (besides hashes and SQL, always checked). */
const NEVER_LOGGED = [
  /pbkdf2-sha256\$/,
  /Failed query/i,
  /params:/i,
  /\binsert into\b|\bdelete from\b|\bupdate "|\bselect\b/i,
];

function checkLog(secrets: string[]) {
  const lines = log.mock.calls.map((c) => c.map(String).join(' '));
  expect(lines, 'one log line per failed request').toHaveLength(1);
  for (const line of lines) {
    for (const re of NEVER_LOGGED) expect(line).not.toMatch(re);
    for (const s of secrets) expect(line).not.toContain(s);
    expect(JSON.parse(line)).toMatchObject({ level: 'error', requestId: expect.any(String) });
  }
  log.mockClear();
}

/**
 * Fails the batch chosen by `isTarget` at each of its statements in turn, checking the answer, the
 * tables (`snapshot`) and the log; answers how many statements the batch has.
 */
async function failEveryStatement(
  w: Write,
  isTarget: (sqls: string[]) => boolean,
  tables: () => Promise<unknown>,
  secrets: string[] = [],
) {
  // Every failure also leaves the activity log as it was: a failed write has no entry (decisions D15).
  const snapshot = async () => ({ tables: await tables(), logEntries: await logCount() });
  const before = await snapshot();
  let length = 1;
  for (let n = 0; n < length; n++) {
    const failing = failingD1(env.DB, { batch: isTarget, statement: n });
    const res = await api(w.method, w.path, {
      token: w.token,
      body: w.body,
      // A failed request's attempt stays in flight a while; each run is its own client (login limits).
      headers: { ...ip(), ...w.headers },
      bindings: { DB: failing.db },
    });
    expect(
      failing.injected,
      `statement ${n}: the target batch was never run (batches: ${JSON.stringify(failing.batches)})`,
    ).toBe(1);
    length = failing.batches.find(isTarget)!.length;
    expect(res.status, `statement ${n} of ${length} (${failing.replaced[0]?.slice(0, 60)})`).toBe(500);
    expect(JSON.stringify(res.body)).toBe(INTERNAL);
    expect(await snapshot(), `tables after a failure at statement ${n}: ${failing.replaced[0]?.slice(0, 60)}`).toEqual(
      before,
    );
    checkLog(secrets);
  }
  return length;
}

const logCount = async () => (await db.select({ n: count() }).from(schema.logsAtividade))[0]!.n;

const has = (prefix: string) => (sqls: string[]) => sqls.some((s) => s.startsWith(prefix));
const both =
  (...preds: ((sqls: string[]) => boolean)[]) =>
  (sqls: string[]) =>
    preds.every((p) => p(sqls));
const rows = <T>(q: Promise<T[]>) => q;
/** The session a factory's access token lives in (test/helpers/factories.ts tokenFor), not one a route made. */
const notFactorySession = (t: { tokenHash: string }) => !t.tokenHash.startsWith('factory-');
const ip = () => ({
  'cf-connecting-ip': `10.66.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
});

describe('team registration: POST /api/profissionais with email + senha', () => {
  it('creates the login, the profile and its functions together or not at all', async () => {
    const admin = await makeAdmin();
    const [f1, f2] = await Promise.all([makeCatalog(schema.funcoes, 'SP'), makeCatalog(schema.funcoes, 'SP')]);
    const email = `${uniq('equipe')}@example.com`;
    const senha = 'segredo-forte-1';
    const write: Write = {
      method: 'POST',
      path: '/api/profissionais',
      token: admin.token,
      body: { nome: 'Equipe Falha', email, senha, funcoes_ids: [f1!.id, f2!.id], banco: 'Banco Secreto' },
    };
    const snapshot = async () => ({
      users: await rows(db.select().from(schema.users).where(eq(schema.users.email, email))),
      profiles: await rows(db.select().from(schema.profissionais).where(eq(schema.profissionais.email, email))),
      held: await rows(
        db
          .select()
          .from(schema.profissionalFuncoes)
          .where(inArray(schema.profissionalFuncoes.funcaoId, [f1!.id, f2!.id])),
      ),
    });
    const n = await failEveryStatement(
      write,
      both(has('insert into "users"'), has('insert into "profissionais"')),
      snapshot,
      [email, senha, 'Banco Secreto'],
    );
    expect(n).toBeGreaterThanOrEqual(3);
    const ok = await api(write.method, write.path, write);
    expect(ok.status).toBe(201);
    const after = await snapshot();
    expect(after.users).toHaveLength(1);
    expect(after.profiles).toMatchObject([{ usuarioId: after.users[0]!.id }]);
    expect(after.held).toHaveLength(2);
  });
});

describe('professional delete: DELETE /api/profissionais/{id}', () => {
  it('removes the profile, its functions, invitations, login, sessions, notifications and push tokens together or not at all', async () => {
    const admin = await makeAdmin();
    const funcao = await makeCatalog(schema.funcoes, 'SP');
    const u = await makeUser({ role: 'profissional' });
    const prof = await makeProfissional('SP', { usuarioId: u.id }, [funcao.id]);
    const login = await api('POST', '/auth/login', { body: { email: u.email, senha: PASSWORD }, headers: ip() });
    expect(login.status).toBe(200);
    await insertNotification(u.id);
    await db
      .insert(schema.pushTokens)
      .values({ userId: u.id, token: `ExponentPushToken[${uniq()}]`, plataforma: 'android' });
    const fot = await makeFot('SP');
    const tipo = await makeCatalog(schema.tiposEventos, 'SP');
    const event = await insertAgenda('SP', fot.id, tipo.id, u.id);
    await insertConvite(event.id, prof.id, funcao.id, { convidadoPor: admin.id });
    const snapshot = async () => ({
      user: await rows(db.select().from(schema.users).where(eq(schema.users.id, u.id))),
      sessions: (
        await rows(db.select().from(schema.refreshTokens).where(eq(schema.refreshTokens.userId, u.id)))
      ).filter(notFactorySession),
      notifications: await rows(db.select().from(schema.notifications).where(eq(schema.notifications.userId, u.id))),
      pushTokens: await rows(db.select().from(schema.pushTokens).where(eq(schema.pushTokens.userId, u.id))),
      profile: await rows(db.select().from(schema.profissionais).where(eq(schema.profissionais.id, prof.id))),
      held: await rows(
        db.select().from(schema.profissionalFuncoes).where(eq(schema.profissionalFuncoes.profissionalId, prof.id)),
      ),
      convites: await rows(db.select().from(schema.convites).where(eq(schema.convites.profissionalId, prof.id))),
      event: await rows(db.select().from(schema.agenda).where(eq(schema.agenda.id, event.id))),
    });
    const write: Write = { method: 'DELETE', path: `/api/profissionais/${prof.id}`, token: admin.token };
    const before = await snapshot();
    expect(Object.values(before).every((list) => list.length === 1)).toBe(true);
    await failEveryStatement(write, has('delete from "users"'), snapshot, [u.email]);
    expect((await api(write.method, write.path, write)).status).toBe(200);
    const after = await snapshot();
    expect({ ...after, event: undefined }).toEqual({
      user: [],
      sessions: [],
      notifications: [],
      pushTokens: [],
      profile: [],
      held: [],
      convites: [],
      event: undefined,
    });
    expect(after.event[0]?.userId).toBeNull();
  });
});

describe('profile update: PUT /api/profissionais/{id} with funcoes_ids', () => {
  it('changes the profile and replaces its functions together or not at all', async () => {
    const admin = await makeAdmin();
    const [f1, f2, f3] = await Promise.all([1, 2, 3].map(() => makeCatalog(schema.funcoes, 'SP')));
    const prof = await makeProfissional('SP', { nome: 'Antes' }, [f1!.id]);
    const snapshot = async () => ({
      profile: await rows(db.select().from(schema.profissionais).where(eq(schema.profissionais.id, prof.id))),
      held: await rows(
        db.select().from(schema.profissionalFuncoes).where(eq(schema.profissionalFuncoes.profissionalId, prof.id)),
      ),
    });
    const write: Write = {
      method: 'PUT',
      path: `/api/profissionais/${prof.id}`,
      token: admin.token,
      body: { nome: 'Depois', funcoes_ids: [f2!.id, f3!.id], qual_tec: 4 },
    };
    const n = await failEveryStatement(write, has('update "profissionais"'), snapshot);
    expect(n).toBeGreaterThanOrEqual(3);
    expect((await api(write.method, write.path, write)).status).toBe(200);
    const after = await snapshot();
    expect(after.profile[0]).toMatchObject({ nome: 'Depois', qualTec: 4 });
    // The main function (f1, not changed) always stays among the functions held.
    expect(after.held.map((h) => h.funcaoId).sort()).toEqual([f1!.id, f2!.id, f3!.id].sort());
  });
});

/** An SP event created by `creatorId`, and a professional (with its login) holding a function of the region. */
async function eventAndInvitee(creatorId: string) {
  const funcao = await makeCatalog(schema.funcoes, 'SP');
  const fot = await makeFot('SP');
  const tipo = await makeCatalog(schema.tiposEventos, 'SP');
  const event = await insertAgenda('SP', fot.id, tipo.id, creatorId);
  const u = await makeUser({ role: 'profissional' });
  const prof = await makeProfissional('SP', { usuarioId: u.id }, [funcao.id]);
  return { funcao, event, u, prof };
}

describe('invitation answer: PATCH /api/convites/{id}', () => {
  it('accepting changes the invitation and notifies inviter and creator together or not at all', async () => {
    const admin = await makeAdmin();
    const creator = await makeUser({ role: 'agenda_viewer' });
    const { funcao, event, u, prof } = await eventAndInvitee(creator.id);
    await db.insert(schema.agendaEquipe).values({ agendaId: event.id, funcaoId: funcao.id, quantidade: 1 });
    const convite = await insertConvite(event.id, prof.id, funcao.id, { convidadoPor: admin.id });
    const snapshot = async () => ({
      convite: await rows(db.select().from(schema.convites).where(eq(schema.convites.id, convite.id))),
      notes: await rows(
        db
          .select()
          .from(schema.notifications)
          .where(inArray(schema.notifications.userId, [admin.id, creator.id])),
      ),
    });
    const write: Write = {
      method: 'PATCH',
      path: `/api/convites/${convite.id}`,
      token: u.token,
      body: { status: 'aceito' },
    };
    await failEveryStatement(write, has('update "convites"'), snapshot);
    expect((await api(write.method, write.path, write)).status).toBe(200);
    const after = await snapshot();
    expect(after.convite[0]?.status).toBe('aceito');
    expect(after.notes.map((n) => n.userId).sort()).toEqual([admin.id, creator.id].sort());
  });

  it('the invitation and its notification are written together or not at all (POST /api/agenda/{id}/convites)', async () => {
    const admin = await makeAdmin();
    const { funcao, event, u, prof } = await eventAndInvitee(admin.id);
    const snapshot = async () => ({
      convites: await rows(db.select().from(schema.convites).where(eq(schema.convites.agendaId, event.id))),
      notes: await rows(db.select().from(schema.notifications).where(eq(schema.notifications.userId, u.id))),
    });
    const write: Write = {
      method: 'POST',
      path: `/api/agenda/${event.id}/convites`,
      token: admin.token,
      body: { profissional_id: prof.id, funcao_id: funcao.id },
    };
    await failEveryStatement(write, has('insert into "convites"'), snapshot);
    expect((await api(write.method, write.path, write)).status).toBe(201);
    const after = await snapshot();
    expect([after.convites.length, after.notes.length]).toEqual([1, 1]);
  });

  it('cancelling removes the invitation and notifies the professional together or not at all (DELETE /api/convites/{id})', async () => {
    const admin = await makeAdmin();
    const { funcao, event, u, prof } = await eventAndInvitee(admin.id);
    const convite = await insertConvite(event.id, prof.id, funcao.id, { convidadoPor: admin.id, status: 'aceito' });
    const snapshot = async () => ({
      convite: await rows(db.select().from(schema.convites).where(eq(schema.convites.id, convite.id))),
      notes: await rows(db.select().from(schema.notifications).where(eq(schema.notifications.userId, u.id))),
    });
    const write: Write = { method: 'DELETE', path: `/api/convites/${convite.id}`, token: admin.token };
    await failEveryStatement(write, has('delete from "convites"'), snapshot);
    expect((await api(write.method, write.path, write)).status).toBe(204);
    const after = await snapshot();
    expect([after.convite.length, after.notes.length]).toEqual([0, 1]);
  });
});

describe('user creation with a profile: POST /api/admin/users with an administrator role', () => {
  async function scenario(existingProfile: boolean) {
    const admin = await makeAdmin();
    const email = `${uniq('bo')}@example.com`;
    const senha = 'senha-do-novo-admin';
    const existing = existingProfile ? await makeProfissional('SP', { email }) : undefined;
    const snapshot = async () => ({
      users: await rows(db.select().from(schema.users).where(eq(schema.users.email, email))),
      profiles: await rows(db.select().from(schema.profissionais).where(eq(schema.profissionais.email, email))),
    });
    const write: Write = {
      method: 'POST',
      path: '/api/admin/users',
      token: admin.token,
      body: { email, senha, nome: 'Nova Dona', role: 'BUSINESS_OWNER' },
    };
    const n = await failEveryStatement(write, has('insert into "users"'), snapshot, [email, senha]);
    expect(n).toBe(4); // the user, its log entry, the profile link, the profile
    const ok = await api(write.method, write.path, write);
    expect(ok.status).toBe(201);
    const after = await snapshot();
    expect(after.users).toMatchObject([{ role: 'BUSINESS_OWNER', ativo: true }]);
    expect(after.profiles).toHaveLength(1);
    expect(after.profiles[0]!.usuarioId).toBe(ok.body.id);
    if (existing) expect(after.profiles[0]!.id).toBe(existing.id);
  }

  it('creates the account and a new profile together or not at all', () => scenario(false));
  it('creates the account and links the existing profile of that e-mail together or not at all', () => scenario(true));

  it('a failing insert without a profile (the user and its log entry) logs the driver message only: no hash, e-mail or parameters', async () => {
    const admin = await makeAdmin();
    const email = `${uniq('res')}@example.com`;
    const failing = failingD1(env.DB, { batch: has('insert into "users"'), statement: 0 });
    const res = await api('POST', '/api/admin/users', {
      token: admin.token,
      body: { email, senha: 'outra-senha-1', nome: 'Pesquisa', role: 'RESEARCHER' },
      bindings: { DB: failing.db },
    });
    expect(failing.injected).toBe(1);
    expect(JSON.stringify(res.body)).toBe(INTERNAL);
    checkLog([email, 'outra-senha-1', 'Pesquisa']);
    expect(await db.select().from(schema.users).where(eq(schema.users.email, email))).toEqual([]);
  });
});

describe('agenda writes with notifications', () => {
  async function eventWithOwner() {
    const admin = await makeAdmin();
    const fot = await makeFot('SP');
    const tipo = await makeCatalog(schema.tiposEventos, 'SP');
    const owner = await makeUser({ role: 'EVENT_OWNER', empresaId: fot.empresaId });
    return { admin, fot, tipo, owner };
  }

  it('POST /api/agenda: the event and the EVENT_OWNER notifications together or not at all', async () => {
    const { admin, fot, tipo, owner } = await eventWithOwner();
    const marker = uniq('Salao');
    const snapshot = async () => ({
      events: await rows(db.select().from(schema.agenda).where(eq(schema.agenda.localEvento, marker))),
      notes: await rows(db.select().from(schema.notifications).where(eq(schema.notifications.userId, owner.id))),
    });
    const write: Write = {
      method: 'POST',
      path: '/api/agenda',
      token: admin.token,
      body: { fot_id: fot.id, tipo_evento_id: tipo.id, data_evento: '2027-01-15', local_evento: marker },
    };
    const n = await failEveryStatement(write, has('insert into "agenda"'), snapshot);
    expect(n).toBeGreaterThanOrEqual(3);
    expect((await api(write.method, write.path, write)).status).toBe(201);
    const after = await snapshot();
    expect([after.events.length, after.notes.length]).toEqual([1, 1]);
  });

  it('PUT and DELETE /api/agenda/{id}: the change and its notifications together or not at all', async () => {
    const { admin, fot, tipo, owner } = await eventWithOwner();
    const event = await insertAgenda('SP', fot.id, tipo.id, admin.id);
    const snapshot = async () => ({
      event: await rows(db.select().from(schema.agenda).where(eq(schema.agenda.id, event.id))),
      notes: await rows(db.select().from(schema.notifications).where(eq(schema.notifications.userId, owner.id))),
    });
    const put: Write = {
      method: 'PUT',
      path: `/api/agenda/${event.id}`,
      token: admin.token,
      body: { horario: '21:30', local_evento: 'Mudou' },
    };
    await failEveryStatement(put, has('update "agenda"'), snapshot);
    expect((await api(put.method, put.path, put)).status).toBe(200);
    const del: Write = { method: 'DELETE', path: `/api/agenda/${event.id}`, token: admin.token };
    await failEveryStatement(del, has('delete from "agenda"'), snapshot);
    expect((await api(del.method, del.path, del)).status).toBe(204);
    const after = await snapshot();
    expect(after.event).toEqual([]);
    expect(after.notes.map((x) => x.tipo).sort()).toEqual(['agenda_alterada', 'agenda_excluida']);
  });

  it('PUT /api/agenda/{id}/equipe: the old team is replaced by the new one (25 functions, two inserts) or kept whole', async () => {
    const admin = await makeAdmin();
    const fot = await makeFot('SP');
    const tipo = await makeCatalog(schema.tiposEventos, 'SP');
    const event = await insertAgenda('SP', fot.id, tipo.id, admin.id);
    const funcoes = await Promise.all(Array.from({ length: 25 }, () => makeCatalog(schema.funcoes, 'SP')));
    await db
      .insert(schema.agendaEquipe)
      .values(funcoes.slice(0, 2).map((f) => ({ agendaId: event.id, funcaoId: f.id, quantidade: 7 })));
    const snapshot = () =>
      rows(db.select().from(schema.agendaEquipe).where(eq(schema.agendaEquipe.agendaId, event.id)));
    const write: Write = {
      method: 'PUT',
      path: `/api/agenda/${event.id}/equipe`,
      token: admin.token,
      body: funcoes.map((f) => ({ funcao_id: f.id, quantidade: 1 })),
    };
    const n = await failEveryStatement(write, has('delete from "agenda_equipe"'), snapshot);
    expect(n).toBeGreaterThanOrEqual(3);
    expect((await api(write.method, write.path, write)).status).toBe(200);
    expect(await snapshot()).toHaveLength(25);
  });
});

describe('accounts', () => {
  it('POST /auth/register: the account and its first session together or not at all', async () => {
    const email = `${uniq('novo')}@example.com`;
    const snapshot = async () => ({
      users: await rows(db.select().from(schema.users).where(eq(schema.users.email, email))),
      sessions: (await db.select({ n: count() }).from(schema.refreshTokens))[0]!.n,
    });
    const write: Write = {
      method: 'POST',
      path: '/auth/register',
      body: { email, senha: 'minha-senha-9', nome: 'Nova Pessoa', role: 'RESEARCHER' },
    };
    await failEveryStatement(write, has('insert into "users"'), snapshot, [email, 'minha-senha-9']);
    expect((await api(write.method, write.path, write)).status).toBe(201);
    expect((await snapshot()).users).toHaveLength(1);
  });

  it('PUT /api/me changing the password: new hash, old sessions revoked and a new one, together or not at all', async () => {
    const u: TestUser = await makeUser({ role: 'RESEARCHER' });
    const login = await api('POST', '/auth/login', { body: { email: u.email, senha: PASSWORD }, headers: ip() });
    expect(login.status).toBe(200);
    const snapshot = async () => ({
      user: await rows(db.select().from(schema.users).where(eq(schema.users.id, u.id))),
      sessions: await rows(db.select().from(schema.refreshTokens).where(eq(schema.refreshTokens.userId, u.id))),
    });
    const write: Write = {
      method: 'PUT',
      path: '/api/me',
      token: u.token,
      body: { nome: 'Nome Novo', senha_atual: PASSWORD, nova_senha: 'nova-senha-segura' },
    };
    await failEveryStatement(write, has('update "users"'), snapshot, [PASSWORD, 'nova-senha-segura', u.email]);
    // The old session still works after the failures.
    expect((await api('POST', '/auth/refresh', { body: { refresh_token: login.body.refresh_token } })).status).toBe(
      200,
    );
    expect((await api(write.method, write.path, write)).status).toBe(200);
    const after = await snapshot();
    expect(after.sessions.filter((s) => s.revokedAt === null)).toHaveLength(1);
  });

  it('POST /auth/refresh: the new token and the spending of the old one together or not at all', async () => {
    const u = await makeUser();
    const login = await api('POST', '/auth/login', { body: { email: u.email, senha: PASSWORD }, headers: ip() });
    const snapshot = () => rows(db.select().from(schema.refreshTokens).where(eq(schema.refreshTokens.userId, u.id)));
    const write: Write = { method: 'POST', path: '/auth/refresh', body: { refresh_token: login.body.refresh_token } };
    const n = await failEveryStatement(write, has('insert into "refresh_tokens"'), snapshot, [
      login.body.refresh_token,
    ]);
    expect(n).toBe(3); // the new token, its log entry, the spending of the old one
    expect((await api(write.method, write.path, write)).status).toBe(200);
    expect((await snapshot()).filter((t) => t.revokedAt === null && notFactorySession(t))).toHaveLength(1);
  });

  it('approving and changing a role: the change and its notification together or not at all', async () => {
    const admin = await makeAdmin();
    const pending = await makeUser({ role: 'RESEARCHER', ativo: false });
    const snapshot = async () => ({
      user: await rows(
        db
          .select({ ativo: schema.users.ativo, role: schema.users.role })
          .from(schema.users)
          .where(eq(schema.users.id, pending.id)),
      ),
      notes: await rows(db.select().from(schema.notifications).where(eq(schema.notifications.userId, pending.id))),
    });
    const approve: Write = { method: 'PATCH', path: `/api/admin/users/${pending.id}/approve`, token: admin.token };
    await failEveryStatement(approve, has('update "users"'), snapshot);
    expect((await api(approve.method, approve.path, approve)).status).toBe(200);
    const role: Write = {
      method: 'PATCH',
      path: `/api/admin/users/${pending.id}/role`,
      token: admin.token,
      body: { role: 'agenda_viewer' },
    };
    await failEveryStatement(role, has('update "users"'), snapshot);
    expect((await api(role.method, role.path, role)).status).toBe(200);
    const after = await snapshot();
    expect(after.user).toEqual([{ ativo: true, role: 'agenda_viewer' }]);
    expect(after.notes.map((n) => n.tipo).sort()).toEqual(['conta_aprovada', 'papel_alterado']);
  });
});

describe('job listings (decisions D17)', () => {
  it('an application, its acceptance, its entry and the notifications: together or not at all', async () => {
    const admin = await makeAdmin();
    const funcao = await makeCatalog(schema.funcoes, 'SP');
    const fot = await makeFot('SP');
    const tipo = await makeCatalog(schema.tiposEventos, 'SP');
    const event = await insertAgenda('SP', fot.id, tipo.id, admin.id, '2030-01-10');
    await db
      .insert(schema.agendaEquipe)
      .values({ agendaId: event.id, funcaoId: funcao.id, quantidade: 1, publicar: true });
    const u = await makeUser({ role: 'profissional' });
    await makeProfissional('SP', { usuarioId: u.id }, [funcao.id]);
    const snapshot = async () => ({
      convites: await rows(db.select().from(schema.convites).where(eq(schema.convites.agendaId, event.id))),
      notes: await rows(db.select().from(schema.notifications).where(eq(schema.notifications.userId, admin.id))),
    });
    const write: Write = {
      method: 'POST',
      path: `/api/vagas/${event.id}/candidaturas`,
      token: u.token,
      body: { funcao_id: funcao.id },
    };
    await failEveryStatement(write, has('insert into "convites"'), snapshot);
    expect((await api(write.method, write.path, write)).status).toBe(201);
    const after = await snapshot();
    expect(after.convites.map((c) => c.status)).toEqual(['aceito']);
    expect(after.notes.map((n) => n.tipo)).toEqual(['candidatura_recebida']);
  });

  it('a cancellation and the waiting-list promotion it causes: together or not at all', async () => {
    const admin = await makeAdmin();
    const { funcao, event, prof } = await eventAndInvitee(admin.id);
    await db.insert(schema.agendaEquipe).values({ agendaId: event.id, funcaoId: funcao.id, quantidade: 1 });
    const holder = await insertConvite(event.id, prof.id, funcao.id, { status: 'aceito' });
    const w = await makeUser({ role: 'profissional' });
    const waiterProf = await makeProfissional('SP', { usuarioId: w.id }, [funcao.id]);
    const waiter = await insertConvite(event.id, waiterProf.id, funcao.id, { status: 'espera' });
    const snapshot = async () => ({
      convites: await rows(db.select().from(schema.convites).where(eq(schema.convites.agendaId, event.id))),
      notes: await rows(db.select().from(schema.notifications).where(eq(schema.notifications.userId, w.id))),
    });
    const write: Write = { method: 'DELETE', path: `/api/convites/${holder.id}`, token: admin.token };
    await failEveryStatement(write, has('delete from "convites"'), snapshot);
    expect((await api(write.method, write.path, write)).status).toBe(204);
    const after = await snapshot();
    expect(after.convites.map((c) => [c.id, c.status])).toEqual([[waiter.id, 'aceito']]);
    expect(after.notes.map((n) => n.tipo)).toEqual(['convite_promovido']);
  });
});
