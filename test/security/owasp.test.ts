/**
 * OWASP API Security Top 10 (2023), one section per risk, each a test of this API that fails when the
 * protection is removed. Where another suite already proves a point it is named, not repeated:
 *
 *   route-auth.test.ts   every protected route × every role: 401 without/with a bad token, 403 outside its roles
 *   auth.test.ts         alg none, wrong secret, expired and tampered tokens; refresh rotation and reuse
 *                        (theft detection); login rate limit; cookie flags (HttpOnly, Secure, SameSite=Lax, paths);
 *                        the cookie Origin check
 *   app.test.ts          /openapi.json lists exactly the served routes (both ways); BearerAuth on every
 *                        non-public route; security headers; CORS preflight; 500 without internals
 *   convites.test.ts     20 professionals racing for the last quota place
 *   notifications.test.ts  push consumer: provider answers validated, PUSH_ENDPOINT from configuration only
 *   concurrency.test.ts  races (same e-mail, login bursts, double booking, ...)
 *   fuzz.test.ts         fuzzed bodies, ids, headers and query strings on every route (no 5xx, D2 shape)
 *   failures.test.ts     D1 failing half-way through every multi-row write
 *
 * Routes are read from /openapi.json wherever a rule holds for all of them, so a new route is covered
 * (or the test names it) without editing this file.
 */
