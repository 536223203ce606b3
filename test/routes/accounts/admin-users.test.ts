import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  emailOutbox,
  logsAtividade,
  notifications,
  passwordResetTokens,
  profissionais,
  refreshTokens,
  users,
} from '../../../src/db/schema';
import { PendingUserSchema, UserSchema } from '../../../src/routes/accounts/admin-users.schemas';
import { db, makeAdmin, makeEmpresa, makeProfissional, makeUser, uniq } from '../../helpers/factories';
import { entriesOf } from '../../helpers/activity-log';
import { api, expectError } from '../../helpers/request';
import { expectPageTotal, keptCountsAfterAll } from '../../helpers/kept-columns';

// The pages' totals are counts kept by triggers (drizzle/0037): checked after the file.
keptCountsAfterAll('users');

const newUser = (over: Record<string, unknown> = {}) => ({
  email: `${uniq('adm')}@example.com`,
  senha: 'segredo123',
  nome: 'Nova Pessoa',
  role: 'RESEARCHER',
  ...over,
});

describe('GET /api/admin/users', () => {
  it('lists every user with company name and without password data', async () => {
    const admin = await makeAdmin();
    const empresa = await makeEmpresa();
    const owner = await makeUser({ role: 'EVENT_OWNER', empresaId: empresa.id });
    const res = await api('GET', '/api/admin/users', { token: admin.token });
    expect(res.status).toBe(200);
    const mine = res.body.find((u: { id: string }) => u.id === owner.id);
    expect(mine).toMatchObject({ company_id: empresa.id, company_name: empresa.label, role: 'EVENT_OWNER' });
    for (const u of res.body) expect(UserSchema.safeParse(u).success).toBe(true);
    expect(JSON.stringify(res.body)).not.toMatch(/senha|pbkdf2/);
  });
});

describe('GET /api/admin/users/pending', () => {
  it('lists only users waiting for approval, with tipo_profissional', async () => {
    const admin = await makeUser({ role: 'BUSINESS_OWNER' });
    const waiting = await makeUser({ ativo: false, professionalType: 'cinegrafista', telefone: '31 9' });
    const active = await makeUser();
    const res = await api('GET', '/api/admin/users/pending', { token: admin.token });
    expect(res.status).toBe(200);
    const ids = res.body.map((u: { id: string }) => u.id);
    expect(ids).toContain(waiting.id);
    expect(ids).not.toContain(active.id);
    const row = res.body.find((u: { id: string }) => u.id === waiting.id);
    expect(row).toMatchObject({ ativo: false, tipo_profissional: 'cinegrafista', phone: '31 9' });
    expect(PendingUserSchema.safeParse(row).success).toBe(true);
  });
});

describe('page totals of accounts', () => {
  it('follow a sign-up, its approval, an account made active and a deletion', async () => {
    const admin = await makeAdmin();
    const totals = async () => [
      await expectPageTotal('/api/admin/users', { token: admin.token }),
      await expectPageTotal('/api/admin/users/pending', { token: admin.token }),
    ];
    const [all, pending] = await totals();
    const waiting = await makeUser({ ativo: false });
    const created = await api('POST', '/api/admin/users', { token: admin.token, body: newUser() });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(await totals()).toEqual([all! + 2, pending! + 1]);
    expect((await api('PATCH', `/api/admin/users/${waiting.id}/approve`, { token: admin.token })).status).toBe(200);
    expect(await totals()).toEqual([all! + 2, pending]);
    await db.update(users).set({ ativo: false }).where(eq(users.id, created.body.id));
    expect(await totals()).toEqual([all! + 2, pending! + 1]);
    expect((await api('DELETE', `/api/admin/users/${created.body.id}`, { token: admin.token })).status).toBe(200);
    expect((await api('DELETE', `/api/admin/users/${waiting.id}`, { token: admin.token })).status).toBe(200);
    expect(await totals()).toEqual([all, pending]);
  });
});

describe('GET /api/admin/users/{id}', () => {
  it('answers the user, 404 for an unknown id and 400 INVALID_ID for a malformed one', async () => {
    const admin = await makeAdmin();
    const u = await makeUser();
    const res = await api('GET', `/api/admin/users/${u.id}`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: u.id, email: u.email, ativo: true });
    expectError(await api('GET', `/api/admin/users/${crypto.randomUUID()}`, { token: admin.token }), 404, 'NOT_FOUND');
    expectError(await api('GET', '/api/admin/users/123', { token: admin.token }), 400, 'INVALID_ID');
  });
});

