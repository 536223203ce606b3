import { env } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { sign } from 'hono/jwt';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { users } from '../../src/db/schema';
import { auth } from '../../src/middleware/auth';
import * as fot from '../../src/routes/records/cadastro-fot.routes';
import { foldedHandler, handler } from '../../src/routes/route';
import { db, makeAdmin, makeEmpresa, makeFot, makeUser, sessionOf, tokenFor } from '../helpers/factories';
import { api, authHeaders, expectError } from '../helpers/request';

/**
 * Folded authentication (auth({ fold: true }) on the hot reads): the user row is read in the
 * route's own batch and the query is built from the token's role and company. These tests change
 * the stored user after the token was signed and check that the stored user always decides.
 */

const setUser = (id: string, set: Partial<typeof users.$inferInsert>) =>
  db.update(users).set(set).where(eq(users.id, id));

/** Two companies in MG, one FOT record each. */
async function twoCompanies() {
  const [e1, e2] = [await makeEmpresa('MG'), await makeEmpresa('MG')];
  const [f1, f2] = [await makeFot('MG', { empresaId: e1.id }), await makeFot('MG', { empresaId: e2.id })];
  return { e1, e2, f1, f2 };
}

async function fotIds(token: string) {
  const res = await api('GET', '/api/cadastro-fot', {
    headers: authHeaders(token, { 'x-regiao': 'MG' }),
    countQueries: true,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { ids: new Set((res.body as { id: string }[]).map((r) => r.id)), roundTrips: res.roundTrips };
}

describe('folded authentication: the stored user decides, not the token', () => {
  it('a token matching the stored user costs one round trip', async () => {
    const { e1, f1, f2 } = await twoCompanies();
    const owner = await makeUser({ role: 'EVENT_OWNER', empresaId: e1.id });
    const { ids, roundTrips } = await fotIds(owner.token);
    expect(ids.has(f1.id)).toBe(true);
    expect(ids.has(f2.id)).toBe(false);
    expect(roundTrips).toBe(1);
  });

  it('an administrator demoted to EVENT_OWNER after signing sees only its company', async () => {
    const { e1, f1, f2 } = await twoCompanies();
    const admin = await makeAdmin();
    await setUser(admin.id, { role: 'EVENT_OWNER', empresaId: e1.id });
    const { ids, roundTrips } = await fotIds(admin.token);
    expect(ids.has(f1.id)).toBe(true);
    expect(ids.has(f2.id)).toBe(false);
    expect(roundTrips).toBe(2); // the stale guess is thrown away and the list read again
  });

  it('an EVENT_OWNER promoted after signing sees the whole region', async () => {
    const { e1, f1, f2 } = await twoCompanies();
    const owner = await makeUser({ role: 'EVENT_OWNER', empresaId: e1.id });
    await setUser(owner.id, { role: 'BUSINESS_OWNER', empresaId: null });
    const { ids } = await fotIds(owner.token);
    expect(ids.has(f1.id) && ids.has(f2.id)).toBe(true);
  });

  it('an EVENT_OWNER moved to another company sees the new company only', async () => {
    const { e1, e2, f1, f2 } = await twoCompanies();
    const owner = await makeUser({ role: 'EVENT_OWNER', empresaId: e1.id });
    await setUser(owner.id, { empresaId: e2.id });
    const { ids } = await fotIds(owner.token);
    expect(ids.has(f2.id)).toBe(true);
    expect(ids.has(f1.id)).toBe(false);
  });

  it('a token without the company claim (signed before it existed) still gets the right scope', async () => {
    const { e1, f1, f2 } = await twoCompanies();
    const owner = await makeUser({ role: 'EVENT_OWNER', empresaId: e1.id });
    const iat = Math.floor(Date.now() / 1000);
    const legacy = await sign(
      { sub: owner.id, role: 'EVENT_OWNER', sid: sessionOf(owner.token), iat, exp: iat + 900 },
      env.JWT_SECRET,
      'HS256',
    );
    const { ids } = await fotIds(legacy);
    expect(ids.has(f1.id)).toBe(true);
    expect(ids.has(f2.id)).toBe(false);
  });

  it('a token whose role may not read, for a user who now may, is let through by the stored role', async () => {
    const user = await makeUser({ role: 'RESEARCHER' });
    await setUser(user.id, { role: 'SUPERADMIN' });
    expect((await api('GET', '/api/cadastro-fot?limit=1', { token: user.token })).status).toBe(200);
    expect((await api('GET', '/api/agenda?limit=1', { token: user.token })).status).toBe(200);
  });

  it('a token whose role may read, for a user who now may not, is refused by the stored role', async () => {
    const admin = await makeAdmin();
    await setUser(admin.id, { role: 'RESEARCHER' });
    for (const path of ['/api/cadastro-fot', '/api/agenda', '/api/profissionais', '/api/profissionais/contagem']) {
      expectError(await api('GET', path, { token: admin.token }), 403, 'FORBIDDEN');
    }
  });

  it('a user whose account was set back to pending is refused with ACCOUNT_PENDING', async () => {
    const admin = await makeAdmin();
    await setUser(admin.id, { ativo: false });
    for (const path of [
      '/api/cadastro-fot',
      '/api/agenda',
      '/api/profissionais',
      '/api/cursos',
      '/api/tipos-eventos',
    ]) {
      expectError(await api('GET', path, { token: admin.token }), 403, 'ACCOUNT_PENDING');
    }
  });

  it('a deleted user gets 401 even where the request itself is invalid', async () => {
    const admin = await makeAdmin();
    const fot = await makeFot('SP');
    await db.delete(users).where(eq(users.id, admin.id));
    for (const path of [
      '/api/cadastro-fot',
      `/api/cadastro-fot/${fot.id}`,
      '/api/agenda',
      '/api/profissionais',
      '/api/cursos',
      '/api/tipos-eventos',
    ]) {
      expectError(await api('GET', path, { token: admin.token }), 401, 'UNAUTHENTICATED');
    }
    // A validation or region error must not answer before the user row: it would tell a stale token apart.
    expectError(await api('GET', '/api/cadastro-fot?limit=0', { token: admin.token }), 401, 'UNAUTHENTICATED');
    expectError(await api('GET', '/api/agenda?de=yesterday', { token: admin.token }), 401, 'UNAUTHENTICATED');
    expectError(await api('GET', '/api/cadastro-fot/not-a-uuid', { token: admin.token }), 401, 'UNAUTHENTICATED');
    expectError(await api('GET', '/api/cursos', { token: admin.token, regiao: 'XX' }), 401, 'UNAUTHENTICATED');
  });

  it('a live user still gets the validation, id and region errors of a folded route', async () => {
    const admin = await makeAdmin();
    expectError(await api('GET', '/api/cadastro-fot?limit=0', { token: admin.token }), 400, 'VALIDATION_FAILED');
    expectError(await api('GET', '/api/cadastro-fot/not-a-uuid', { token: admin.token }), 400, 'INVALID_ID');
    expectError(await api('GET', '/api/cursos', { token: admin.token, regiao: 'XX' }), 400, 'INVALID_REGION');
    expectError(await api('GET', `/api/cadastro-fot/${crypto.randomUUID()}`, { token: admin.token }), 404, 'NOT_FOUND');
  });
});

describe('folded authentication: the guard rails', () => {
  const app = createApp();
  // A handler that forgets authorizedBatch(): it must never answer 2xx.
  app.get('/__probe/forgetful', auth({ fold: true }), (c) => c.json({ ok: true }));
  // A folded write that forgets authorizedWrite(): it must never answer 2xx either.
  app.post('/__probe/write', auth({ fold: true }), (c) => c.json({ ok: true }, 201));

  it('a folded read that never reads the user answers 500, not its body', async () => {
    const admin = await makeAdmin();
    const res = await app.request('/__probe/forgetful', { headers: authHeaders(admin.token) }, env);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: 'erro interno', code: 'INTERNAL' });
  });

  it('a folded read that never reads the user still answers 401 to a deleted user', async () => {
    const gone = await tokenFor(crypto.randomUUID(), 'SUPERADMIN');
    const res = await app.request('/__probe/forgetful', { headers: authHeaders(gone) }, env);
    expect(res.status).toBe(401);
  });

  it('a folded write that never calls write() answers 500, and a pending user still 403', async () => {
    const admin = await makeAdmin();
    const ok = await app.request('/__probe/write', { method: 'POST', headers: authHeaders(admin.token) }, env);
    expect(ok.status).toBe(500);
    await setUser(admin.id, { ativo: false });
    const pending = await app.request('/__probe/write', { method: 'POST', headers: authHeaders(admin.token) }, env);
    expect(pending.status).toBe(403);
  });
});

describe('folded authentication: a route and its handler cannot disagree', () => {
  it('is checked by the compiler: a folded route takes only a foldedHandler(), a plain route only a handler()', () => {
    // @ts-expect-error GET /api/cadastro-fot is declared with fold: true, so a plain handler() is refused
    const plain = handler(fot.list, async (c) => c.json([], 200));
    // @ts-expect-error PUT /api/cadastro-fot/{id} is not folded, so it has no write() to give a foldedHandler()
    const folded = foldedHandler(fot.update, async (c) => c.json({} as never, 200));
    // Both lines above fail `npm run typecheck` without their @ts-expect-error; at run time they are inert.
    expect(typeof plain).toBe('function');
    expect(typeof folded).toBe('function');
  });
});