import { createExecutionContext, createMessageBatch, env, getQueueResult } from 'cloudflare:test';
import { and, count, eq, getTableName, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../src/app';
import * as schema from '../../src/db/schema';
import { ROLES, type Role } from '../../src/db/schema';
import { handlePushBatch } from '../../src/queue/push-consumer';
import type { PushMessage } from '../../src/lib/messages';
import { db, makeAdmin, makeCatalog, makeProfissional, makeUser, PASSWORD, uniq } from '../helpers/factories';
import { protectedRoutes } from '../helpers/protected-routes';
import { api, cookies, errorShapeProblem, expectError, send, UNKNOWN_ID, type ApiResult } from '../helpers/request';
import {
  callerFor,
  insertConvite,
  insertNotification,
  makeWorld,
  nonNull,
  openApi,
  operations,
  opKey,
  realArrayCall,
  realIdFor,
  typeOf,
  validBody,
  type JsonSchema,
  type Operation,
  type RegionRows,
  type World,
  requiredQuery,
} from './world';

const doc = await openApi();
const ops = operations(doc);
const bodyOps = ops.filter((o) => o.body);
const fill = (path: string, id: string) =>
  path.replace('{id}', id).replace('{vigencia}', '2030-01-01').replace('{disp_id}', UNKNOWN_ID);
const ipHeader = () => ({
  'cf-connecting-ip': `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
});

let w: World;
beforeAll(async () => {
  w = await makeWorld();
});

/** Decisions-D2 shape (with `campos` on a schema failure), or a readable reason why not. */
function shapeProblem(res: ApiResult): string | undefined {
  if (typeof res.body !== 'object' || res.body === null) return `body is not JSON: ${String(res.body).slice(0, 80)}`;
  const problem = errorShapeProblem(res.body, res.status);
  return problem && `${problem}: ${JSON.stringify(res.body).slice(0, 120)}`;
}

// ---------------------------------------------------------------------------------------------------
describe("API1 broken object-level authorization: others' ids are 404 and untouched", () => {
  it("another user's notifications: not listed, not counted, 404 to read or delete", async () => {
    const [a, b] = await Promise.all([makeUser(), makeUser()]);
    const note = await insertNotification(a.id);
    expectError(await api('PUT', `/api/v1/notifications/${note.id}/read`, { token: b.token }), 404, 'NOT_FOUND');
    expectError(await api('DELETE', `/api/v1/notifications/${note.id}`, { token: b.token }), 404, 'NOT_FOUND');
    const list = await api('GET', '/api/v1/notifications', { token: b.token });
    expect(list.body.map((n: { id: string }) => n.id)).not.toContain(note.id);
    expect((await api('GET', '/api/v1/notifications/unread-count', { token: b.token })).body).toEqual({ count: 0 });
    const [row] = await db.select().from(schema.notifications).where(eq(schema.notifications.id, note.id));
    expect(row).toMatchObject({ lida: false, readAt: null });
    // Read-all of b leaves a's unread.
    await api('PUT', '/api/v1/notifications/read-all', { token: b.token });
    expect((await api('GET', '/api/v1/notifications/unread-count', { token: a.token })).body).toEqual({ count: 1 });
  });

  it("another user's push token cannot be removed by DELETE push-token", async () => {
    const [a, b] = await Promise.all([makeUser(), makeUser()]);
    const token = `ExponentPushToken[${uniq()}]`;
    expect(
      (await api('POST', '/api/v1/notifications/push-token', { token: a.token, body: { token, plataforma: 'ios' } }))
        .status,
    ).toBe(201);
    expect((await api('DELETE', '/api/v1/notifications/push-token', { token: b.token, body: { token } })).status).toBe(
      204,
    );
    expect(
      await db
        .select()
        .from(schema.pushTokens)
        .where(and(eq(schema.pushTokens.token, token), eq(schema.pushTokens.userId, a.id))),
    ).toHaveLength(1);
  });

  it('the agenda entries of another agenda_viewer: every route answers 404 and nothing changes', async () => {
    const other = await makeUser({ role: 'agenda_viewer' });
    const id = w.sp.agenda.id;
    const [before] = await db.select().from(schema.agenda).where(eq(schema.agenda.id, id));
    const tries: [string, string, unknown?][] = [
      ['GET', `/api/agenda/${id}`],
      ['PUT', `/api/agenda/${id}`, { horario: '23:59', local_evento: 'Sequestrado' }],
      ['DELETE', `/api/agenda/${id}`],
      ['PUT', `/api/agenda/${id}/equipe`, [{ funcao_id: w.sp.funcao.id, quantidade: 9 }]],
      ['GET', `/api/agenda/${id}/convites`],
      ['POST', `/api/agenda/${id}/convites`, { profissional_id: w.sp.profissional.id, funcao_id: w.sp.funcao.id }],
    ];
    for (const [method, path, body] of tries)
      expectError(await api(method, path, { token: other.token, body }), 404, 'NOT_FOUND');
    const list = await api('GET', '/api/agenda', { token: other.token });
    expect(list.body.map((e: { id: string }) => e.id)).not.toContain(id);
    const [after] = await db.select().from(schema.agenda).where(eq(schema.agenda.id, id));
    expect(after).toEqual(before);
    expect(await db.select().from(schema.agendaEquipe).where(eq(schema.agendaEquipe.agendaId, id))).toEqual([]);
  });

  it("another professional's profile and invitations: 404, never listed, unchanged", async () => {
    const u = await makeUser({ role: 'profissional' });
    const own = await makeProfissional('SP', { usuarioId: u.id });
    const theirs = w.sp.profissional.id;
    const [before] = await db.select().from(schema.profissionais).where(eq(schema.profissionais.id, theirs));
    expectError(await api('GET', `/api/profissionais/${theirs}`, { token: u.token }), 404, 'NOT_FOUND');
    expectError(
      await api('PUT', `/api/profissionais/${theirs}`, {
        token: u.token,
        body: { conta_pix: 'minha-chave', nome: 'Trocado' },
      }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await api('PATCH', `/api/convites/${w.sp.convite.id}`, { token: u.token, body: { status: 'aceito' } }),
      404,
      'NOT_FOUND',
    );
    const list = await api('GET', '/api/profissionais', { token: u.token });
    expect(list.body.map((p: { id: string }) => p.id)).toEqual([own.id]);
    expect((await api('GET', '/api/convites', { token: u.token })).body).toEqual([]);
    const [after] = await db.select().from(schema.profissionais).where(eq(schema.profissionais.id, theirs));
    expect(after).toEqual(before);
    const [convite] = await db.select().from(schema.convites).where(eq(schema.convites.id, w.sp.convite.id));
    expect(convite?.status).toBe('pendente');
  });

  it("an EVENT_OWNER does not see another company's FOT records and events", async () => {
    const eo = w.users.EVENT_OWNER; // its company is not the company of w.sp.fot
    expectError(await api('GET', `/api/cadastro-fot/${w.sp.fot.id}`, { token: eo.token }), 404, 'NOT_FOUND');
    expectError(await api('GET', `/api/agenda/${w.sp.agenda.id}`, { token: eo.token }), 404, 'NOT_FOUND');
    expect((await api('GET', '/api/cadastro-fot', { token: eo.token })).body).toEqual([]);
  });

  it('an id of the other region is 404 on EVERY regional route with an id, and the row stays as it was', async () => {
    const snapshot = () => mgRows(w.mg);
    const before = await snapshot();
    // An account has no region (users are global): the role route reads x-regiao only for the company it names.
    const regional = ops.filter(
      (o) => o.regional && o.path.includes('{id}') && !o.path.startsWith('/api/admin/users/{id}'),
    );
    expect(regional.length).toBeGreaterThanOrEqual(20);
    const problems: string[] = [];
    for (const op of regional) {
      const id = realIdFor(op.path, w.mg, w);
      if (!id) {
        problems.push(`${opKey(op)}: no MG row known for this path (add it to realIdFor in world.ts)`);
        continue;
      }
      const caller = callerFor(op, w);
      const query = requiredQuery(op, w.sp);
      const res = await api(op.method, `${fill(op.path, id)}${query ? `?${query}` : ''}`, {
        token: caller.token,
        regiao: 'SP',
        body: validBody(opKey(op), w, w.sp),
      });
      if (res.status !== 404 || res.body?.code !== 'NOT_FOUND')
        problems.push(`${opKey(op)} with an MG id from SP: ${res.status} ${JSON.stringify(res.body).slice(0, 100)}`);
    }
    expect(problems).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });
});

/** Every MG row of the world as stored, to prove that requests from SP changed none of them. */
async function mgRows(r: RegionRows) {
  const one = async <T>(q: Promise<T[]>) => (await q)[0];
  return {
    empresa: await one(db.select().from(schema.empresas).where(eq(schema.empresas.id, r.empresa.id))),
    curso: await one(db.select().from(schema.cursos).where(eq(schema.cursos.id, r.curso.id))),
    ano: await one(db.select().from(schema.anosFormaturas).where(eq(schema.anosFormaturas.id, r.ano.id))),
    funcao: await one(db.select().from(schema.funcoes).where(eq(schema.funcoes.id, r.funcao.id))),
    tipoServico: await one(db.select().from(schema.tiposServicos).where(eq(schema.tiposServicos.id, r.tipoServico.id))),
    tipoEvento: await one(db.select().from(schema.tiposEventos).where(eq(schema.tiposEventos.id, r.tipoEvento.id))),
    preco: await one(db.select().from(schema.precos).where(eq(schema.precos.id, r.preco.id))),
    fot: await one(db.select().from(schema.cadastroFot).where(eq(schema.cadastroFot.id, r.fot.id))),
    agenda: await one(db.select().from(schema.agenda).where(eq(schema.agenda.id, r.agenda.id))),
    equipe: await db.select().from(schema.agendaEquipe).where(eq(schema.agendaEquipe.agendaId, r.agenda.id)),
    profissional: await one(
      db.select().from(schema.profissionais).where(eq(schema.profissionais.id, r.profissional.id)),
    ),
    convites: await db.select().from(schema.convites).where(eq(schema.convites.agendaId, r.agenda.id)),
    pacote: await one(db.select().from(schema.pacotes).where(eq(schema.pacotes.id, r.pacote.id))),
    pedido: await one(db.select().from(schema.pedidos).where(eq(schema.pedidos.id, r.pedido.id))),
  };
}

// ---------------------------------------------------------------------------------------------------
describe('API2 broken authentication: a token is only as good as the account behind it', () => {
  // Signature, alg none, expiry, tampered claims, refresh reuse: auth.test.ts and route-auth.test.ts.

  async function loggedIn(role: Role) {
    const admin = await makeAdmin();
    const email = `${uniq('sess')}@example.com`;
    const created = await api('POST', '/api/admin/users', {
      token: admin.token,
      body: { email, senha: 'segredo123', nome: 'Sessao', role },
    });
    expect(created.status).toBe(201);
    const login = await api('POST', '/auth/login', { body: { email, senha: 'segredo123' }, headers: ipHeader() });
    expect(login.status).toBe(200);
    return {
      admin,
      id: created.body.id as string,
      access: login.body.access_token as string,
      refresh: login.body.refresh_token as string,
    };
  }

  it('the tokens of a user deleted through DELETE /api/admin/users are refused on every protected route and at refresh', async () => {
    const s = await loggedIn('RESEARCHER');
    expect((await api('GET', '/api/me', { token: s.access })).status).toBe(200);
    expect((await api('DELETE', `/api/admin/users/${s.id}`, { token: s.admin.token })).status).toBe(200);
    const problems: string[] = [];
    for (const r of protectedRoutes) {
      const res = await api(r.method, r.path, { token: s.access, body: r.body });
      if (res.status !== 401 || res.body?.code !== 'UNAUTHENTICATED')
        problems.push(`${r.method} ${r.path}: ${res.status}`);
    }
    expect(problems).toEqual([]);
    expectError(
      await api('POST', '/auth/refresh', { body: { refresh_token: s.refresh } }),
      401,
      'INVALID_REFRESH_TOKEN',
    );
  });

  it('the token of a professional whose profile (and so login) was deleted is refused', async () => {
    const admin = await makeAdmin();
    const email = `${uniq('equipe')}@example.com`;
    const created = await api('POST', '/api/profissionais', {
      token: admin.token,
      body: { nome: 'Equipe', email, senha: 'segredo123' },
    });
    expect(created.status).toBe(201);
    const login = await api('POST', '/auth/login', { body: { email, senha: 'segredo123' }, headers: ipHeader() });
    expect(login.status).toBe(200);
    expect((await api('DELETE', `/api/profissionais/${created.body.id}`, { token: admin.token })).status).toBe(200);
    expectError(await api('GET', '/api/me', { token: login.body.access_token }), 401, 'UNAUTHENTICATED');
    expectError(await api('GET', '/api/convites', { token: login.body.access_token }), 401, 'UNAUTHENTICATED');
    expectError(
      await api('POST', '/auth/refresh', { body: { refresh_token: login.body.refresh_token } }),
      401,
      'INVALID_REFRESH_TOKEN',
    );
  });

  it('a BUSINESS_OWNER demoted through the API loses every administrator route at once, though its token still claims the role', async () => {
    const s = await loggedIn('BUSINESS_OWNER');
    expect((await api('GET', '/api/admin/users', { token: s.access })).status).toBe(200);
    expect(
      (await api('PATCH', `/api/admin/users/${s.id}/role`, { token: s.admin.token, body: { role: 'RESEARCHER' } }))
        .status,
    ).toBe(200);
    const claims = JSON.parse(atob(s.access.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/')));
    expect(claims.role).toBe('BUSINESS_OWNER');
    const adminOnly = protectedRoutes.filter((r) => !r.allowed.includes('RESEARCHER'));
    expect(adminOnly.length).toBeGreaterThan(20);
    const problems: string[] = [];
    for (const r of adminOnly) {
      const res = await api(r.method, r.path, { token: s.access, body: r.body });
      if (res.status !== 403 || res.body?.code !== 'FORBIDDEN')
        problems.push(`${r.method} ${r.path}: ${res.status} ${res.body?.code}`);
    }
    expect(problems).toEqual([]);
    // Its refresh token mints tokens of the stored role only.
    const refreshed = await api('POST', '/auth/refresh', { body: { refresh_token: s.refresh } });
    expect(refreshed.status).toBe(200);
    expect(JSON.parse(atob(refreshed.body.access_token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/'))).role).toBe(
      'RESEARCHER',
    );
  });

  it("a pending user's token works for GET /api/me and its own profile only: every other protected route is 403 ACCOUNT_PENDING", async () => {
    const reg = await api('POST', '/auth/register', {
      body: { email: `${uniq('pend')}@example.com`, senha: 'segredo123', nome: 'Pendente', role: 'profissional' },
    });
    expect(reg.status).toBe(201);
    const token = reg.body.access_token as string;
    const open = new Set(['GET /api/me', 'GET /api/users/me', 'POST /api/profissionais']);
    const problems: string[] = [];
    for (const r of protectedRoutes.filter((r) => !open.has(`${r.method} ${r.path}`))) {
      const res = await api(r.method, r.path, { token, body: r.body });
      if (res.status !== 403 || res.body?.code !== 'ACCOUNT_PENDING')
        problems.push(`${r.method} ${r.path}: ${res.status} ${res.body?.code}`);
    }
    expect(problems).toEqual([]);
    expect((await api('GET', '/api/me', { token })).status).toBe(200);
    expect((await api('POST', '/api/profissionais', { token, body: { nome: 'Meu perfil' } })).status).toBe(201);
  });
});

// ---------------------------------------------------------------------------------------------------
describe('API3 broken object-property authorization: mass assignment is ignored, private fields stay private', () => {
  const INJECTED_ID = '11111111-1111-4111-8111-111111111111';
  const INJECTED_TS = '2000-01-01T00:00:00.000Z';
  const INJECTED_HASH = 'pbkdf2-sha256$1$AAAAAAAAAAAAAAAAAAAAAA$BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB';

  const injection = (victim: string): Record<string, unknown> => ({
    ativo: true,
    role: 'SUPERADMIN',
    media: 4.75,
    usuario_id: victim,
    user_id: victim,
    regiao: 'MG',
    id: INJECTED_ID,
    created_at: INJECTED_TS,
    updated_at: INJECTED_TS,
    senha_hash: INJECTED_HASH,
    senhaHash: INJECTED_HASH,
  });

  /** The injected fields a route does not declare (a declared `role` is the route's business). */
  function withInjection(op: Operation, body: unknown, victim: string) {
    const declared = new Set(Object.keys(nonNull(op.body)?.properties ?? nonNull(op.body?.items)?.properties ?? {}));
    const extra = Object.fromEntries(Object.entries(injection(victim)).filter(([k]) => !declared.has(k)));
    if (Array.isArray(body)) return body.map((item) => ({ ...item, ...extra }));
    return { ...(body as object), ...extra };
  }

  const tables = [
    schema.users,
    schema.refreshTokens,
    schema.profissionais,
    schema.cadastroFot,
    schema.agenda,
    schema.precos,
    schema.convites,
    schema.notifications,
    schema.pushTokens,
    schema.empresas,
    schema.cursos,
    schema.anosFormaturas,
    schema.funcoes,
    schema.tiposServicos,
    schema.tiposEventos,
    schema.agendaEquipe,
  ] as const;

  /** Counts that no mass-assigned field may move. */
  async function invariants(victim: string) {
    const n = async (q: Promise<{ n: number }[]>) => (await q)[0]!.n;
    const out: Record<string, number> = {};
    for (const t of tables) {
      const cols = t as unknown as Record<string, unknown>;
      const name = getTableName(t);
      if ('id' in cols)
        out[`${name}.id=injected`] = await n(
          db
            .select({ n: count() })
            .from(t as typeof schema.cursos)
            .where(eq((t as typeof schema.cursos).id, INJECTED_ID)),
        );
      if ('createdAt' in cols)
        out[`${name}.created_at=injected`] = await n(
          db
            .select({ n: count() })
            .from(t as typeof schema.cursos)
            .where(eq((t as typeof schema.cursos).createdAt, INJECTED_TS)),
        );
      if ('regiao' in cols)
        out[`${name} in MG`] = await n(
          db
            .select({ n: count() })
            .from(t as typeof schema.cursos)
            .where(eq((t as typeof schema.cursos).regiao, 'MG')),
        );
    }
    out['users with the injected hash'] = await n(
      db.select({ n: count() }).from(schema.users).where(eq(schema.users.senhaHash, INJECTED_HASH)),
    );
    out.superadmins = await n(db.select({ n: count() }).from(schema.users).where(eq(schema.users.role, 'SUPERADMIN')));
    out['rows linked to the victim'] =
      (await n(
        db.select({ n: count() }).from(schema.profissionais).where(eq(schema.profissionais.usuarioId, victim)),
      )) +
      (await n(db.select({ n: count() }).from(schema.agenda).where(eq(schema.agenda.userId, victim)))) +
      (await n(db.select({ n: count() }).from(schema.notifications).where(eq(schema.notifications.userId, victim)))) +
      (await n(db.select({ n: count() }).from(schema.pushTokens).where(eq(schema.pushTokens.userId, victim)))) +
      (await n(db.select({ n: count() }).from(schema.refreshTokens).where(eq(schema.refreshTokens.userId, victim)))) +
      (await n(db.select({ n: count() }).from(schema.convites).where(eq(schema.convites.convidadoPor, victim))));
    return out;
  }

  it('every route with a body has a valid example in world.ts (so the suites below reach every handler)', () => {
    expect(bodyOps.filter((op) => validBody(opKey(op), w) === undefined).map(opKey)).toEqual([]);
  });

  it('ativo, role, media, usuario_id, user_id, regiao, id, created_at and senha_hash sent to EVERY write route change nothing', async () => {
    const victim = await makeUser({ role: 'RESEARCHER' });
    const before = await invariants(victim.id);
    const problems: string[] = [];
    const created: { op: string; body: Record<string, unknown> }[] = [];
    for (const op of bodyOps) {
      const caller = callerFor(op, w);
      const id = realIdFor(op.path, w.sp, w) ?? UNKNOWN_ID;
      const body = withInjection(op, validBody(opKey(op), w), victim.id);
      const res = await api(op.method, fill(op.path, id), { token: caller.token, body, headers: ipHeader() });
      // INVALID_RESET_TOKEN: world.ts's reset body names no live token (a 400 for a business reason).
      if ((res.status === 400 && res.body?.code !== 'INVALID_RESET_TOKEN') || res.status >= 500)
        problems.push(`${opKey(op)}: ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`);
      if (res.status < 300 && res.body && typeof res.body === 'object') created.push({ op: opKey(op), body: res.body });
    }
    expect(problems).toEqual([]);
    expect(await invariants(victim.id)).toEqual(before);
    for (const { op, body } of created) {
      const text = JSON.stringify(body);
      expect(text, op).not.toContain(INJECTED_ID);
      expect(text, op).not.toContain(INJECTED_TS);
      expect(text, op).not.toMatch(/pbkdf2|senha_hash|senhaHash/);
      if ('media' in body) expect(body.media, op).not.toBe(4.75);
      if ('regiao' in body) expect(body.regiao, op).toBe('SP');
    }
    // The account registered with ativo: true is pending all the same.
    const reg = created.find((c) => c.op === 'POST /auth/register')!;
    const [row] = await db
      .select()
      .from(schema.users)
      .where(eq(schema.users.id, reg.body.id as string));
    expect(row).toMatchObject({ ativo: false, role: 'profissional' });
  });

  it('the self-service writes of non-administrators ignore the same fields', async () => {
    const victim = await makeUser({ role: 'RESEARCHER' });
    const before = await invariants(victim.id);
    const inj = injection(victim.id);
    // PUT /api/me by a RESEARCHER.
    const r = await makeUser({ role: 'RESEARCHER' });
    expect((await api('PUT', '/api/me', { token: r.token, body: { ...inj, nome: 'Ainda Pesquisador' } })).status).toBe(
      200,
    );
    const [me] = await db.select().from(schema.users).where(eq(schema.users.id, r.id));
    expect(me).toMatchObject({ role: 'RESEARCHER', ativo: true, nome: 'Ainda Pesquisador' });
    expect(me!.senhaHash).not.toBe(INJECTED_HASH);
    // A pending professional creating its own profile: linked to itself, in the header's region, no ratings.
    const reg = await api('POST', '/auth/register', {
      body: { email: `${uniq('own')}@example.com`, senha: 'segredo123', nome: 'Novo', role: 'profissional' },
    });
    const own = await api('POST', '/api/profissionais', {
      token: reg.body.access_token,
      body: { ...inj, nome: 'Meu perfil', qual_tec: 5, desempenho_evento: 5 },
    });
    expect(own.status).toBe(201);
    expect(own.body).toMatchObject({
      usuario_id: reg.body.id,
      regiao: 'SP',
      qual_tec: null,
      desempenho_evento: null,
      media: null,
    });
    const [pending] = await db.select().from(schema.users).where(eq(schema.users.id, reg.body.id));
    expect(pending).toMatchObject({ ativo: false, role: 'profissional' });
    // A push token registered with someone else's user_id belongs to the caller.
    const token = `ExponentPushToken[${uniq()}]`;
    expect(
      (
        await api('POST', '/api/v1/notifications/push-token', {
          token: r.token,
          body: { ...inj, token, plataforma: 'web' },
        })
      ).status,
    ).toBe(201);
    expect((await db.select().from(schema.pushTokens).where(eq(schema.pushTokens.token, token)))[0]?.userId).toBe(r.id);
    // A professional answering its invitation cannot move it to another event, professional or function.
    const u = w.users.profissional;
    const answer = await api('PATCH', `/api/convites/${w.sp.convite.id}`, {
      token: u.token,
      body: {
        status: 'recusado',
        agenda_id: w.mg.agenda.id,
        profissional_id: w.mg.profissional.id,
        funcao_id: w.mg.funcao.id,
        convidado_por: victim.id,
      },
    });
    expect(answer.status).toBe(200);
    const [c] = await db.select().from(schema.convites).where(eq(schema.convites.id, w.sp.convite.id));
    expect(c).toMatchObject({
      agendaId: w.sp.agenda.id,
      profissionalId: w.sp.profissional.id,
      funcaoId: w.sp.funcao.id,
      convidadoPor: w.admin.id,
      status: 'recusado',
    });
    await db
      .update(schema.convites)
      .set({ status: 'pendente', respondidoEm: null })
      .where(eq(schema.convites.id, w.sp.convite.id));
    expect(await invariants(victim.id)).toEqual(before);
  });

  it('bank and document fields reach administrators and the professional itself only: no GET route shows them to anyone else', async () => {
    const secrets = ['Banco X', 'pix@example.com', '52998224725'];
    const otherProf = await makeUser({ role: 'profissional' });
    await makeProfissional('SP', { usuarioId: otherProf.id }, [w.sp.funcao.id]);
    // The other professional is on the same team, so it does see the event and its invitations' names.
    await insertConvite(
      w.sp.agenda.id,
      (await db.select().from(schema.profissionais).where(eq(schema.profissionais.usuarioId, otherProf.id)))[0]!.id,
      w.sp.funcao.id,
    );
    const outsiders: [string, string][] = [
      ['agenda_viewer (creator of the event)', w.users.agenda_viewer.token],
      ['EVENT_OWNER', w.users.EVENT_OWNER.token],
      ['RESEARCHER', w.users.RESEARCHER.token],
      ['another profissional', otherProf.token],
    ];
    const gets = ops.filter((o) => o.method === 'GET' && o.path.startsWith('/api/'));
    const leaks: string[] = [];
    for (const op of gets) {
      const path = fill(op.path, realIdFor(op.path, w.sp, w) ?? UNKNOWN_ID);
      for (const [who, token] of outsiders) {
        const res = await api('GET', path, { token });
        const text = JSON.stringify(res.body);
        for (const s of secrets) if (text.includes(s)) leaks.push(`${who}: GET ${path} shows ${s}`);
      }
    }
    expect(leaks).toEqual([]);
    // Positive controls: the administrator and the professional itself do see them.
    expect(
      JSON.stringify((await api('GET', `/api/profissionais/${w.sp.profissional.id}`, { token: w.admin.token })).body),
    ).toContain('pix@example.com');
    expect(JSON.stringify((await api('GET', '/api/me', { token: w.users.profissional.token })).body)).toContain(
      'pix@example.com',
    );
  });
});

// ---------------------------------------------------------------------------------------------------
describe('API4 unrestricted resource consumption: bodies, strings, arrays, numbers and pages are bounded', () => {
  // Login rate limit (5 per e-mail and per IP, 429 + Retry-After): auth.test.ts; under a burst of parallel
  // attempts: concurrency.test.ts.

  it('a body of 64 KiB + 1 byte is 413 PAYLOAD_TOO_LARGE on EVERY route with a body, before authentication', async () => {
    const big = `{"x":"${'a'.repeat(64 * 1024 - 7)}"}`;
    expect(big.length).toBe(64 * 1024 + 1);
    const problems: string[] = [];
    for (const op of bodyOps) {
      const path = fill(op.path, realIdFor(op.path, w.sp, w) ?? UNKNOWN_ID);
      const res = await api(op.method, path, { rawBody: big, headers: { 'content-type': 'application/json' } });
      if (res.status !== 413 || res.body?.code !== 'PAYLOAD_TOO_LARGE') problems.push(`${opKey(op)}: ${res.status}`);
    }
    expect(problems).toEqual([]);
  });

  it('counts the bytes of a streamed body without Content-Length too; exactly 64 KiB is not refused for its size', async () => {
    const chunk = new TextEncoder().encode(`{"nome":"${'a'.repeat(70 * 1024)}"}`);
    const stream = new ReadableStream({
      start(c) {
        for (let i = 0; i < chunk.length; i += 4096) c.enqueue(chunk.slice(i, i + 4096));
        c.close();
      },
    });
    const res = await createApp().request(
      '/api/cursos',
      {
        method: 'POST',
        body: stream,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${w.admin.token}` },
        duplex: 'half',
      } as RequestInit,
      env,
    );
    expect(res.status).toBe(413);
    const exact = `{"nome":"${'a'.repeat(64 * 1024 - 11)}"}`;
    expect(exact.length).toBe(64 * 1024);
    const atLimit = await api('POST', '/api/cursos', {
      token: w.admin.token,
      rawBody: exact,
      headers: { 'content-type': 'application/json' },
    });
    expectError(atLimit, 400, 'VALIDATION_FAILED');
  });

  /** Every string field of a body schema, with its dotted path (one level of nesting, array items). */
  function stringFields(s: JsonSchema | undefined, prefix = ''): { path: string; schema: JsonSchema }[] {
    const node = nonNull(s);
    if (!node) return [];
    if (typeOf(node) === 'array' && node.items) return stringFields(node.items, `${prefix}0.`);
    return Object.entries(node.properties ?? {}).flatMap(([k, v]) => {
      const t = typeOf(v);
      if (t === 'object' && prefix === '') return stringFields(v, `${k}.`);
      return t === 'string' ? [{ path: `${prefix}${k}`, schema: nonNull(v)! }] : [];
    });
  }

  function setPath(body: unknown, path: string, value: unknown) {
    const copy = structuredClone(body) as Record<string, unknown>;
    const parts = path.split('.');
    let cur: Record<string, unknown> = copy;
    for (const p of parts.slice(0, -1)) cur = (cur[p] ??= {}) as Record<string, unknown>;
    cur[parts.at(-1)!] = value;
    return copy;
  }

  it('EVERY string field of every body refuses one character over its maxLength (or 10,000 when it declares none) with 400 naming it', async () => {
    const problems: string[] = [];
    let checked = 0;
    for (const op of bodyOps) {
      const caller = callerFor(op, w);
      const path = fill(op.path, realIdFor(op.path, w.sp, w) ?? UNKNOWN_ID);
      for (const f of stringFields(op.body)) {
        const n = f.schema.maxLength !== undefined ? f.schema.maxLength + 1 : 10_000;
        const value = f.schema.format === 'email' ? `${'a'.repeat(n - 12)}@example.com` : 'a'.repeat(n);
        const res = await api(op.method, path, {
          token: caller.token,
          body: setPath(validBody(opKey(op), w), f.path, value),
          headers: ipHeader(),
        });
        checked++;
        if (
          res.status !== 400 ||
          res.body?.code !== 'VALIDATION_FAILED' ||
          !String(res.body?.error).startsWith(`${f.path}:`)
        ) {
          problems.push(`${opKey(op)} ${f.path} (${n} chars): ${res.status} ${JSON.stringify(res.body).slice(0, 100)}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });

  it('EVERY free-text string field of every body refuses NUL, BEL and bidirectional overrides with 400 naming it', async () => {
    const asTyped = new Set(['senha', 'nova_senha', 'senha_atual', 'refresh_token']); // secrets are taken as typed
    const problems: string[] = [];
    let checked = 0;
    for (const op of bodyOps) {
      const caller = callerFor(op, w);
      const path = fill(op.path, realIdFor(op.path, w.sp, w) ?? UNKNOWN_ID);
      for (const f of stringFields(op.body)) {
        if (asTyped.has(f.path) || f.schema.format || f.schema.enum) continue;
        for (const ch of ['\u0000', '\u0007', '\u202e']) {
          const res = await api(op.method, path, {
            token: caller.token,
            body: setPath(validBody(opKey(op), w), f.path, `ab${ch}cd`),
            headers: ipHeader(),
          });
          checked++;
          if (
            res.status !== 400 ||
            res.body?.code !== 'VALIDATION_FAILED' ||
            !String(res.body?.error).startsWith(`${f.path}:`)
          )
            problems.push(
              `${opKey(op)} ${f.path} U+${ch.codePointAt(0)!.toString(16)}: ${res.status} ${JSON.stringify(res.body).slice(0, 100)}`,
            );
        }
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });

  /** The array fields of a route's body schema (or the body itself when it is an array). */
  const bodyArrays = (op: (typeof bodyOps)[number]): { path: string; schema: JsonSchema }[] => {
    const root = nonNull(op.body)!;
    if (typeOf(root) === 'array') return [{ path: '', schema: root }];
    return Object.entries(root.properties ?? {})
      .filter(([, v]) => typeOf(v) === 'array')
      .map(([k, v]) => ({ path: k, schema: nonNull(v)! }));
  };

  it('EVERY array in a body declares maxItems and refuses one item more', async () => {
    const problems: string[] = [];
    let checked = 0;
    for (const op of bodyOps) {
      const caller = callerFor(op, w);
      const path = fill(op.path, realIdFor(op.path, w.sp, w) ?? UNKNOWN_ID);
      for (const a of bodyArrays(op)) {
        if (a.schema.maxItems === undefined) {
          problems.push(`${opKey(op)} ${a.path || '(body)'}: no maxItems`);
          continue;
        }
        const itemType = typeOf(a.schema.items);
        const items = Array.from({ length: a.schema.maxItems + 1 }, () =>
          itemType === 'object' ? { funcao_id: crypto.randomUUID(), quantidade: 1 } : crypto.randomUUID(),
        );
        const body = a.path ? setPath(validBody(opKey(op), w), a.path, items) : items;
        const res = await api(op.method, path, { token: caller.token, body });
        checked++;
        if (res.status !== 400 || res.body?.code !== 'VALIDATION_FAILED')
          problems.push(`${opKey(op)} ${a.path || '(body)'}: ${res.status} ${JSON.stringify(res.body)}`);
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(2);
  });

  it("EVERY array in a body accepts exactly maxItems real entries (no statement outgrows D1's 100 bound parameters)", async () => {
    const funcoes = await Promise.all(Array.from({ length: 40 }, () => makeCatalog(schema.funcoes, 'SP')));
    const problems: string[] = [];
    let checked = 0;
    for (const op of bodyOps) {
      const caller = callerFor(op, w);
      const path = fill(op.path, realIdFor(op.path, w.sp, w) ?? UNKNOWN_ID);
      for (const a of bodyArrays(op)) {
        const max = a.schema.maxItems ?? 0;
        const real = await realArrayCall(opKey(op), a.path, max, w);
        if (real) {
          const res = await api(op.method, real.path ?? path, { token: caller.token, body: real.body });
          checked++;
          if (res.status >= 300)
            problems.push(
              `${opKey(op)} ${a.path} with ${max} items: ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`,
            );
          continue;
        }
        if (max > funcoes.length)
          problems.push(`${opKey(op)} ${a.path}: maxItems ${max} is more than this test prepares`);
        const ids = funcoes.slice(0, max).map((f) => f.id);
        // Tax brackets (D18) are data, not references: max ascending brackets, the last open-ended.
        const items =
          a.path === 'irrf_faixas'
            ? Array.from({ length: max }, (_, i) => ({
                ate: i === max - 1 ? null : (i + 1) * 100,
                aliquota: i,
                deducao: 0,
              }))
            : typeOf(a.schema.items) === 'object'
              ? ids.map((funcao_id) => ({ funcao_id, quantidade: 1 }))
              : ids;
        const body = a.path ? { ...(validBody(opKey(op), w) as object), [a.path]: items } : items;
        const res = await api(op.method, path, { token: caller.token, body });
        checked++;
        if (res.status >= 300)
          problems.push(
            `${opKey(op)} ${a.path || '(body)'} with ${max} items: ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`,
          );
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(2);
  });

  it('EVERY number in a body declares a maximum and refuses the next integer', async () => {
    const problems: string[] = [];
    let checked = 0;
    for (const op of bodyOps) {
      const caller = callerFor(op, w);
      const path = fill(op.path, realIdFor(op.path, w.sp, w) ?? UNKNOWN_ID);
      const root = nonNull(op.body)!;
      const fields =
        typeOf(root) === 'array'
          ? Object.entries(nonNull(root.items)?.properties ?? {}).map(([k, v]) => [`0.${k}`, v] as const)
          : Object.entries(root.properties ?? {});
      for (const [name, v] of fields) {
        const s = nonNull(v)!;
        const t = typeOf(s);
        if (t !== 'number' && t !== 'integer') continue;
        if (s.maximum === undefined || s.maximum > Number.MAX_SAFE_INTEGER / 2) {
          problems.push(`${opKey(op)} ${name}: no real maximum (${s.maximum})`);
          continue;
        }
        const base = validBody(opKey(op), w);
        const body = Array.isArray(base)
          ? [{ ...base[0], [name.slice(2)]: Math.floor(s.maximum) + 1 }]
          : { ...(base as object), [name]: Math.floor(s.maximum) + 1 };
        const res = await api(op.method, path, { token: caller.token, body });
        checked++;
        if (res.status !== 400 || res.body?.code !== 'VALIDATION_FAILED')
          problems.push(`${opKey(op)} ${name}=${Math.floor(s.maximum) + 1}: ${res.status}`);
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(20);
  });

  it('EVERY list with a `limit` declares its maximum: maximum + 1 and 10^9 are 400, the maximum itself is served', async () => {
    const lists = ops.filter((o) => o.method === 'GET' && o.queryParams.some((p) => p.name === 'limit'));
    expect(lists.length).toBeGreaterThan(5);
    const problems: string[] = [];
    for (const op of lists) {
      const limit = nonNull(op.queryParams.find((p) => p.name === 'limit')!.schema)!;
      if (limit.maximum === undefined) {
        problems.push(`${opKey(op)}: limit has no maximum`);
        continue;
      }
      const caller = callerFor(op, w);
      const query = requiredQuery(op, w.sp);
      const path = `${fill(op.path, realIdFor(op.path, w.sp, w) ?? UNKNOWN_ID)}?${query ? `${query}&` : ''}`;
      for (const value of [limit.maximum + 1, 1e9]) {
        const res = await api('GET', `${path}limit=${value}`, { token: caller.token });
        if (res.status !== 400 || res.body?.code !== 'VALIDATION_FAILED')
          problems.push(`${opKey(op)} limit=${value}: ${res.status}`);
      }
      const ok = await api('GET', `${path}limit=${limit.maximum}`, { token: caller.token });
      if (ok.status !== 200) problems.push(`${opKey(op)} limit=${limit.maximum}: ${ok.status}`);
    }
    expect(problems).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------
describe('API5 broken function-level authorization', () => {
  // Every protected route × every role (401/403, and that allowed roles pass): route-auth.test.ts, driven by
  // test/helpers/protected-routes.ts. Here: that table cannot miss a route.

  it('EVERY route of /openapi.json that declares BearerAuth is in protected-routes.ts, and nothing else is', () => {
    const documented = new Set(ops.filter((o) => o.secured).map(opKey));
    const tabled = new Set(protectedRoutes.map((r) => `${r.method} ${r.path.replaceAll(UNKNOWN_ID, '{id}')}`));
    expect(
      [...documented].filter((k) => !tabled.has(k)).sort(),
      'missing from test/helpers/protected-routes.ts',
    ).toEqual([]);
    expect([...tabled].filter((k) => !documented.has(k)).sort(), 'in the table but not a BearerAuth route').toEqual([]);
  });

  it('the routes without BearerAuth are exactly the public ones, and they answer without a token', async () => {
    const open = ops
      .filter((o) => !o.secured)
      .map(opKey)
      .sort();
    expect(open).toEqual([
      'GET /api/funcoes',
      'GET /health',
      // The calendar feed: the url's token is the credential (docs/decisions.md#d16).
      'GET /ical/{token}.ics',
      'GET /p/pesquisas/{token}',
      // Meta's WhatsApp subscription handshake: its verify token is the credential (D30).
      'GET /webhooks/whatsapp',
      'POST /auth/forgot-password',
      'POST /auth/login',
      'POST /auth/logout',
      'POST /auth/refresh',
      'POST /auth/register',
      'POST /auth/reset-password',
      'POST /p/pesquisas/{token}/respostas',
      'POST /webhooks/mercadopago',
      // Meta's WhatsApp webhook: the body's signature is the credential (D30).
      'POST /webhooks/whatsapp',
    ]);
  });
});

// ---------------------------------------------------------------------------------------------------
describe('API6 unrestricted access to sensitive business flows', () => {
  // The last quota place under 20 concurrent acceptances: convites.test.ts; double booking under
  // concurrency, one account per e-mail: concurrency.test.ts.

  it('a pending user cannot approve itself, not even after being given an administrator role', async () => {
    const reg = await api('POST', '/auth/register', {
      body: { email: `${uniq('self')}@example.com`, senha: 'segredo123', nome: 'Apressado', role: 'profissional' },
    });
    const { id, access_token: token } = reg.body;
    expectError(await api('PATCH', `/api/admin/users/${id}/approve`, { token }), 403, 'ACCOUNT_PENDING');
    // An administrator sets the role before approving: the account is still pending.
    const admin = await makeAdmin();
    expect(
      (await api('PATCH', `/api/admin/users/${id}/role`, { token: admin.token, body: { role: 'BUSINESS_OWNER' } }))
        .status,
    ).toBe(200);
    expectError(await api('PATCH', `/api/admin/users/${id}/approve`, { token }), 403, 'ACCOUNT_PENDING');
    expectError(
      await api('PATCH', `/api/admin/users/${id}/role`, { token, body: { role: 'SUPERADMIN' } }),
      403,
      'ACCOUNT_PENDING',
    );
    const [row] = await db.select().from(schema.users).where(eq(schema.users.id, id));
    expect(row).toMatchObject({ ativo: false, role: 'BUSINESS_OWNER' });
    expect((await api('GET', '/api/me', { token })).status).toBe(200);
  });

  it('a pending account with an administrator role cannot use the administrator side of POST /api/profissionais (team registration)', async () => {
    const pending = await makeUser({ role: 'BUSINESS_OWNER', ativo: false });
    const email = `${uniq('intruso')}@example.com`;
    expectError(
      await api('POST', '/api/profissionais', {
        token: pending.token,
        body: { nome: 'Intruso', email, senha: 'segredo123' },
      }),
      403,
      'ACCOUNT_PENDING',
    );
    expect(await db.select().from(schema.users).where(eq(schema.users.email, email))).toEqual([]);
    expect(await db.select().from(schema.profissionais).where(eq(schema.profissionais.email, email))).toEqual([]);
  });

  it('only a SUPERADMIN activates a pending SUPERADMIN account: a BUSINESS_OWNER approving it is 403 and changes nothing', async () => {
    const sa = await makeAdmin();
    const bo = await makeUser({ role: 'BUSINESS_OWNER' });
    const pending = await makeUser({ role: 'RESEARCHER', ativo: false });
    expect(
      (await api('PATCH', `/api/admin/users/${pending.id}/role`, { token: sa.token, body: { role: 'SUPERADMIN' } }))
        .status,
    ).toBe(200);
    expectError(await api('PATCH', `/api/admin/users/${pending.id}/approve`, { token: bo.token }), 403, 'FORBIDDEN');
    const [row] = await db.select().from(schema.users).where(eq(schema.users.id, pending.id));
    expect(row).toMatchObject({ ativo: false, role: 'SUPERADMIN' });
    const approvals = await db
      .select()
      .from(schema.notifications)
      .where(and(eq(schema.notifications.userId, pending.id), eq(schema.notifications.tipo, 'conta_aprovada')));
    expect(approvals).toEqual([]);
    expectError(await api('PATCH', `/api/admin/users/${UNKNOWN_ID}/approve`, { token: bo.token }), 404, 'NOT_FOUND');
    expect((await api('PATCH', `/api/admin/users/${pending.id}/approve`, { token: sa.token })).status).toBe(200);
  });

  it('nobody promotes themselves, and only a SUPERADMIN makes a SUPERADMIN', async () => {
    const problems: string[] = [];
    for (const role of ROLES.filter((r) => r !== 'SUPERADMIN')) {
      const u = await makeUser({ role });
      for (const target of ['SUPERADMIN', 'BUSINESS_OWNER'] as const) {
        const res = await api('PATCH', `/api/admin/users/${u.id}/role`, { token: u.token, body: { role: target } });
        if (res.status !== 403 || res.body?.code !== 'FORBIDDEN') problems.push(`${role} → ${target}: ${res.status}`);
      }
      await api('PUT', '/api/me', { token: u.token, body: { role: 'SUPERADMIN', ativo: true } });
      const [row] = await db.select({ role: schema.users.role }).from(schema.users).where(eq(schema.users.id, u.id));
      if (row?.role !== role) problems.push(`${role} became ${row?.role}`);
    }
    expect(problems).toEqual([]);
    const bo = await makeUser({ role: 'BUSINESS_OWNER' });
    const colleague = await makeUser({ role: 'RESEARCHER' });
    expectError(
      await api('PATCH', `/api/admin/users/${colleague.id}/role`, { token: bo.token, body: { role: 'SUPERADMIN' } }),
      403,
      'FORBIDDEN',
    );
    const create = await api('POST', '/api/admin/users', {
      token: bo.token,
      body: { email: `${uniq('sa')}@example.com`, senha: 'segredo123', nome: 'Novo SA', role: 'SUPERADMIN' },
    });
    expectError(create, 403, 'FORBIDDEN');
    expectError(
      await api('POST', '/auth/register', {
        body: { email: `${uniq('sa')}@example.com`, senha: 'segredo123', nome: 'SA', role: 'SUPERADMIN' },
      }),
      400,
      'ROLE_NOT_ALLOWED',
    );
    const [c] = await db
      .select({ role: schema.users.role })
      .from(schema.users)
      .where(eq(schema.users.id, colleague.id));
    expect(c?.role).toBe('RESEARCHER');
  });
  // A professional rating itself (ratings dropped from its own writes): profissionais.test.ts and auth.test.ts (PUT /api/me).
});

// ---------------------------------------------------------------------------------------------------
describe('API7 server-side request forgery: the server fetches no URL a request names', () => {
  it("no request field, query parameter or header is a URL to fetch (avatar_url, a rule's fonte_url: stored and echoed, never fetched)", () => {
    const urlish = /url|uri|endpoint|callback|webhook|host|link|redirect/i;
    const found = new Set<string>();
    const walk = (s: JsonSchema | undefined, path: string) => {
      const node = nonNull(s);
      if (!node) return;
      if (node.format === 'uri' || node.format === 'url') found.add(path);
      for (const [k, v] of Object.entries(node.properties ?? {})) {
        if (urlish.test(k)) found.add(k);
        walk(v, k);
      }
      if (node.items) walk(node.items, path);
    };
    for (const op of ops) {
      walk(op.body, '(body)');
      for (const p of op.queryParams) if (urlish.test(p.name)) found.add(p.name);
    }
    expect([...found].sort()).toEqual(['avatar_url', 'fonte_url']);
  });

  it('requests carrying URLs in every string field never make the worker fetch', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const app = createApp();
    const evil = 'http://169.254.169.254/latest/meta-data/iam';
    try {
      for (const op of bodyOps) {
        const body = validBody(opKey(op), w);
        const poisoned = Array.isArray(body)
          ? body
          : Object.fromEntries(
              Object.entries(body as object).map(([k, v]) => [
                k,
                typeof v === 'string' && !/_id$|^email$|^senha|^role$|^plataforma$|^status$|^data_/.test(k) ? evil : v,
              ]),
            );
        const extra = op.path.startsWith('/api/profissionais')
          ? { avatar_url: evil }
          : op.path === '/api/me'
            ? { profissional: { avatar_url: evil } }
            : {};
        const path = fill(op.path, realIdFor(op.path, w.sp, w) ?? UNKNOWN_ID);
        const res = await app.request(
          path,
          {
            method: op.method,
            headers: {
              authorization: `Bearer ${callerFor(op, w).token}`,
              'content-type': 'application/json',
              'x-regiao': 'SP',
            },
            body: JSON.stringify(Array.isArray(poisoned) ? poisoned : { ...poisoned, ...extra }),
          },
          env,
        );
        expect(res.status, opKey(op)).toBeLessThan(500);
      }
      expect(fetchSpy).not.toHaveBeenCalled();
    } finally {
      fetchSpy.mockRestore();
    }
  });

  it('the push consumer posts to PUSH_ENDPOINT only, whatever the tokens and notification data hold', async () => {
    const u = await makeUser();
    const evilToken = 'https://evil.example/collect';
    await db.insert(schema.pushTokens).values({ userId: u.id, token: evilToken, plataforma: 'web' });
    const note = await insertNotification(u.id);
    const calls: string[] = [];
    const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
      calls.push(String(input));
      const sent = JSON.parse(String(init?.body)) as unknown[];
      return Response.json({ data: sent.map(() => ({ status: 'ok', id: 'x' })) });
    }) as typeof fetch;
    const body: PushMessage = {
      userId: u.id,
      notificationId: note.id,
      titulo: 'http://evil.example/t',
      mensagem: 'http://evil.example/m',
      dados: { url: 'http://169.254.169.254/', endpoint: 'http://evil.example/e' },
    };
    const batch = createMessageBatch<PushMessage>('event-ops-push', [
      { id: 'm1', timestamp: new Date(), attempts: 1, body },
    ] as never);
    const endpoint = 'https://push.example.test/--/api/v2/push/send';
    await handlePushBatch(batch, { ...env, PUSH_ENDPOINT: endpoint }, fetchImpl);
    await getQueueResult(batch, createExecutionContext());
    expect(calls).toEqual([endpoint]);
    // A non-https endpoint in configuration is refused outright (notifications.test.ts covers the rule).
  });
});

// ---------------------------------------------------------------------------------------------------
describe('API8 security misconfiguration', () => {
  const SECURITY_HEADERS = [
    'x-content-type-options',
    'x-frame-options',
    'strict-transport-security',
    'referrer-policy',
  ];

  it('every kind of error answer carries the security headers and the D2 JSON shape', async () => {
    const locked = await makeUser();
    const lockedClient = ipHeader(); // failures count per (e-mail, client)
    for (let i = 0; i < 5; i++)
      await api('POST', '/auth/login', {
        body: { email: locked.email, senha: 'wrong-password' },
        headers: lockedClient,
      });
    const broken = { ...env, DB: brokenD1() };
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const cases: [string, () => Response | Promise<Response>][] = [
      ['400 INVALID_JSON', () => raw('POST', '/api/cursos', '{"nome":', w.admin.token)],
      ['400 INVALID_ID', () => raw('GET', '/api/cadastro-fot/not-a-uuid', undefined, w.admin.token)],
      ['400 INVALID_REGION', () => raw('GET', '/api/cursos', undefined, w.admin.token, { 'x-regiao': 'XX' })],
      ['401', () => raw('GET', '/api/me')],
      ['403', () => raw('GET', '/api/admin/users', undefined, w.users.RESEARCHER.token)],
      ['404 route', () => raw('GET', '/nope')],
      ['404 id', () => raw('GET', `/api/cadastro-fot/${UNKNOWN_ID}`, undefined, w.admin.token)],
      [
        '409',
        () =>
          raw(
            'POST',
            '/api/agenda/' + w.sp.agenda.id + '/convites',
            JSON.stringify({ profissional_id: w.sp.profissional.id, funcao_id: w.sp.funcao.id }),
            w.admin.token,
          ),
      ],
      ['413', () => raw('POST', '/api/cursos', `{"nome":"${'a'.repeat(70_000)}"}`, w.admin.token)],
      [
        '429',
        () =>
          raw('POST', '/auth/login', JSON.stringify({ email: locked.email, senha: PASSWORD }), undefined, lockedClient),
      ],
      ['500', () => createApp().request('/api/me', { headers: { authorization: `Bearer ${w.admin.token}` } }, broken)],
    ];
    const problems: string[] = [];
    for (const [name, send] of cases) {
      const res = await send();
      const text = await res.text();
      if (String(res.status) !== name.slice(0, 3)) problems.push(`${name}: got ${res.status} ${text.slice(0, 80)}`);
      for (const h of SECURITY_HEADERS) if (!res.headers.get(h)) problems.push(`${name}: no ${h}`);
      if (res.headers.get('x-content-type-options') !== 'nosniff') problems.push(`${name}: nosniff missing`);
      if (!res.headers.get('content-type')?.startsWith('application/json'))
        problems.push(`${name}: content-type ${res.headers.get('content-type')}`);
      const shape = shapeProblem({ status: res.status, body: JSON.parse(text), headers: res.headers });
      if (shape) problems.push(`${name}: ${shape}`);
    }
    log.mockRestore();
    expect(problems).toEqual([]);
  });

  it('CORS answers an unknown, a look-alike or a null Origin without Access-Control-Allow-Origin; an allowed one with credentials', async () => {
    for (const origin of [
      'https://evil.example',
      'https://app.example.com.evil.example',
      'http://app.example.com',
      'null',
      'https://APP.example.com',
    ]) {
      for (const res of [
        await raw('GET', '/api/me', undefined, w.admin.token, { origin }),
        await raw('OPTIONS', '/api/me', undefined, undefined, { origin, 'access-control-request-method': 'DELETE' }),
      ]) {
        // Without a matching Allow-Origin the browser hands nothing to the page (Allow-Credentials alone is inert).
        expect(res.headers.get('access-control-allow-origin'), origin).toBeNull();
      }
    }
    const ok = await raw('GET', '/api/me', undefined, w.admin.token, { origin: 'https://app.example.com' });
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(ok.headers.get('access-control-allow-credentials')).toBe('true');
    expect(ok.headers.get('vary')?.toLowerCase()).toContain('origin');
  });

  it('session cookies stay Secure when SameSite=None is configured, even with COOKIE_SECURE=false', async () => {
    const u = await makeUser();
    const res = await createApp().request(
      '/auth/login',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...ipHeader() },
        body: JSON.stringify({ email: u.email, senha: u.password }),
      },
      { ...env, COOKIE_SAMESITE: 'None', COOKIE_SECURE: 'false' },
    );
    expect(res.status).toBe(200);
    const c = cookies(res.headers);
    for (const name of ['access_token', 'refresh_token'])
      expect(c[name]?.attrs, name).toEqual(expect.arrayContaining(['httponly', 'secure', 'samesite=none']));
  });

  it('EVERY route answers a failing database with exactly {"error":"erro interno","code":"INTERNAL"}: no stack, SQL or message', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const app = createApp();
    const problems: string[] = [];
    let fiveHundreds = 0;
    for (const op of ops) {
      const path = fill(op.path, realIdFor(op.path, w.sp, w) ?? UNKNOWN_ID);
      const body = validBody(opKey(op), w);
      const res = await app.request(
        path,
        {
          method: op.method,
          headers: { authorization: `Bearer ${callerFor(op, w).token}`, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        },
        { ...env, DB: brokenD1() },
      );
      const text = await res.text();
      if (res.status === 500) {
        fiveHundreds++;
        if (text !== '{"error":"erro interno","code":"INTERNAL"}') problems.push(`${opKey(op)}: ${text.slice(0, 120)}`);
      } else if (op.secured || res.status > 500) {
        problems.push(`${opKey(op)}: ${res.status} (a protected route reads the user from D1 first, so it must fail)`);
      }
      if (/senha_hash|pbkdf2|D1_ERROR|select |\bat \w+ \(/i.test(text))
        problems.push(`${opKey(op)} leaks: ${text.slice(0, 120)}`);
    }
    log.mockRestore();
    expect(problems).toEqual([]);
    expect(fiveHundreds).toBeGreaterThanOrEqual(ops.filter((o) => o.secured).length);
  });
});

/** A D1 binding whose every call fails with a message full of things that must never reach a client. */
function brokenD1(): D1Database {
  const message =
    "D1_ERROR: no such column: senha_hash in select senha_hash from users where email = 'victim@example.com' -- pbkdf2-sha256$100000$c2FsdA$aGFzaA";
  const fail = () =>
    Promise.reject(
      Object.assign(new Error(message), { stack: `Error: ${message}\n    at secretFunction (internal.js:1:1)` }),
    );
  const stmt: Record<string, unknown> = {};
  Object.assign(stmt, { bind: () => stmt, all: fail, run: fail, first: fail, raw: fail });
  return { prepare: () => stmt, batch: fail, exec: fail, dump: fail } as unknown as D1Database;
}

async function raw(method: string, path: string, body?: string, token?: string, headers: Record<string, string> = {}) {
  const h: Record<string, string> = { ...headers };
  if (token) h.authorization = `Bearer ${token}`;
  if (body !== undefined) h['content-type'] ??= 'application/json';
  return send(method, path, { headers: h, body });
}

// ---------------------------------------------------------------------------------------------------
describe('API9 improper inventory management', () => {
  // /openapi.json against the routes the app serves, both ways, and BearerAuth on every non-public route:
  // app.test.ts ("lists exactly the routes the app serves ..."). Here: the document's routes all answer JSON.
  it('no documented route answers HTML or an empty error body', async () => {
    const problems: string[] = [];
    for (const op of ops) {
      const res = await raw(op.method, fill(op.path, 'not-a-uuid'), op.body ? '{}' : undefined, callerFor(op, w).token);
      if (res.status >= 400 && !res.headers.get('content-type')?.includes('application/json'))
        problems.push(`${opKey(op)}: ${res.status} ${res.headers.get('content-type')}`);
      await res.body?.cancel();
    }
    expect(problems).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------
describe('API10 unsafe consumption of APIs', () => {
  // The push provider's answers are parsed with a schema (ExpoAnswer) before anything is done with them; a
  // malformed answer is logged and acknowledged, never retried forever: notifications.test.ts ("logs a
  // malformed answer ...", "deletes a token the provider reports as DeviceNotRegistered ..."). Here: a hostile
  // answer cannot make the consumer delete tokens it did not send, or any token at all when it is malformed.
  async function runWith(answer: (sent: { to: string }[]) => Response) {
    const u = await makeUser();
    const mine = `ExponentPushToken[${uniq('mine')}]`;
    const bystander = await makeUser();
    const theirs = `ExponentPushToken[${uniq('theirs')}]`;
    await db.insert(schema.pushTokens).values([
      { userId: u.id, token: mine, plataforma: 'android' },
      { userId: bystander.id, token: theirs, plataforma: 'android' },
    ]);
    const note = await insertNotification(u.id);
    const fetchImpl = (async (_: RequestInfo | URL, init?: RequestInit) =>
      answer(JSON.parse(String(init?.body)))) as typeof fetch;
    const body: PushMessage = { userId: u.id, notificationId: note.id, titulo: 't', mensagem: 'm', dados: {} };
    const batch = createMessageBatch<PushMessage>('event-ops-push', [
      { id: 'm1', timestamp: new Date(), attempts: 1, body },
    ] as never);
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await handlePushBatch(batch, { ...env, PUSH_ENDPOINT: 'https://push.example.test/send' }, fetchImpl);
    const result = await getQueueResult(batch, createExecutionContext());
    log.mockRestore();
    warn.mockRestore();
    const left = (
      await db
        .select()
        .from(schema.pushTokens)
        .where(inArray(schema.pushTokens.token, [mine, theirs]))
    )
      .map((t) => t.token)
      .sort();
    return { left, result, mine, theirs };
  }

  const cases: [string, (sent: { to: string }[]) => Response, 'both' | 'theirs'][] = [
    [
      'more tickets than messages, all DeviceNotRegistered',
      (sent) =>
        Response.json({
          data: [...sent, ...sent].map(() => ({ status: 'error', details: { error: 'DeviceNotRegistered' } })),
        }),
      'both',
    ],
    ['not JSON', () => new Response('<html>DeviceNotRegistered</html>', { status: 200 }), 'both'],
    [
      'a status outside ok/error',
      () => Response.json({ data: [{ status: 'DeviceNotRegistered', details: { error: 'DeviceNotRegistered' } }] }),
      'both',
    ],
    [
      'details of the wrong type',
      () => Response.json({ data: [{ status: 'error', details: 'DeviceNotRegistered' }] }),
      'both',
    ],
    [
      'an error ticket with a 200 kB message',
      () => Response.json({ data: [{ status: 'error', message: 'x'.repeat(200_000) }] }),
      'both',
    ],
    // Well formed: the token that was sent (and only it) goes, whatever else the ticket names.
    [
      'a ticket naming another token',
      () =>
        Response.json({
          data: [
            { status: 'error', details: { error: 'DeviceNotRegistered', expoPushToken: 'ExponentPushToken[theirs]' } },
          ],
        }),
      'theirs',
    ],
  ];

  it.each(cases)(
    'answer with %s: only a well-formed ticket removes the token it answers; nothing is retried forever',
    async (_name, answer, expected) => {
      const { left, result, mine, theirs } = await runWith(answer);
      expect(left).toEqual(expected === 'both' ? [mine, theirs].sort() : [theirs]);
      expect(result.retryMessages).toEqual([]);
    },
  );
});