describe('POST /api/admin/users', () => {
  it('creates an active user who can log in at once', async () => {
    const admin = await makeAdmin();
    const body = newUser();
    const res = await api('POST', '/api/admin/users', { token: admin.token, body });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(String), message: 'usuário criado' });
    const login = await api('POST', '/auth/login', { body: { email: body.email, senha: body.senha } });
    expect(login.status).toBe(200);
    expect(login.body.user.ativo).toBe(true);
    expect(login.body.profissional).toBeNull();
  });

  it('gives an administrator a new professional profile in the x-regiao region', async () => {
    const admin = await makeAdmin();
    const res = await api('POST', '/api/admin/users', {
      token: admin.token,
      regiao: 'mg',
      body: newUser({ role: 'BUSINESS_OWNER', nome: 'Dona' }),
    });
    expect(res.status).toBe(201);
    const [p] = await db.select().from(profissionais).where(eq(profissionais.usuarioId, res.body.id));
    expect(p).toMatchObject({ nome: 'Dona', regiao: 'MG' });
  });

  it('links the existing unlinked profile with the same e-mail instead of creating one', async () => {
    const admin = await makeAdmin();
    const body = newUser({ role: 'SUPERADMIN' });
    const [existing] = await db
      .insert(profissionais)
      .values({ regiao: 'SP', nome: 'Já Cadastrado', email: body.email })
      .returning();
    const res = await api('POST', '/api/admin/users', {
      token: admin.token,
      body: { ...body, email: body.email.toUpperCase() },
    });
    expect(res.status).toBe(201);
    const linked = await db.select().from(profissionais).where(eq(profissionais.usuarioId, res.body.id));
    expect(linked.map((p) => p.id)).toEqual([existing!.id]);
  });

  it("links only a profile an administrator created or whose owner was approved, never a pending sign-up's", async () => {
    const admin = await makeAdmin();
    // A self-created profile of a sign-up that was never approved, left unlinked (as before rejections deleted it).
    const body = newUser({ role: 'BUSINESS_OWNER' });
    const [orphan] = await db
      .insert(profissionais)
      .values({ regiao: 'SP', nome: 'Sem aprovação', email: body.email, banco: 'Banco X', aprovado: false })
      .returning();
    const res = await api('POST', '/api/admin/users', { token: admin.token, body });
    expect(res.status).toBe(201);
    const linked = await db.select().from(profissionais).where(eq(profissionais.usuarioId, res.body.id));
    expect(linked.map((p) => p.id)).not.toContain(orphan!.id);
    expect(linked[0]?.banco).toBeNull();

    // An approved professional's profile outlives its deleted login and is linked again.
    const email = `${uniq('ok')}@example.com`;
    const reg = await api('POST', '/auth/register', {
      body: { email, senha: 'segredo123', nome: 'Aprovada', role: 'profissional' },
    });
    const own = await api('POST', '/api/profissionais', { token: reg.body.access_token, body: { nome: 'Aprovada' } });
    expect((await api('PATCH', `/api/admin/users/${reg.body.id}/approve`, { token: admin.token })).status).toBe(200);
    expect((await api('DELETE', `/api/admin/users/${reg.body.id}`, { token: admin.token })).status).toBe(200);
    const again = await api('POST', '/api/admin/users', {
      token: admin.token,
      body: newUser({ email, role: 'BUSINESS_OWNER' }),
    });
    const relinked = await db.select().from(profissionais).where(eq(profissionais.usuarioId, again.body.id));
    expect(relinked.map((p) => p.id)).toEqual([own.body.id]);
  });

  it('lets only a SUPERADMIN create a SUPERADMIN', async () => {
    const owner = await makeUser({ role: 'BUSINESS_OWNER' });
    expectError(
      await api('POST', '/api/admin/users', { token: owner.token, body: newUser({ role: 'SUPERADMIN' }) }),
      403,
      'FORBIDDEN',
    );
    const res = await api('POST', '/api/admin/users', {
      token: owner.token,
      body: newUser({ role: 'BUSINESS_OWNER' }),
    });
    expect(res.status).toBe(201);
  });

  it('refuses a taken e-mail (any case) with 400 EMAIL_TAKEN and creates nothing', async () => {
    const admin = await makeAdmin();
    const u = await makeUser();
    const before = await db.select().from(profissionais);
    expectError(
      await api('POST', '/api/admin/users', {
        token: admin.token,
        body: newUser({ email: u.email.toUpperCase(), role: 'SUPERADMIN' }),
      }),
      400,
      'EMAIL_TAKEN',
    );
    expect(await db.select().from(profissionais)).toHaveLength(before.length);
  });

  it('validates the body and the company of an EVENT_OWNER', async () => {
    const admin = await makeAdmin();
    expectError(
      await api('POST', '/api/admin/users', { token: admin.token, body: newUser({ senha: '1' }) }),
      400,
      'VALIDATION_FAILED',
    );
    expectError(
      await api('POST', '/api/admin/users', { token: admin.token, body: newUser({ role: 'EVENT_OWNER' }) }),
      400,
      'VALIDATION_FAILED',
    );
    expectError(
      await api('POST', '/api/admin/users', { token: admin.token, regiao: 'XX', body: newUser() }),
      400,
      'INVALID_REGION',
    );
    // A company of another region is not one of x-regiao's (as on the role change): nothing is created.
    const mg = await makeEmpresa('MG');
    const body = newUser({ role: 'EVENT_OWNER', empresa_id: mg.id });
    const other = await api('POST', '/api/admin/users', { token: admin.token, body });
    expectError(other, 400, 'VALIDATION_FAILED');
    expect(other.body.error).toBe('empresa_id: empresa não encontrada nesta região');
    expect(
      await db
        .select()
        .from(users)
        .where(eq(users.email, body.email as string)),
    ).toEqual([]);
    const inMg = await api('POST', '/api/admin/users', { token: admin.token, regiao: 'MG', body });
    expect(inMg.status).toBe(201);
    const [made] = await db.select().from(users).where(eq(users.id, inMg.body.id));
    expect(made!.empresaId).toBe(mg.id);
  });

  it('makes exactly one account out of concurrent creates with one e-mail', async () => {
    const admin = await makeAdmin();
    const body = newUser();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => api('POST', '/api/admin/users', { token: admin.token, body })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 201)) expectError(r, 400, 'EMAIL_TAKEN');
    expect(await db.select().from(users).where(eq(users.email, body.email))).toHaveLength(1);
  });
});

