import { env } from 'cloudflare:test';
import { and, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import { sign } from 'hono/jwt';
import { describe, expect, it, vi } from 'vitest';
import { loginFailures, logsAtividade, profissionais, refreshTokens, users } from '../../../src/db/schema';
import { signAccessToken, verifyAccessToken } from '../../../src/lib/tokens';
import {
  LOGIN_MAX_PER_CLIENT,
  LOGIN_MAX_PER_EMAIL,
  LOGIN_MAX_PER_IP,
  REFRESH_GRACE_MS,
  REGISTER_MAX_PER_CLIENT,
  failureKeys,
} from '../../../src/services/accounts/sessions';
import { LoginResponse, RegisterResponse } from '../../../src/routes/accounts/auth.schemas';
import { db, makeEmpresa, makeUser, PASSWORD, sessionOf, uniq } from '../../helpers/factories';
import { api, cookies, expectError } from '../../helpers/request';

const email = () => `${uniq('reg')}@example.com`;
const ip = () => ({
  'cf-connecting-ip': `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
});
const registration = (over: Record<string, unknown> = {}) => ({
  email: email(),
  senha: 'segredo123',
  nome: 'Maria Silva',
  role: 'profissional',
  ...over,
});
const login = (e: string, senha = PASSWORD, headers = ip()) =>
  api('POST', '/auth/login', { body: { email: e, senha }, headers });

/** Moves the spending time of a user's spent refresh tokens a minute back (as if the client came back later). */
const spentLongAgo = (userId: string) =>
  db
    .update(refreshTokens)
    .set({ revokedAt: new Date(Date.now() - 60_000).toISOString() })
    .where(and(eq(refreshTokens.userId, userId), isNotNull(refreshTokens.revokedAt)));

function expectNoSecrets(body: unknown) {
  const text = JSON.stringify(body);
  expect(text).not.toMatch(/senha_hash|senhaHash|pbkdf2/);
}

describe('POST /auth/register', () => {
  it('creates a pending user and answers 201 {id, access_token, message} with session cookies', async () => {
    const res = await api('POST', '/auth/register', {
      body: registration({ telefone: '11 98888-7777', professional_type: 'fotografo' }),
    });
    expect(res.status).toBe(201);
    expect(RegisterResponse.safeParse(res.body).success).toBe(true);
    expectNoSecrets(res.body);
    const [row] = await db.select().from(users).where(eq(users.id, res.body.id));
    expect(row?.ativo).toBe(false);
    expect(row?.senhaHash).toMatch(/^pbkdf2-sha256\$100000\$/);
    const c = cookies(res.headers);
    expect(c.access_token?.attrs).toEqual(expect.arrayContaining(['httponly', 'path=/', 'samesite=lax', 'secure']));
    expect(c.refresh_token?.attrs).toEqual(
      expect.arrayContaining(['httponly', 'path=/auth', 'samesite=lax', 'secure']),
    );
  });

  it(`limits sign-ups to ${REGISTER_MAX_PER_CLIENT} per client in 15 minutes (429 with Retry-After); other clients still register`, async () => {
    const client = ip();
    for (let i = 0; i < REGISTER_MAX_PER_CLIENT; i++)
      expect((await api('POST', '/auth/register', { headers: client, body: registration() })).status).toBe(201);
    const refused = await api('POST', '/auth/register', { headers: client, body: registration() });
    expectError(refused, 429, 'RATE_LIMITED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(800);
    expect((await api('POST', '/auth/register', { headers: ip(), body: registration() })).status).toBe(201);
  });

  it('trims and lowercases the e-mail, and refuses it again in another case with 400 EMAIL_TAKEN', async () => {
    const e = email();
    const res = await api('POST', '/auth/register', { body: registration({ email: `  ${e.toUpperCase()} ` }) });
    expect(res.status).toBe(201);
    const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, res.body.id));
    expect(row?.email).toBe(e);
    expectError(
      await api('POST', '/auth/register', { body: registration({ email: e.toUpperCase() }) }),
      400,
      'EMAIL_TAKEN',
    );
  });

  it.each([
    [{ senha: undefined }, 'senha: é obrigatório'],
    [{ senha: '12345' }, 'senha: deve ter pelo menos 6 caracteres'],
    [{ senha: 'x'.repeat(129) }, 'senha: deve ter no máximo 128 caracteres'],
    [{ email: 'not-an-email' }, 'email: deve ser um e-mail válido'],
    [{ email: undefined }, 'email: é obrigatório'],
    [{ nome: '   ' }, 'nome: é obrigatório'],
    [{ nome: 'x'.repeat(121) }, 'nome: deve ter no máximo 120 caracteres'],
    [{ role: 'CHEFE' }, 'role: deve ser um de'],
    [{ role: undefined }, 'role: é obrigatório'],
    [{ uf: 'XX' }, 'uf: deve ser a sigla de um estado'],
    [{ cpf_cnpj: '123.456.789-00' }, 'cpf_cnpj: deve ser um CPF ou CNPJ válido'],
    [{ empresa_id: 'abc' }, 'empresa_id: deve ser um UUID'],
  ])('rejects %j with 400 VALIDATION_FAILED naming the field', async (over, message) => {
    const res = await api('POST', '/auth/register', { body: registration(over) });
    expectError(res, 400, 'VALIDATION_FAILED');
    expect(res.body.error).toContain(message);
  });

  it.each(['SUPERADMIN', 'BUSINESS_OWNER'])(
    'refuses the administrator role %s with 400 ROLE_NOT_ALLOWED',
    async (role) => {
      expectError(await api('POST', '/auth/register', { body: registration({ role }) }), 400, 'ROLE_NOT_ALLOWED');
    },
  );

  it('requires an existing empresa_id for EVENT_OWNER', async () => {
    expectError(
      await api('POST', '/auth/register', { body: registration({ role: 'EVENT_OWNER' }) }),
      400,
      'VALIDATION_FAILED',
    );
    const unknown = await api('POST', '/auth/register', {
      body: registration({ role: 'EVENT_OWNER', empresa_id: crypto.randomUUID() }),
    });
    expectError(unknown, 400, 'VALIDATION_FAILED');
    expect(unknown.body.error).toContain('empresa_id');
    const empresa = await makeEmpresa();
    const ok = await api('POST', '/auth/register', {
      body: registration({ role: 'EVENT_OWNER', empresa_id: empresa.id }),
    });
    expect(ok.status).toBe(201);
  });

  it('stores a formatted CPF as digits and the address fields', async () => {
    const res = await api('POST', '/auth/register', {
      body: registration({ cpf_cnpj: '529.982.247-25', uf: 'mg', cep: '30140-071', cidade: 'Belo Horizonte' }),
    });
    expect(res.status).toBe(201);
    const [row] = await db.select().from(users).where(eq(users.id, res.body.id));
    expect(row).toMatchObject({ cpfCnpj: '52998224725', uf: 'MG', cep: '30140071', cidade: 'Belo Horizonte' });
  });

  it('ignores ativo and id sent in the body (mass assignment)', async () => {
    const id = crypto.randomUUID();
    const res = await api('POST', '/auth/register', { body: registration({ ativo: true, id }) });
    expect(res.status).toBe(201);
    expect(res.body.id).not.toBe(id);
    const [row] = await db.select({ ativo: users.ativo }).from(users).where(eq(users.id, res.body.id));
    expect(row?.ativo).toBe(false);
  });

  it('gives the pending token GET /api/me only: other routes answer 403 ACCOUNT_PENDING', async () => {
    const reg = await api('POST', '/auth/register', { body: registration() });
    const me = await api('GET', '/api/me', { token: reg.body.access_token });
    expect(me.status).toBe(200);
    expect(me.body.user.ativo).toBe(false);
    expectError(
      await api('PUT', '/api/me', { token: reg.body.access_token, body: { nome: 'X' } }),
      403,
      'ACCOUNT_PENDING',
    );
    expectError(await api('GET', '/api/admin/users', { token: reg.body.access_token }), 403, 'ACCOUNT_PENDING');
  });

  it('answers 400 INVALID_JSON for malformed JSON and 413 for a body over 64 KiB', async () => {
    expectError(
      await api('POST', '/auth/register', { rawBody: '{"email":', headers: { 'content-type': 'application/json' } }),
      400,
      'INVALID_JSON',
    );
    expectError(await api('POST', '/auth/register', { rawBody: '{}', headers: {} }), 400, 'INVALID_JSON');
    const big = await api('POST', '/auth/register', { body: registration({ nome: 'x'.repeat(70 * 1024) }) });
    expectError(big, 413, 'PAYLOAD_TOO_LARGE');
  });
});

describe('POST /auth/login', () => {
  it('answers loginResponse with a 15-minute access token and session cookies', async () => {
    const u = await makeUser({ role: 'RESEARCHER' });
    const res = await login(u.email);
    expect(res.status).toBe(200);
    expect(LoginResponse.safeParse(res.body).success).toBe(true);
    expectNoSecrets(res.body);
    expect(res.body.user).toMatchObject({
      id: u.id,
      email: u.email,
      role: 'RESEARCHER',
      ativo: true,
      company_id: null,
    });
    expect(res.body.profissional).toBeNull();
    const ttl = Date.parse(res.body.expires_at) - Date.now();
    expect(ttl).toBeGreaterThan(890_000);
    expect(ttl).toBeLessThanOrEqual(900_000);
    expect(cookies(res.headers).access_token?.value).toBe(res.body.access_token);
    expect((await api('GET', '/api/me', { token: res.body.access_token })).status).toBe(200);
  });

  it('accepts the e-mail in any case and with spaces', async () => {
    const u = await makeUser();
    expect((await login(`  ${u.email.toUpperCase()}  `)).status).toBe(200);
  });

  it('gives the same 401 INVALID_CREDENTIALS for an unknown e-mail and a wrong password', async () => {
    const u = await makeUser();
    const wrong = await login(u.email, 'wrong-password');
    const unknown = await login(`${uniq('nobody')}@example.com`, 'wrong-password');
    expectError(wrong, 401, 'INVALID_CREDENTIALS');
    expect(unknown.body).toEqual(wrong.body);
  });

  it('refuses a pending user with the right password with 401 ACCOUNT_PENDING, and a wrong one as usual', async () => {
    const u = await makeUser({ ativo: false });
    expectError(await login(u.email), 401, 'ACCOUNT_PENDING');
    expectError(await login(u.email, 'wrong-password'), 401, 'INVALID_CREDENTIALS');
  });

  it('returns the linked professional profile', async () => {
    const u = await makeUser({ role: 'profissional' });
    await db.insert(profissionais).values({
      regiao: 'SP',
      nome: 'Foto Grafo',
      usuarioId: u.id,
      qualTec: 4,
      dispHorario: 5,
      avatarUrl: 'https://cdn.example.com/a.png',
    });
    const res = await login(u.email);
    expect(res.body.profissional).toMatchObject({
      nome: 'Foto Grafo',
      usuario_id: u.id,
      media: 4.5,
      avatar_url: 'https://cdn.example.com/a.png',
    });
  });

  it('validates the body', async () => {
    expectError(await api('POST', '/auth/login', { body: { email: 'a@b.co' } }), 400, 'VALIDATION_FAILED');
    expectError(
      await api('POST', '/auth/login', { body: { email: 'a@b.co', senha: '123' } }),
      400,
      'VALIDATION_FAILED',
    );
  });

  it('rate limits 5 failures of one e-mail from one client in 15 minutes with 429 and Retry-After, even for the right password', async () => {
    const u = await makeUser();
    const client = ip();
    for (let i = 0; i < LOGIN_MAX_PER_CLIENT; i++)
      expectError(await login(u.email, 'wrong-password', client), 401, 'INVALID_CREDENTIALS');
    const blocked = await login(u.email, PASSWORD, client);
    expectError(blocked, 429, 'RATE_LIMITED');
    const retry = Number(blocked.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(800);
    expect(retry).toBeLessThanOrEqual(900);
  });

  it('does not lock the owner out from another client when someone fails 5 times with its e-mail (lockout is no denial of service)', async () => {
    const u = await makeUser();
    const attacker = ip();
    for (let i = 0; i < LOGIN_MAX_PER_CLIENT; i++) await login(u.email, 'wrong-password', attacker);
    expectError(await login(u.email, PASSWORD, attacker), 429, 'RATE_LIMITED');
    expect((await login(u.email, PASSWORD, ip())).status).toBe(200);
  });

  it(`blocks an e-mail from every client after ${LOGIN_MAX_PER_EMAIL} failures spread over many clients (distributed guessing)`, async () => {
    const u = await makeUser();
    const answers: number[] = [];
    for (let i = 0; i < LOGIN_MAX_PER_EMAIL; i++) answers.push((await login(u.email, 'wrong-password', ip())).status);
    expect(new Set(answers)).toEqual(new Set([401]));
    expectError(await login(u.email, PASSWORD, ip()), 429, 'RATE_LIMITED');
  });

  it(`rate limits ${LOGIN_MAX_PER_IP} failures per client across e-mails (password spraying)`, async () => {
    const headers = ip();
    for (let i = 0; i < LOGIN_MAX_PER_IP; i++) await login(`${uniq('spray')}@example.com`, 'wrong-password', headers);
    const u = await makeUser();
    expectError(await login(u.email, PASSWORD, headers), 429, 'RATE_LIMITED');
    expect((await login(u.email, PASSWORD, ip())).status).toBe(200);
  });

  it('makes each login its own session, log entry and released attempt (statements built once, values per login)', async () => {
    const u = await makeUser();
    const before = await db.select({ id: refreshTokens.id }).from(refreshTokens).where(eq(refreshTokens.userId, u.id));
    const client = ip();
    const first = await login(u.email, PASSWORD, client);
    const second = await login(u.email, PASSWORD, client);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(first.body.refresh_token).not.toBe(second.body.refresh_token);
    const sessions = (await db.select().from(refreshTokens).where(eq(refreshTokens.userId, u.id))).filter(
      (s) => !before.some((b) => b.id === s.id),
    );
    expect(sessions).toHaveLength(2);
    expect(new Set(sessions.map((s) => s.familyId)).size).toBe(2);
    for (const s of sessions) {
      expect(s.revokedAt).toBeNull();
      expect(Math.abs(Date.parse(s.expiresAt) - Date.parse(s.createdAt) - 2_592_000_000)).toBeLessThan(1000);
    }
    const entries = await db
      .select()
      .from(logsAtividade)
      .where(and(eq(logsAtividade.acao, 'auth.login'), eq(logsAtividade.entidadeId, u.id)));
    expect(entries).toHaveLength(2);
    expect(entries.map((e) => [e.atorId, e.atorRole, e.entidade])).toEqual([
      [u.id, u.role, 'users'],
      [u.id, u.role, 'users'],
    ]);
    expect(new Set(entries.map((e) => e.id)).size).toBe(2);
    // The attempts in flight of both logins (e-mail, client and pair keys) were given back.
    const keys = failureKeys(u.email, client['cf-connecting-ip']).flatMap(({ key }) => [key, `try:${key}`]);
    expect(await db.select().from(loginFailures).where(inArray(loginFailures.key, keys))).toEqual([]);
  });

  it('forgets the failures of an e-mail after a successful login', async () => {
    const u = await makeUser();
    for (let i = 0; i < 4; i++) await login(u.email, 'wrong-password');
    expect((await login(u.email)).status).toBe(200);
    for (let i = 0; i < 4; i++) await login(u.email, 'wrong-password');
    expect((await login(u.email)).status).toBe(200);
  });
});

describe('access tokens', () => {
  it('are accepted as Bearer, as a bare Authorization value and from the access_token cookie', async () => {
    const u = await makeUser();
    expect((await api('GET', '/api/me', { headers: { authorization: u.token } })).status).toBe(200);
    expect((await api('GET', '/api/me', { headers: { cookie: `access_token=${u.token}` } })).status).toBe(200);
  });

  it('prefer the header over the cookie', async () => {
    const u = await makeUser();
    expectError(
      await api('GET', '/api/me', { headers: { authorization: 'Bearer garbage', cookie: `access_token=${u.token}` } }),
      401,
      'UNAUTHENTICATED',
    );
  });

  it('are refused when expired, unsigned (alg none) or tampered', async () => {
    const u = await makeUser();
    const expired = await signAccessToken(
      { id: u.id, role: 'SUPERADMIN', empresaId: null },
      env.JWT_SECRET,
      -60,
      sessionOf(u.token),
    );
    expectError(await api('GET', '/api/me', { token: expired.token }), 401, 'UNAUTHENTICATED');
    const b64 = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
    const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: u.id, role: 'SUPERADMIN', exp: Math.floor(Date.now() / 1000) + 600 })}.`;
    expectError(await api('GET', '/api/me', { token: none }), 401, 'UNAUTHENTICATED');
    const [h, , s] = u.token.split('.');
    const tampered = `${h}.${b64({ sub: u.id, role: 'SUPERADMIN', iat: 1, exp: Math.floor(Date.now() / 1000) + 600 })}.${s}`;
    expectError(await api('GET', '/api/me', { token: tampered }), 401, 'UNAUTHENTICATED');
    const hs512 = await sign(
      { sub: u.id, role: 'SUPERADMIN', exp: Math.floor(Date.now() / 1000) + 600 },
      env.JWT_SECRET,
      'HS512',
    );
    expectError(await api('GET', '/api/me', { token: hs512 }), 401, 'UNAUTHENTICATED');
    // Signed with the right key (HS256) but refused for its header or claims (lib/tokens.ts verifyAccessToken).
    const exp = Math.floor(Date.now() / 1000) + 600;
    const claims = { sub: u.id, role: 'SUPERADMIN', sid: sessionOf(u.token), exp };
    const signed = async (header: object, payload: object) => {
      const head = `${b64(header)}.${b64(payload)}`;
      const key = await crypto.subtle.importKey(
        'raw',
        new TextEncoder().encode(env.JWT_SECRET),
        { name: 'HMAC', hash: 'SHA-256' },
        false,
        ['sign'],
      );
      const sig = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(head)));
      return `${head}.${btoa(String.fromCharCode(...sig))
        .replace(/=+$/, '')
        .replace(/\+/g, '-')
        .replace(/\//g, '_')}`;
    };
    const hs256 = { alg: 'HS256', typ: 'JWT' };
    expect((await api('GET', '/api/me', { token: await signed(hs256, claims) })).status).toBe(200);
    expect((await api('GET', '/api/me', { token: await signed({ alg: 'HS256' }, claims) })).status).toBe(200);
    for (const [header, payload] of [
      [{ alg: 'HS256', typ: 'JWT', crit: ['exp'] }, claims],
      [{ alg: 'HS256', typ: 'JOSE+JSON' }, claims],
      [{ alg: 'hs256', typ: 'JWT' }, claims],
      [hs256, { ...claims, nbf: exp }],
      [hs256, { ...claims, iat: exp }],
      [hs256, { ...claims, exp: String(exp) }],
      [hs256, { ...claims, sid: undefined }],
      [hs256, { ...claims, sub: 42 }],
    ] as const) {
      const token = await signed(header, payload);
      expectError(await api('GET', '/api/me', { token }), 401, 'UNAUTHENTICATED');
    }
    const good = await signed(hs256, claims);
    for (const token of [
      `${good}.x`,
      good.replace(/\.[^.]*$/, '.'),
      `${good.slice(0, -2)}!!`,
      `${good}==`,
      `${b64(hs256)}.bm90IGpzb24.${good.split('.')[2]}`,
      `${b64(hs256)}.${btoa('[1,2]')}.${good.split('.')[2]}`,
    ])
      expectError(await api('GET', '/api/me', { token }), 401, 'UNAUTHENTICATED');
    const otherKey = await signAccessToken(
      { id: u.id, role: 'SUPERADMIN', empresaId: null },
      'x'.repeat(48),
      600,
      sessionOf(u.token),
    );
    expectError(await api('GET', '/api/me', { token: otherKey.token }), 401, 'UNAUTHENTICATED');
  });

  it('verified once, are still refused once expired, under another secret, and when altered', async () => {
    const u = await makeUser({ role: 'SUPERADMIN' });
    const { token } = await signAccessToken(
      { id: u.id, role: 'SUPERADMIN', empresaId: null },
      env.JWT_SECRET,
      60,
      sessionOf(u.token),
    );
    // The first use verifies it in full and remembers it (lib/tokens.ts, the verified tokens).
    expect(await verifyAccessToken(token, env.JWT_SECRET)).toMatchObject({ sub: u.id });
    expect((await api('GET', '/api/me', { token })).status).toBe(200);
    expect(await verifyAccessToken(token, 'y'.repeat(48))).toBeUndefined();
    const altered = `${token.slice(0, -5)}${token.at(-5) === 'A' ? 'B' : 'A'}${token.slice(-4)}`;
    expectError(await api('GET', '/api/me', { token: altered }), 401, 'UNAUTHENTICATED');
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 61_000);
      expect(await verifyAccessToken(token, env.JWT_SECRET)).toBeUndefined();
      expectError(await api('GET', '/api/me', { token }), 401, 'UNAUTHENTICATED');
    } finally {
      vi.useRealTimers();
    }
  });

  it("stop working at once when their session logs out; the same user's other sessions keep working", async () => {
    const u = await makeUser({ role: 'SUPERADMIN' });
    const [a, b] = [await login(u.email), await login(u.email)];
    const works = async (token: string) =>
      [
        (await api('GET', '/api/me', { token })).status, // the account query
        (await api('GET', '/api/cursos', { token })).status, // a folded read
        (await api('PUT', '/api/me', { token, body: { telefone: '1' } })).status, // a write
      ].join(',');
    expect(await works(a.body.access_token)).toBe('200,200,200');
    expect((await api('POST', '/auth/logout', { body: { refresh_token: a.body.refresh_token } })).status).toBe(200);
    expect(await works(a.body.access_token)).toBe('401,401,401');
    expect(await works(b.body.access_token)).toBe('200,200,200');
  });

  it('of every session stop at once after a password change; the session it answers works', async () => {
    const u = await makeUser();
    const other = await login(u.email);
    const res = await api('PUT', '/api/me', {
      token: u.token,
      body: { senha_atual: PASSWORD, nova_senha: 'nova-senha-7' },
    });
    expect(res.status).toBe(200);
    expectError(await api('GET', '/api/me', { token: u.token }), 401, 'UNAUTHENTICATED');
    expectError(await api('GET', '/api/me', { token: other.body.access_token }), 401, 'UNAUTHENTICATED');
    expect((await api('GET', '/api/me', { token: res.body.access_token })).status).toBe(200);
  });

  it('of every session stop at once when a spent refresh token is presented (theft detection)', async () => {
    const u = await makeUser();
    const [a, b] = [await login(u.email), await login(u.email)];
    const rotated = await api('POST', '/auth/refresh', { body: { refresh_token: a.body.refresh_token } });
    expect(rotated.status).toBe(200);
    await spentLongAgo(u.id); // past the grace window of concurrent refreshes
    expectError(
      await api('POST', '/auth/refresh', { body: { refresh_token: a.body.refresh_token } }),
      401,
      'INVALID_REFRESH_TOKEN',
    );
    for (const token of [a.body.access_token, rotated.body.access_token, b.body.access_token])
      expectError(await api('GET', '/api/me', { token }), 401, 'UNAUTHENTICATED');
    expectError(
      await api('POST', '/auth/refresh', { body: { refresh_token: b.body.refresh_token } }),
      401,
      'INVALID_REFRESH_TOKEN',
    );
  });

  it('without a session claim (issued before sessions were checked) are refused', async () => {
    const u = await makeUser({ role: 'SUPERADMIN' });
    const legacy = await sign(
      { sub: u.id, role: 'SUPERADMIN', empresa_id: null, iat: 1, exp: Math.floor(Date.now() / 1000) + 600 },
      env.JWT_SECRET,
      'HS256',
    );
    expectError(await api('GET', '/api/me', { token: legacy }), 401, 'UNAUTHENTICATED');
    expectError(await api('GET', '/api/cursos', { token: legacy }), 401, 'UNAUTHENTICATED');
  });

  it('follow the stored role, not the claim: a demoted user loses access at once', async () => {
    const admin = await makeUser({ role: 'BUSINESS_OWNER' });
    expect((await api('GET', '/api/admin/users', { token: admin.token })).status).toBe(200);
    await db.update(users).set({ role: 'RESEARCHER' }).where(eq(users.id, admin.id));
    expectError(await api('GET', '/api/admin/users', { token: admin.token }), 403, 'FORBIDDEN');
  });

  it('need an allowed Origin when a cookie authenticates a change', async () => {
    const u = await makeUser();
    const cookie = `access_token=${u.token}`;
    const body = { telefone: '1' };
    expectError(await api('PUT', '/api/me', { body, headers: { cookie } }), 403, 'FORBIDDEN');
    expectError(
      await api('PUT', '/api/me', { body, headers: { cookie, origin: 'https://evil.example' } }),
      403,
      'FORBIDDEN',
    );
    expect((await api('PUT', '/api/me', { body, headers: { cookie, origin: 'https://app.example.com' } })).status).toBe(
      200,
    );
  });
});