describe('DELETE /api/admin/users/{id}', () => {
  it('deletes the user: its token stops working, its sessions go, its profile stays unlinked', async () => {
    const admin = await makeAdmin();
    const u = await makeUser({ role: 'profissional' });
    const login = await api('POST', '/auth/login', { body: { email: u.email, senha: u.password } });
    const [p] = await db.insert(profissionais).values({ regiao: 'SP', nome: 'Perfil', usuarioId: u.id }).returning();
    const res = await api('DELETE', `/api/admin/users/${u.id}`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'usuário excluído' });
    expectError(await api('GET', '/api/me', { token: u.token }), 401, 'UNAUTHENTICATED');
    expectError(
      await api('POST', '/auth/refresh', { body: { refresh_token: login.body.refresh_token } }),
      401,
      'INVALID_REFRESH_TOKEN',
    );
    expect(await db.select().from(refreshTokens).where(eq(refreshTokens.userId, u.id))).toHaveLength(0);
    const [after] = await db.select().from(profissionais).where(eq(profissionais.id, p!.id));
    expect(after?.usuarioId).toBeNull();
  });

  it('rejecting a sign-up (deleting a pending account) deletes the profile it created, so a later administrator with that e-mail never gets its bank data', async () => {
    const admin = await makeAdmin();
    const email = `${uniq('rej')}@example.com`;
    const reg = await api('POST', '/auth/register', {
      body: { email, senha: 'segredo123', nome: 'Intruso', role: 'profissional' },
    });
    const own = await api('POST', '/api/profissionais', {
      token: reg.body.access_token,
      body: { nome: 'Intruso', banco: 'Banco X', conta_pix: 'intruso@pix.com', tipo_chave_pix: 'email' },
    });
    expect(own.status).toBe(201);
    expect((await api('DELETE', `/api/admin/users/${reg.body.id}`, { token: admin.token })).status).toBe(200);
    expect(await db.select().from(profissionais).where(eq(profissionais.id, own.body.id))).toEqual([]);
    const created = await api('POST', '/api/admin/users', {
      token: admin.token,
      body: newUser({ email, role: 'BUSINESS_OWNER' }),
    });
    expect(created.status).toBe(201);
    const login = await api('POST', '/auth/login', { body: { email, senha: 'segredo123' } });
    expect(login.body.profissional).toMatchObject({ banco: null, conta_pix: null });
    expect(login.body.profissional.id).not.toBe(own.body.id);
  });

  it('refuses deleting oneself, and a SUPERADMIN by a BUSINESS_OWNER', async () => {
    const admin = await makeAdmin();
    expectError(await api('DELETE', `/api/admin/users/${admin.id}`, { token: admin.token }), 403, 'FORBIDDEN');
    const owner = await makeUser({ role: 'BUSINESS_OWNER' });
    expectError(await api('DELETE', `/api/admin/users/${admin.id}`, { token: owner.token }), 403, 'FORBIDDEN');
    const other = await makeUser({ role: 'BUSINESS_OWNER' });
    expect((await api('DELETE', `/api/admin/users/${other.id}`, { token: owner.token })).status).toBe(200);
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    const admin = await makeAdmin();
    expectError(
      await api('DELETE', `/api/admin/users/${crypto.randomUUID()}`, { token: admin.token }),
      404,
      'NOT_FOUND',
    );
    expectError(await api('DELETE', '/api/admin/users/not-a-uuid', { token: admin.token }), 400, 'INVALID_ID');
  });
});

describe('PATCH /api/admin/users/{id}/approve', () => {
  it('activates a pending user, who can then log in', async () => {
    const admin = await makeUser({ role: 'BUSINESS_OWNER' });
    const reg = await api('POST', '/auth/register', { body: newUser({ role: 'agenda_viewer' }) });
    const creds = {
      email: (await db.select().from(users).where(eq(users.id, reg.body.id)))[0]!.email,
      senha: 'segredo123',
    };
    expectError(await api('POST', '/auth/login', { body: creds }), 401, 'ACCOUNT_PENDING');
    const res = await api('PATCH', `/api/admin/users/${reg.body.id}/approve`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'usuário aprovado' });
    expect((await api('POST', '/auth/login', { body: creds })).status).toBe(200);
    expect(
      (await api('GET', '/api/admin/users/pending', { token: admin.token })).body.map((u: { id: string }) => u.id),
    ).not.toContain(reg.body.id);
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    const admin = await makeAdmin();
    expectError(
      await api('PATCH', `/api/admin/users/${crypto.randomUUID()}/approve`, { token: admin.token }),
      404,
      'NOT_FOUND',
    );
    expectError(await api('PATCH', '/api/admin/users/1/approve', { token: admin.token }), 400, 'INVALID_ID');
  });
});

describe('PATCH /api/admin/users/{id}/role', () => {
  it("changes the role, effective at once for the user's current token", async () => {
    const admin = await makeAdmin();
    const u = await makeUser({ role: 'RESEARCHER' });
    expectError(await api('GET', '/api/admin/users', { token: u.token }), 403, 'FORBIDDEN');
    const res = await api('PATCH', `/api/admin/users/${u.id}/role`, {
      token: admin.token,
      body: { role: 'BUSINESS_OWNER' },
    });
    expect(res.status).toBe(200);
    expect((await api('GET', '/api/admin/users', { token: u.token })).status).toBe(200);
  });

  it("refuses changing one's own role and touching SUPERADMIN without being one", async () => {
    const admin = await makeAdmin();
    expectError(
      await api('PATCH', `/api/admin/users/${admin.id}/role`, { token: admin.token, body: { role: 'RESEARCHER' } }),
      403,
      'FORBIDDEN',
    );
    const owner = await makeUser({ role: 'BUSINESS_OWNER' });
    const u = await makeUser();
    expectError(
      await api('PATCH', `/api/admin/users/${u.id}/role`, { token: owner.token, body: { role: 'SUPERADMIN' } }),
      403,
      'FORBIDDEN',
    );
    expectError(
      await api('PATCH', `/api/admin/users/${admin.id}/role`, { token: owner.token, body: { role: 'RESEARCHER' } }),
      403,
      'FORBIDDEN',
    );
    expect(
      (await api('PATCH', `/api/admin/users/${u.id}/role`, { token: admin.token, body: { role: 'SUPERADMIN' } }))
        .status,
    ).toBe(200);
  });

  it('validates the role and the id', async () => {
    const admin = await makeAdmin();
    const u = await makeUser();
    expectError(
      await api('PATCH', `/api/admin/users/${u.id}/role`, { token: admin.token, body: { role: 'REI' } }),
      400,
      'VALIDATION_FAILED',
    );
    expectError(
      await api('PATCH', `/api/admin/users/${u.id}/role`, { token: admin.token, body: {} }),
      400,
      'VALIDATION_FAILED',
    );
    expectError(
      await api('PATCH', `/api/admin/users/${crypto.randomUUID()}/role`, {
        token: admin.token,
        body: { role: 'RESEARCHER' },
      }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await api('PATCH', '/api/admin/users/x/role', { token: admin.token, body: { role: 'RESEARCHER' } }),
      400,
      'INVALID_ID',
    );
  });
});

// Issue 32 item 12: one rule for every action on another account (services/accounts/users.ts assertMayActOn / mayActOnRow).
describe('only a SUPERADMIN acts on a SUPERADMIN account', () => {
  it('a BUSINESS_OWNER gets the same 403 on every action that targets a SUPERADMIN, and nothing changes', async () => {
    const owner = await makeUser({ role: 'BUSINESS_OWNER' });
    const target = await makeAdmin();
    const pending = await makeAdmin({ ativo: false });
    const profile = await makeProfissional('SP', { usuarioId: target.id });
    const refusals = [
      await api('POST', `/api/admin/users/${target.id}/convite-acesso`, { token: owner.token }),
      await api('DELETE', `/api/admin/users/${target.id}`, { token: owner.token }),
      await api('PATCH', `/api/admin/users/${target.id}/role`, { token: owner.token, body: { role: 'RESEARCHER' } }),
      await api('PATCH', `/api/admin/users/${pending.id}/approve`, { token: owner.token }),
      await api('POST', '/api/admin/users', { token: owner.token, body: newUser({ role: 'SUPERADMIN' }) }),
      await api('DELETE', `/api/profissionais/${profile.id}`, { token: owner.token, regiao: 'SP' }),
    ];
    const sentences = new Set<string>();
    for (const res of refusals) {
      expectError(res, 403, 'FORBIDDEN');
      sentences.add(res.body.error);
    }
    expect([...sentences]).toEqual(['só um SUPERADMIN pode agir sobre uma conta SUPERADMIN ou dar esse papel']);
    // No invitation was made or mailed, nor logged; the accounts and the profile are as they were.
    expect(await db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, target.id))).toHaveLength(
      0,
    );
    expect(await db.select().from(emailOutbox).where(eq(emailOutbox.para, target.email))).toHaveLength(0);
    expect(await entriesOf(target.id, 'users.access_invitation')).toHaveLength(0);
    const [t] = await db.select().from(users).where(eq(users.id, target.id));
    expect(t).toMatchObject({ role: 'SUPERADMIN', ativo: true });
    expect((await db.select().from(users).where(eq(users.id, pending.id)))[0]!.ativo).toBe(false);
    expect(await db.select().from(profissionais).where(eq(profissionais.id, profile.id))).toHaveLength(1);
  });

  it('a SUPERADMIN sends a SUPERADMIN an access invitation; a BUSINESS_OWNER one to anyone else; an unknown id is 404', async () => {
    const superadmin = await makeAdmin();
    const owner = await makeUser({ role: 'BUSINESS_OWNER' });
    const target = await makeAdmin();
    expect(
      (await api('POST', `/api/admin/users/${target.id}/convite-acesso`, { token: superadmin.token })).status,
    ).toBe(202);
    const other = await makeUser({ role: 'BUSINESS_OWNER' });
    expect((await api('POST', `/api/admin/users/${other.id}/convite-acesso`, { token: owner.token })).status).toBe(202);
    expectError(
      await api('POST', `/api/admin/users/${crypto.randomUUID()}/convite-acesso`, { token: owner.token }),
      404,
      'NOT_FOUND',
    );
  });
});