describe('POST /auth/refresh', () => {
  async function session() {
    const u = await makeUser();
    const res = await login(u.email);
    return { user: u, refresh: res.body.refresh_token as string };
  }

  it('rotates: a new access and refresh token, the old refresh token is spent', async () => {
    const { refresh } = await session();
    const res = await api('POST', '/auth/refresh', { body: { refresh_token: refresh } });
    expect(res.status).toBe(200);
    expect(res.body.refresh_token).not.toBe(refresh);
    expect((await api('GET', '/api/me', { token: res.body.access_token })).status).toBe(200);
    expect(cookies(res.headers).refresh_token?.value).toBe(res.body.refresh_token);
  });

  it('ends every session when a spent token is presented again after the grace window (theft detection)', async () => {
    const { user, refresh } = await session();
    const first = await api('POST', '/auth/refresh', { body: { refresh_token: refresh } });
    await spentLongAgo(user.id);
    expectError(await api('POST', '/auth/refresh', { body: { refresh_token: refresh } }), 401, 'INVALID_REFRESH_TOKEN');
    expectError(
      await api('POST', '/auth/refresh', { body: { refresh_token: first.body.refresh_token } }),
      401,
      'INVALID_REFRESH_TOKEN',
    );
  });

  it(`answers a just-replaced token presented again within ${REFRESH_GRACE_MS / 1000} s with the same successor, and the session lives on`, async () => {
    const { refresh } = await session();
    const first = await api('POST', '/auth/refresh', { body: { refresh_token: refresh } });
    const again = await api('POST', '/auth/refresh', { body: { refresh_token: refresh } });
    expect(again.status).toBe(200);
    expect(again.body.refresh_token).toBe(first.body.refresh_token);
    expect((await api('GET', '/api/me', { token: again.body.access_token })).status).toBe(200);
    expect((await api('GET', '/api/me', { token: first.body.access_token })).status).toBe(200);
    const next = await api('POST', '/auth/refresh', { body: { refresh_token: first.body.refresh_token } });
    expect(next.status).toBe(200);
  });

  it('answers concurrent refreshes with one token (two tabs at once) with one and the same successor', async () => {
    const { user, refresh } = await session();
    const results = await Promise.all(
      [1, 2, 3].map(() => api('POST', '/auth/refresh', { body: { refresh_token: refresh } })),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(new Set(results.map((r) => r.body.refresh_token)).size).toBe(1);
    for (const r of results) expect((await api('GET', '/api/me', { token: r.body.access_token })).status).toBe(200);
    const live = await db
      .select()
      .from(refreshTokens)
      .where(and(eq(refreshTokens.userId, user.id), isNull(refreshTokens.revokedAt)));
    expect(live.filter((t) => !t.tokenHash.startsWith('factory-'))).toHaveLength(1);
  });

  it('reads the cookie when the body has no token, if the Origin is allowed', async () => {
    const { refresh } = await session();
    const cookie = `refresh_token=${refresh}`;
    expectError(
      await api('POST', '/auth/refresh', { body: {}, headers: { cookie, origin: 'https://evil.example' } }),
      403,
      'FORBIDDEN',
    );
    const res = await api('POST', '/auth/refresh', {
      body: {},
      headers: { cookie, origin: 'https://app.example.com' },
    });
    expect(res.status).toBe(200);
  });

  it('answers 401 INVALID_REFRESH_TOKEN for a missing, unknown or expired token', async () => {
    expectError(await api('POST', '/auth/refresh', { body: {} }), 401, 'INVALID_REFRESH_TOKEN');
    expectError(
      await api('POST', '/auth/refresh', { body: { refresh_token: 'garbage' } }),
      401,
      'INVALID_REFRESH_TOKEN',
    );
    const { refresh } = await session();
    await db.update(refreshTokens).set({ expiresAt: new Date(Date.now() - 1000).toISOString() });
    expectError(await api('POST', '/auth/refresh', { body: { refresh_token: refresh } }), 401, 'INVALID_REFRESH_TOKEN');
  });

  it('refuses a deleted user', async () => {
    const { user, refresh } = await session();
    await db.delete(users).where(eq(users.id, user.id));
    expectError(await api('POST', '/auth/refresh', { body: { refresh_token: refresh } }), 401, 'INVALID_REFRESH_TOKEN');
  });
});

describe('POST /auth/logout', () => {
  it('revokes the refresh token and clears both cookies', async () => {
    const u = await makeUser();
    const { body } = await login(u.email);
    const res = await api('POST', '/auth/logout', { body: { refresh_token: body.refresh_token } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'sessão encerrada' });
    const c = cookies(res.headers);
    expect(c.access_token?.attrs).toContain('max-age=0');
    expect(c.refresh_token?.attrs).toContain('max-age=0');
    expectError(
      await api('POST', '/auth/refresh', { body: { refresh_token: body.refresh_token } }),
      401,
      'INVALID_REFRESH_TOKEN',
    );
  });

  it('answers 200 without any token', async () => {
    expect((await api('POST', '/auth/logout', { body: {} })).status).toBe(200);
  });
});

describe('an empty optional body is no body', () => {
  const json = { 'content-type': 'application/json' };

  it('POST /auth/logout with Content-Type: application/json and an empty body answers 200 and clears the cookies', async () => {
    const u = await makeUser();
    const { body } = await login(u.email);
    const res = await api('POST', '/auth/logout', {
      rawBody: '',
      headers: { ...json, cookie: `refresh_token=${body.refresh_token}`, origin: 'https://app.example.com' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(cookies(res.headers).refresh_token?.attrs).toContain('max-age=0');
    // The cookie's token was revoked: the empty body did not hide it.
    expectError(
      await api('POST', '/auth/refresh', { body: { refresh_token: body.refresh_token } }),
      401,
      'INVALID_REFRESH_TOKEN',
    );
  });

  it('POST /auth/logout with Content-Type and Content-Length: 0 answers 200', async () => {
    const res = await api('POST', '/auth/logout', { rawBody: '', headers: { ...json, 'content-length': '0' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it('cookie POST /auth/refresh with Content-Type: application/json and an empty body rotates the session', async () => {
    const u = await makeUser();
    const { body } = await login(u.email);
    const res = await api('POST', '/auth/refresh', {
      rawBody: '',
      headers: { ...json, cookie: `refresh_token=${body.refresh_token}`, origin: 'https://app.example.com' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.refresh_token).not.toBe(body.refresh_token);
  });

  it('a route whose body is required still refuses an empty one, naming the first missing field', async () => {
    const res = await api('POST', '/auth/login', { rawBody: '', headers: json });
    expectError(res, 400, 'VALIDATION_FAILED');
    expect(res.body.error).toBe('email: é obrigatório');
  });

  it('a body that is only spaces is still malformed JSON', async () => {
    expectError(await api('POST', '/auth/logout', { rawBody: '  ', headers: json }), 400, 'INVALID_JSON');
  });
});

describe('GET and PUT /api/me', () => {
  it('GET answers loginResponse without a new token', async () => {
    const empresa = await makeEmpresa();
    const u = await makeUser({ role: 'EVENT_OWNER', empresaId: empresa.id });
    const res = await api('GET', '/api/me', { token: u.token });
    expect(res.status).toBe(200);
    expect(LoginResponse.safeParse(res.body).success).toBe(true);
    expect(res.body.access_token).toBe('');
    expect(res.body.user).toMatchObject({ company_id: empresa.id, company_name: empresa.label });
  });

  it('PUT changes nome and telefone and ignores role, ativo and ratings in the body', async () => {
    const u = await makeUser({ role: 'profissional' });
    await db.insert(profissionais).values({ regiao: 'SP', nome: 'Antes', usuarioId: u.id, qualTec: 2 });
    const res = await api('PUT', '/api/me', {
      token: u.token,
      body: {
        nome: ' Novo Nome ',
        telefone: '31 3333-0000',
        role: 'SUPERADMIN',
        ativo: false,
        profissional: { nome: 'Depois', uf: 'mg', qual_tec: 5, usuario_id: crypto.randomUUID() },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({
      name: 'Novo Nome',
      phone: '31 3333-0000',
      role: 'profissional',
      ativo: true,
    });
    expect(res.body.profissional).toMatchObject({ nome: 'Depois', uf: 'MG', qual_tec: 2, usuario_id: u.id });
  });

  it('PUT changes the password only with the current one, revokes old sessions and starts a new one', async () => {
    const u = await makeUser();
    const old = (await login(u.email)).body.refresh_token;
    expectError(
      await api('PUT', '/api/me', { token: u.token, body: { nova_senha: 'nova-senha-1' } }),
      400,
      'VALIDATION_FAILED',
    );
    const wrong = await api('PUT', '/api/me', {
      token: u.token,
      body: { senha_atual: 'errada-123', nova_senha: 'nova-senha-1' },
    });
    expectError(wrong, 400, 'VALIDATION_FAILED');
    expect(wrong.body.error).toContain('senha_atual');
    const res = await api('PUT', '/api/me', {
      token: u.token,
      body: { senha_atual: PASSWORD, nova_senha: 'nova-senha-1' },
    });
    expect(res.status).toBe(200);
    expect(res.body.refresh_token).toBeTruthy();
    expectNoSecrets(res.body);
    expectError(await api('POST', '/auth/refresh', { body: { refresh_token: old } }), 401, 'INVALID_REFRESH_TOKEN');
    expect((await api('POST', '/auth/refresh', { body: { refresh_token: res.body.refresh_token } })).status).toBe(200);
    expectError(await login(u.email), 401, 'INVALID_CREDENTIALS');
    expect((await login(u.email, 'nova-senha-1')).status).toBe(200);
  });

  it('PUT counts a wrong senha_atual as a failed login: after 5 from one client even the right one is 429', async () => {
    const u = await makeUser();
    const client = ip();
    const change = (senha_atual: string) =>
      api('PUT', '/api/me', { token: u.token, headers: client, body: { senha_atual, nova_senha: 'nova-senha-9' } });
    for (let i = 0; i < LOGIN_MAX_PER_CLIENT; i++) expectError(await change(`errada-${i}`), 400, 'VALIDATION_FAILED');
    const blocked = await change(PASSWORD);
    expectError(blocked, 429, 'RATE_LIMITED');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(800);
    expectError(await login(u.email, PASSWORD, client), 429, 'RATE_LIMITED');
    expect((await change(PASSWORD)).status).toBe(429);
    expect((await login(u.email, PASSWORD, ip())).status).toBe(200);
  });

  it('PUT validates its fields', async () => {
    const u = await makeUser();
    expectError(await api('PUT', '/api/me', { token: u.token, body: { nome: '' } }), 400, 'VALIDATION_FAILED');
    expectError(
      await api('PUT', '/api/me', { token: u.token, body: { nova_senha: '123', senha_atual: PASSWORD } }),
      400,
      'VALIDATION_FAILED',
    );
    expectError(
      await api('PUT', '/api/me', { token: u.token, body: { profissional: { cpf_cnpj_titular: '11111111111' } } }),
      400,
      'VALIDATION_FAILED',
    );
  });
});