describe('PATCH /api/admin/users/{id}/role: an EVENT_OWNER belongs to a company (issue 32 item 18)', () => {
  const roleOf = async (id: string) =>
    (await db.select({ role: users.role, empresaId: users.empresaId }).from(users).where(eq(users.id, id)))[0];
  const patchRole = (token: string, id: string, body: unknown, regiao?: string) =>
    api('PATCH', `/api/admin/users/${id}/role`, { token, body, regiao });

  it('refuses to make an account without a company EVENT_OWNER (400 naming empresa_id); nothing changes', async () => {
    const admin = await makeAdmin();
    const u = await makeUser({ role: 'RESEARCHER' });
    const res = await patchRole(admin.token, u.id, { role: 'EVENT_OWNER' });
    expectError(res, 400, 'VALIDATION_FAILED');
    expect(res.body.error).toBe('empresa_id: é obrigatório para o perfil EVENT_OWNER');
    expectError(
      await patchRole(admin.token, u.id, { role: 'EVENT_OWNER', empresa_id: null }),
      400,
      'VALIDATION_FAILED',
    );
    expect(await roleOf(u.id)).toEqual({ role: 'RESEARCHER', empresaId: null });
    // An EVENT_OWNER may not lose its company either.
    const empresa = await makeEmpresa();
    const owner = await makeUser({ role: 'EVENT_OWNER', empresaId: empresa.id });
    expectError(
      await patchRole(admin.token, owner.id, { role: 'EVENT_OWNER', empresa_id: null }),
      400,
      'VALIDATION_FAILED',
    );
    expect(await roleOf(owner.id)).toEqual({ role: 'EVENT_OWNER', empresaId: empresa.id });
  });

  it('takes empresa_id in the same request: a company of the x-regiao region, logged with the role', async () => {
    const admin = await makeAdmin();
    const u = await makeUser({ role: 'RESEARCHER' });
    const [sp, mg] = [await makeEmpresa('SP'), await makeEmpresa('MG')];
    // Another region's company, or none at all: 404 naming the field, and nothing changes.
    for (const [empresaId, regiao] of [
      [mg.id, undefined],
      [sp.id, 'MG'],
      [crypto.randomUUID(), 'SP'],
    ] as const) {
      const res = await patchRole(admin.token, u.id, { role: 'EVENT_OWNER', empresa_id: empresaId }, regiao);
      expectError(res, 404, 'NOT_FOUND');
      expect(res.body.error).toBe('empresa_id: empresa não encontrada nesta região');
    }
    expect(await roleOf(u.id)).toEqual({ role: 'RESEARCHER', empresaId: null });
    const res = await patchRole(admin.token, u.id, { role: 'EVENT_OWNER', empresa_id: mg.id.toUpperCase() }, 'MG');
    expect(res.status).toBe(200);
    expect(await roleOf(u.id)).toEqual({ role: 'EVENT_OWNER', empresaId: mg.id });
    const me = await api('GET', '/api/me', { token: u.token });
    expect(me.body.user).toMatchObject({ role: 'EVENT_OWNER', company_id: mg.id });
    const [entry] = await db
      .select()
      .from(logsAtividade)
      .where(and(eq(logsAtividade.entidadeId, u.id), eq(logsAtividade.acao, 'users.role')));
    expect(JSON.parse(entry!.dados as string)).toEqual({
      role: { antes: 'RESEARCHER', depois: 'EVENT_OWNER' },
      empresa_id: { antes: null, depois: mg.id },
    });
  });

  it('the old request shape keeps working for other roles and for an account that already has a company', async () => {
    const admin = await makeAdmin();
    const empresa = await makeEmpresa();
    const withCompany = await makeUser({ role: 'RESEARCHER', empresaId: empresa.id });
    expect((await patchRole(admin.token, withCompany.id, { role: 'EVENT_OWNER' })).status).toBe(200);
    expect(await roleOf(withCompany.id)).toEqual({ role: 'EVENT_OWNER', empresaId: empresa.id });
    expect((await patchRole(admin.token, withCompany.id, { role: 'agenda_viewer' })).status).toBe(200);
    expect(await roleOf(withCompany.id)).toEqual({ role: 'agenda_viewer', empresaId: empresa.id });
    // null clears the company of an account that is not an EVENT_OWNER.
    expect((await patchRole(admin.token, withCompany.id, { role: 'RESEARCHER', empresa_id: null })).status).toBe(200);
    expect(await roleOf(withCompany.id)).toEqual({ role: 'RESEARCHER', empresaId: null });
  });

  it('5 parallel identical requests: one change, one log entry, one notification', async () => {
    const admin = await makeAdmin();
    const u = await makeUser({ role: 'RESEARCHER' });
    const empresa = await makeEmpresa();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => patchRole(admin.token, u.id, { role: 'EVENT_OWNER', empresa_id: empresa.id })),
    );
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await roleOf(u.id)).toEqual({ role: 'EVENT_OWNER', empresaId: empresa.id });
    const entries = await db
      .select()
      .from(logsAtividade)
      .where(and(eq(logsAtividade.entidadeId, u.id), eq(logsAtividade.acao, 'users.role')));
    expect(entries).toHaveLength(1);
    const notes = await db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, u.id), eq(notifications.tipo, 'papel_alterado')));
    expect(notes).toHaveLength(1);
  });
});
