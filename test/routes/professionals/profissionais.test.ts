import { env } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import {
  emailOutbox,
  funcoes,
  notifications,
  profissionais,
  profissionalFuncoes,
  refreshTokens,
  users,
} from '../../../src/db/schema';
import { inferPixKey, pixKey } from '../../../src/lib/brazil';
import { ProfissionalSchema } from '../../../src/routes/professionals/profissionais.schemas';
import { renderEmail } from '../../../src/services/core/mail';
import { entriesOf, lastSeq } from '../../helpers/activity-log';
import { failingD1 } from '../../helpers/failing-d1';
import {
  db,
  makeAdmin,
  makeCatalog,
  makeProfissional,
  makeSurveyResponse,
  makeUser,
  uniq,
  makeFuncao,
} from '../../helpers/factories';
import { expectKeptCounts, keptCountsAfterAll } from '../../helpers/kept-columns';
import { api, authHeaders, expectError } from '../../helpers/request';

keptCountsAfterAll('profissionais');

const BANK = ['banco', 'agencia', 'conta_pix', 'cpf_cnpj_titular', 'tipo_cartao'];

describe('POST /api/profissionais (administrators)', () => {
  it('creates a professional with functions, computed media and every field', async () => {
    const admin = await makeAdmin();
    const [foto, video] = [await makeFuncao(), await makeFuncao()];
    const res = await api('POST', '/api/profissionais', {
      token: admin.token,
      body: {
        nome: ' Ana Foto ',
        funcao_profissional_id: foto.id,
        funcoes_ids: [video.id],
        whatsapp: '11 99999-0000',
        uf: 'sp',
        cidade: 'Santos',
        banco: 'Itaú',
        agencia: '0001',
        conta_pix: 'Ana@Pix.com',
        tipo_chave_pix: 'email',
        cpf_cnpj_titular: '529.982.247-25',
        tipo_cartao: 'débito',
        carro_disponivel: true,
        tem_estudio: false,
        qtd_estudio: 0,
        extra_por_equipamento: true,
        qual_tec: 5,
        educacao_simpatia: 4,
        desempenho_evento: null,
        disp_horario: 4,
        media: 1,
        usuario_id: crypto.randomUUID(),
      },
    });
    expect(res.status).toBe(201);
    expect(ProfissionalSchema.safeParse(res.body).error).toBeUndefined();
    expect(res.body).toMatchObject({
      nome: 'Ana Foto',
      uf: 'SP',
      funcao_profissional_id: foto.id,
      funcao_profissional: foto.label,
      cpf_cnpj_titular: '52998224725',
      conta_pix: 'ana@pix.com',
      tipo_chave_pix: 'email',
      regime_fiscal: 'mei',
      media: 4.33,
      usuario_id: null,
      regiao: 'SP',
      carro_disponivel: true,
      banco: 'Itaú',
    });
    expect(res.body.funcoes.map((f: { id: string }) => f.id).sort()).toEqual([foto.id, video.id].sort());
  });

  it('makes the first of funcoes_ids the main function when none is named', async () => {
    const admin = await makeAdmin();
    const f = await makeFuncao();
    const res = await api('POST', '/api/profissionais', {
      token: admin.token,
      body: { nome: 'Beto', funcoes_ids: [f.id] },
    });
    expect(res.body).toMatchObject({
      funcao_profissional_id: f.id,
      funcoes: [{ id: f.id, nome: f.label }],
      media: null,
    });
  });

  it.each([
    [{ nome: '' }, 'nome: é obrigatório'],
    [{ uf: 'ZZ' }, 'uf: deve ser a sigla de um estado'],
    [{ cpf_cnpj_titular: '111.111.111-11' }, 'cpf_cnpj_titular: deve ser um CPF ou CNPJ válido'],
    [{ cpf_cnpj_titular: '11.222.333/0001-00' }, 'cpf_cnpj_titular: deve ser um CPF ou CNPJ válido'],
    [{ qual_tec: 6 }, 'qual_tec: deve ser menor ou igual a 5'],
    [{ disp_horario: -1 }, 'disp_horario: deve ser maior ou igual a 0'],
    [{ educacao_simpatia: 2.5 }, 'educacao_simpatia: deve ser um número inteiro'],
    [{ carro_disponivel: 'sim' }, 'carro_disponivel: deve ser true ou false'],
    [{ funcoes_ids: ['x'] }, 'funcoes_ids.0: deve ser um UUID'],
    [{ senha: 'segredo123' }, 'email: é obrigatório com senha'],
  ])('rejects %j with 400 naming the field', async (over, message) => {
    const admin = await makeAdmin();
    const res = await api('POST', '/api/profissionais', { token: admin.token, body: { nome: 'X', ...over } });
    expectError(res, 400, 'VALIDATION_FAILED');
    expect(res.body.error).toContain(message);
  });

  it('accepts a valid CNPJ', async () => {
    const admin = await makeAdmin();
    const res = await api('POST', '/api/profissionais', {
      token: admin.token,
      body: { nome: 'Estúdio', cpf_cnpj_titular: '11.222.333/0001-81' },
    });
    expect(res.body.cpf_cnpj_titular).toBe('11222333000181');
  });

  it('refuses functions of another region or unknown with 404', async () => {
    const admin = await makeAdmin();
    const mg = await makeFuncao('MG');
    expectError(
      await api('POST', '/api/profissionais', {
        token: admin.token,
        body: { nome: 'X', funcao_profissional_id: mg.id },
      }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await api('POST', '/api/profissionais', {
        token: admin.token,
        body: { nome: 'X', funcoes_ids: [crypto.randomUUID()] },
      }),
      404,
      'NOT_FOUND',
    );
  });

  it('team registration: with email + senha also creates an active profissional login, atomically', async () => {
    const admin = await makeAdmin();
    const email = `${uniq('team')}@example.com`;
    const res = await api('POST', '/api/profissionais', {
      token: admin.token,
      body: { nome: 'Carla Cine', email: ` ${email.toUpperCase()}`, senha: 'segredo123' },
    });
    expect(res.status).toBe(201);
    expect(res.body.usuario_id).toBeTruthy();
    expect(res.body.email).toBe(email);
    const login = await api('POST', '/auth/login', { body: { email, senha: 'segredo123' } });
    expect(login.status).toBe(200);
    expect(login.body.user).toMatchObject({ role: 'profissional', ativo: true });
    expect(login.body.profissional.id).toBe(res.body.id);
  });

  it('team registration with a taken e-mail creates nothing (400 EMAIL_TAKEN)', async () => {
    const admin = await makeAdmin();
    const taken = await makeUser();
    const nome = uniq('Ninguém');
    expectError(
      await api('POST', '/api/profissionais', {
        token: admin.token,
        body: { nome, email: taken.email, senha: 'segredo123' },
      }),
      400,
      'EMAIL_TAKEN',
    );
    expect(await db.select().from(profissionais).where(eq(profissionais.nome, nome))).toHaveLength(0);
  });
});

describe('POST /api/profissionais (own profile)', () => {
  it('lets a pending profissional create its own profile once, with the token from /auth/register', async () => {
    const f = await makeFuncao('MG');
    const reg = await api('POST', '/auth/register', {
      body: { email: `${uniq('p')}@example.com`, senha: 'segredo123', nome: 'Davi', role: 'profissional' },
    });
    const token = reg.body.access_token;
    const res = await api('POST', '/api/profissionais', {
      token,
      regiao: 'MG',
      body: { nome: 'Davi Foto', funcao_profissional_id: f.id, qual_tec: 5, email: 'other@example.com' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ usuario_id: reg.body.id, regiao: 'MG', qual_tec: null, media: null });
    expect(res.body.email).not.toBe('other@example.com');
    expectError(
      await api('POST', '/api/profissionais', { token, regiao: 'MG', body: { nome: 'De novo' } }),
      409,
      'CONFLICT',
    );
    expectError(await api('GET', `/api/profissionais/${res.body.id}`, { token, regiao: 'MG' }), 403, 'ACCOUNT_PENDING');
  });

  it('is refused to other roles, even pending', async () => {
    const viewer = await makeUser({ role: 'agenda_viewer' });
    expectError(
      await api('POST', '/api/profissionais', { token: viewer.token, body: { nome: 'X' } }),
      403,
      'FORBIDDEN',
    );
    const pending = await makeUser({ role: 'RESEARCHER', ativo: false });
    expectError(
      await api('POST', '/api/profissionais', { token: pending.token, body: { nome: 'X' } }),
      403,
      'FORBIDDEN',
    );
  });
});

describe('GET /api/profissionais', () => {
  it('lists the region by name with functions; a professional sees only its own profile', async () => {
    const admin = await makeAdmin();
    const f = await makeFuncao('MG');
    const u = await makeUser({ role: 'profissional' });
    const mine = await makeProfissional('MG', { usuarioId: u.id, banco: 'Nubank' }, [f.id]);
    const other = await makeProfissional('MG', {}, [f.id]);
    const sp = await makeProfissional('SP');
    const all = await api('GET', '/api/profissionais', { token: admin.token, regiao: 'MG' });
    const ids = all.body.map((p: { id: string }) => p.id);
    expect(ids).toEqual(expect.arrayContaining([mine.id, other.id]));
    expect(ids).not.toContain(sp.id);
    for (const p of all.body) expect(ProfissionalSchema.safeParse(p).success).toBe(true);
    const own = await api('GET', '/api/profissionais', { token: u.token, regiao: 'MG' });
    expect(own.body.map((p: { id: string }) => p.id)).toEqual([mine.id]);
    expect(own.body[0]).toMatchObject({ banco: 'Nubank', funcoes: [{ id: f.id, nome: f.label }] });
    for (const field of BANK) expect(own.body[0]).toHaveProperty(field);
  });

  it('costs the same D1 round trips for 1 and 100 professionals', async () => {
    const admin = await makeAdmin();
    const regiao = 'MG';
    const f = await makeFuncao(regiao);
    await makeProfissional(regiao, {}, [f.id]);
    const headers = authHeaders(admin.token, { 'x-regiao': regiao });
    const before = await api('GET', '/api/profissionais', { headers, countQueries: true });
    for (let i = 0; i < 100; i++) await makeProfissional(regiao, {}, [f.id]);
    const after = await api('GET', '/api/profissionais', { headers, countQueries: true });
    expect(after.body.length).toBeGreaterThanOrEqual(101);
    expect(after.roundTrips).toBe(before.roundTrips);
    expect(after.roundTrips).toBe(1); // the user row and the list in one batch
  });
});

describe('GET /api/profissionais and /{id}: functions and client ratings ride in the profile row', () => {
  it('answers functions by label and exact Bayesian ratings, in one statement after the user row', async () => {
    // Region MG: no other test of this file has survey answers, so the region means are these.
    const admin = await makeAdmin();
    const [zeta, alfa, meio] = [
      await makeCatalog(funcoes, 'MG', uniq('Zeta')),
      await makeCatalog(funcoes, 'MG', uniq('Alfa')),
      await makeCatalog(funcoes, 'MG', uniq('Meio')),
    ];
    const x = await makeProfissional('MG', {}, [zeta.id, alfa.id, meio.id]);
    const y = await makeProfissional('MG', {}, [meio.id]);
    const z = await makeProfissional('MG', {}, []);
    await makeSurveyResponse('MG', [
      [x.id, 'qual_tec', 5],
      [x.id, 'educacao_simpatia', 3],
      [y.id, 'qual_tec', 2],
    ]);
    await makeSurveyResponse('MG', [[x.id, 'qual_tec', 4]]);
    await makeSurveyResponse('MG', [[x.id, 'qual_tec', 1]], 'profissional'); // a colleague's: not a client rating

    // qual_tec: m = (5 + 2 + 4) / 3 = 11/3; educacao_simpatia: m = 3.
    // X: qual (5 * 11/3 + 9) / 7 = 3.905 → 3.9; educ (5 * 3 + 3) / 6 = 3; media (3.9 + 3) / 2 = 3.45; 2 responses.
    // Y: qual (5 * 11/3 + 2) / 6 = 3.389 → 3.39; 1 response. Z: none.
    const none = { qual_tec: null, educacao_simpatia: null, desempenho_evento: null, disp_horario: null };
    const expected = {
      [x.id]: {
        funcoes: [alfa, meio, zeta].map((f) => ({ id: f.id, nome: f.label })),
        avaliacao_clientes: { ...none, qual_tec: 3.9, educacao_simpatia: 3, media: 3.45, respostas: 2 },
      },
      [y.id]: {
        funcoes: [{ id: meio.id, nome: meio.label }],
        avaliacao_clientes: { ...none, qual_tec: 3.39, media: 3.39, respostas: 1 },
      },
      [z.id]: { funcoes: [], avaliacao_clientes: { ...none, media: null, respostas: 0 } },
    };
    const headers = authHeaders(admin.token, { 'x-regiao': 'MG' });
    const pick = (p: { id: string; funcoes: unknown; avaliacao_clientes: unknown }) => ({
      funcoes: p.funcoes,
      avaliacao_clientes: p.avaliacao_clientes,
    });

    const list = await api('GET', '/api/profissionais', { headers, countQueries: true });
    expect(list.status).toBe(200);
    const listed = Object.fromEntries(list.body.map((p: { id: string }) => [p.id, p]));
    for (const id of [x.id, y.id, z.id]) expect(pick(listed[id])).toEqual(expected[id]);
    // avaliacao_clientes answered last, as ever.
    expect(Object.keys(listed[x.id]).at(-1)).toBe('avaliacao_clientes');
    expect([list.roundTrips, list.statements]).toEqual([1, 2]); // the user row, the profiles

    const paged = await api('GET', '/api/profissionais?limit=500', { headers, countQueries: true });
    expect(paged.body).toEqual(list.body);
    expect(paged.headers.get('x-total-count')).toBe(String(list.body.length));
    expect([paged.roundTrips, paged.statements]).toEqual([1, 3]); // the user row, the page, its total

    for (const id of [x.id, y.id, z.id]) {
      const one = await api('GET', `/api/profissionais/${id}`, { headers, countQueries: true });
      expect(one.body).toEqual(listed[id]);
      expect([one.roundTrips, one.statements]).toEqual([1, 2]); // the user row, the profile
    }
  });
});

describe('profiles of pending accounts', () => {
  it('are absent from the list, its total and contagem until an administrator approves the account', async () => {
    const admin = await makeAdmin();
    const f = await makeFuncao('MG');
    const reg = await api('POST', '/auth/register', {
      body: { email: `${uniq('p')}@example.com`, senha: 'segredo123', nome: 'Pendente', role: 'profissional' },
    });
    const own = await api('POST', '/api/profissionais', {
      token: reg.body.access_token,
      regiao: 'MG',
      body: { nome: uniq('Pendente'), funcoes_ids: [f.id] },
    });
    expect(own.status).toBe(201);
    const listed = async () => {
      const all = await api('GET', '/api/profissionais', { token: admin.token, regiao: 'MG' });
      const page = await api('GET', '/api/profissionais?limit=500', { token: admin.token, regiao: 'MG' });
      const counts = await api('GET', '/api/profissionais/contagem', { token: admin.token, regiao: 'MG' });
      return {
        inList: all.body.some((p: { id: string }) => p.id === own.body.id),
        inPage: page.body.some((p: { id: string }) => p.id === own.body.id),
        totalsAgree:
          Number(page.headers.get('x-total-count')) === all.body.length && all.body.length === page.body.length,
        counted: counts.body.find((r: { funcao_id: string }) => r.funcao_id === f.id)?.total,
      };
    };
    expect(await listed()).toEqual({ inList: false, inPage: false, totalsAgree: true, counted: 0 });
    expect((await api('PATCH', `/api/admin/users/${reg.body.id}/approve`, { token: admin.token })).status).toBe(200);
    expect(await listed()).toEqual({ inList: true, inPage: true, totalsAgree: true, counted: 1 });
    // The page's total is kept by triggers (drizzle/0025): it follows the account and the profile
    // however they change. An account switched off by hand (a console) takes the profile out again;
    await db.update(users).set({ ativo: false }).where(eq(users.id, reg.body.id));
    expect(await listed()).toEqual({ inList: false, inPage: false, totalsAgree: true, counted: 0 });
    await expectKeptCounts();
    // the account deleted leaves the profile unlinked, so listed (ON DELETE SET NULL);
    await db.delete(refreshTokens).where(eq(refreshTokens.userId, reg.body.id));
    await db.delete(users).where(eq(users.id, reg.body.id));
    expect(await listed()).toEqual({ inList: true, inPage: true, totalsAgree: true, counted: 1 });
    await expectKeptCounts();
    // moved to another region by hand, then deleted through the API.
    await db.update(profissionais).set({ regiao: 'SP' }).where(eq(profissionais.id, own.body.id));
    expect(await listed()).toMatchObject({ inList: false, totalsAgree: true });
    await expectKeptCounts();
    await db.update(profissionais).set({ regiao: 'MG' }).where(eq(profissionais.id, own.body.id));
    const gone = await api('DELETE', `/api/profissionais/${own.body.id}`, { token: admin.token, regiao: 'MG' });
    expect(gone.status).toBe(200);
    expect(await listed()).toMatchObject({ inList: false, totalsAgree: true });
    expect((await expectKeptCounts()).profissionais).toBeGreaterThan(0);
  });
});

describe('GET /api/profissionais/contagem', () => {
  it('counts professionals once under each function they hold, in one query', async () => {
    const admin = await makeAdmin();
    const [a, b, empty] = [await makeFuncao('MG'), await makeFuncao('MG'), await makeFuncao('MG')];
    await makeProfissional('MG', {}, [a.id, b.id]);
    await makeProfissional('MG', {}, [a.id]);
    const res = await api('GET', '/api/profissionais/contagem', {
      token: admin.token,
      regiao: 'MG',
      countQueries: true,
    });
    expect(res.status).toBe(200);
    const byId = Object.fromEntries(res.body.map((r: { funcao_id: string; total: number }) => [r.funcao_id, r]));
    expect(byId[a.id]).toEqual({ funcao_id: a.id, funcao_nome: a.label, total: 2 });
    expect(byId[b.id].total).toBe(1);
    expect(byId[empty.id].total).toBe(0);
    expect(res.roundTrips).toBe(1); // the user row and the count in one batch
    const viewer = await makeUser({ role: 'profissional' });
    expectError(await api('GET', '/api/profissionais/contagem', { token: viewer.token }), 403, 'FORBIDDEN');
  });
});

describe('GET /api/profissionais/contagem (kept by triggers, drizzle/0030)', () => {
  it('follows functions replaced, re-keyed by hand and a profile deleted', async () => {
    const admin = await makeAdmin();
    const [a, b] = [await makeFuncao('MG'), await makeFuncao('MG')];
    const counted = async () => {
      const res = await api('GET', '/api/profissionais/contagem', { token: admin.token, regiao: 'MG' });
      expect(res.status).toBe(200);
      const byId = Object.fromEntries(
        res.body.map((r: { funcao_id: string; total: number }) => [r.funcao_id, r.total]),
      );
      return [byId[a.id], byId[b.id]];
    };
    const p = await makeProfissional('MG', {}, [a.id]);
    expect(await counted()).toEqual([1, 0]);
    const put = await api('PUT', `/api/profissionais/${p.id}`, {
      token: admin.token,
      regiao: 'MG',
      body: { funcoes_ids: [a.id, b.id] },
    });
    expect(put.status).toBe(200);
    expect(await counted()).toEqual([1, 1]);
    // by hand (a console, a script): a function taken away, then one moved to another function
    await env.DB.prepare('DELETE FROM profissional_funcoes WHERE profissional_id = ? AND funcao_id = ?')
      .bind(p.id, b.id)
      .run();
    expect(await counted()).toEqual([1, 0]);
    await env.DB.prepare('UPDATE profissional_funcoes SET funcao_id = ? WHERE profissional_id = ? AND funcao_id = ?')
      .bind(b.id, p.id, a.id)
      .run();
    expect(await counted()).toEqual([0, 1]);
    await expectKeptCounts();
    // a pending account's profile does not count; its profile deleted (cascade) leaves nothing behind
    const pending = await makeUser({ role: 'profissional', ativo: false });
    const q = await makeProfissional('MG', { usuarioId: pending.id }, [a.id, b.id]);
    expect(await counted()).toEqual([0, 1]);
    await db.update(users).set({ ativo: true }).where(eq(users.id, pending.id));
    expect(await counted()).toEqual([1, 2]);
    expect((await api('DELETE', `/api/profissionais/${p.id}`, { token: admin.token, regiao: 'MG' })).status).toBe(200);
    expect(await counted()).toEqual([1, 1]);
    await env.DB.prepare('DELETE FROM profissionais WHERE id = ?').bind(q.id).run();
    expect(await counted()).toEqual([0, 0]);
    expect((await expectKeptCounts()).profissionais).toBeGreaterThan(0);
  });
});

describe('GET/PUT /api/profissionais/{id}', () => {
  it("answers 404 for unknown, other-region and (for a professional) others' profiles; 400 for bad ids", async () => {
    const admin = await makeAdmin();
    const u = await makeUser({ role: 'profissional' });
    await makeProfissional('SP', { usuarioId: u.id });
    const other = await makeProfissional('SP');
    expect((await api('GET', `/api/profissionais/${other.id}`, { token: admin.token })).status).toBe(200);
    expectError(
      await api('GET', `/api/profissionais/${other.id}`, { token: admin.token, regiao: 'MG' }),
      404,
      'NOT_FOUND',
    );
    expectError(await api('GET', `/api/profissionais/${other.id}`, { token: u.token }), 404, 'NOT_FOUND');
    expectError(
      await api('PUT', `/api/profissionais/${other.id}`, { token: u.token, body: { nome: 'Hack' } }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await api('GET', `/api/profissionais/${crypto.randomUUID()}`, { token: admin.token }),
      404,
      'NOT_FOUND',
    );
    expectError(await api('GET', '/api/profissionais/abc', { token: admin.token }), 400, 'INVALID_ID');
    expect((await db.select().from(profissionais).where(eq(profissionais.id, other.id)))[0]?.nome).not.toBe('Hack');
  });

  it('an administrator changes ratings and functions; media is recomputed', async () => {
    const admin = await makeAdmin();
    const [a, b] = [await makeFuncao(), await makeFuncao()];
    const p = await makeProfissional('SP', { qualTec: 1 }, [a.id]);
    const res = await api('PUT', `/api/profissionais/${p.id}`, {
      token: admin.token,
      body: { qual_tec: 5, disp_horario: 2, funcoes_ids: [b.id] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ qual_tec: 5, disp_horario: 2, media: 3.5, funcao_profissional_id: a.id });
    expect(res.body.funcoes.map((f: { id: string }) => f.id).sort()).toEqual([a.id, b.id].sort());
    const main = await api('PUT', `/api/profissionais/${p.id}`, {
      token: admin.token,
      body: { funcao_profissional_id: b.id, funcoes_ids: [] },
    });
    expect(main.body.funcoes).toEqual([{ id: b.id, nome: b.label }]);
  });

  it('a professional updates its own non-rating fields; ratings, e-mail and links stay', async () => {
    const u = await makeUser({ role: 'profissional' });
    const p = await makeProfissional('SP', { usuarioId: u.id, qualTec: 3, email: u.email });
    const res = await api('PUT', `/api/profissionais/${p.id}`, {
      token: u.token,
      body: {
        whatsapp: '11 1',
        conta_pix: 'pix@me.com',
        tipo_chave_pix: 'email',
        qual_tec: 5,
        media: 5,
        usuario_id: crypto.randomUUID(),
        email: 'x@example.com',
        regiao: 'MG',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      whatsapp: '11 1',
      conta_pix: 'pix@me.com',
      qual_tec: 3,
      media: 3,
      usuario_id: u.id,
      email: u.email,
      regiao: 'SP',
    });
  });

  it('a professional cannot change its own functions (funcoes_ids, funcao_profissional_id): only administrators do', async () => {
    const [held, wanted] = [await makeFuncao(), await makeFuncao()];
    const u = await makeUser({ role: 'profissional' });
    const p = await makeProfissional('SP', { usuarioId: u.id, email: u.email }, [held.id]);
    const res = await api('PUT', `/api/profissionais/${p.id}`, {
      token: u.token,
      body: { whatsapp: '11 2', funcao_profissional_id: wanted.id, funcoes_ids: [wanted.id, held.id] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ whatsapp: '11 2', funcao_profissional_id: held.id });
    expect(res.body.funcoes).toEqual([{ id: held.id, nome: held.label }]);
    const stored = await db.select().from(profissionalFuncoes).where(eq(profissionalFuncoes.profissionalId, p.id));
    expect(stored.map((r) => r.funcaoId)).toEqual([held.id]);
  });

  it('PUT validates like POST', async () => {
    const admin = await makeAdmin();
    const p = await makeProfissional('SP');
    expectError(
      await api('PUT', `/api/profissionais/${p.id}`, { token: admin.token, body: { qual_tec: 9 } }),
      400,
      'VALIDATION_FAILED',
    );
    expectError(
      await api('PUT', `/api/profissionais/${p.id}`, {
        token: admin.token,
        body: { funcoes_ids: [crypto.randomUUID()] },
      }),
      404,
      'NOT_FOUND',
    );
  });
});

describe('DELETE /api/profissionais/{id}', () => {
  it('deletes the professional, its functions, its login and sessions in one batch', async () => {
    const admin = await makeAdmin();
    const f = await makeFuncao();
    const u = await makeUser({ role: 'profissional' });
    const login = await api('POST', '/auth/login', { body: { email: u.email, senha: u.password } });
    const p = await makeProfissional('SP', { usuarioId: u.id }, [f.id]);
    const res = await api('DELETE', `/api/profissionais/${p.id}`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'profissional excluído' });
    expect(await db.select().from(users).where(eq(users.id, u.id))).toHaveLength(0);
    expect(await db.select().from(refreshTokens).where(eq(refreshTokens.userId, u.id))).toHaveLength(0);
    expect(
      await db.select().from(profissionalFuncoes).where(eq(profissionalFuncoes.profissionalId, p.id)),
    ).toHaveLength(0);
    expectError(
      await api('POST', '/auth/login', { body: { email: u.email, senha: u.password } }),
      401,
      'INVALID_CREDENTIALS',
    );
    expectError(
      await api('POST', '/auth/refresh', { body: { refresh_token: login.body.refresh_token } }),
      401,
      'INVALID_REFRESH_TOKEN',
    );
  });

  it('keeps the account protections: not oneself, not a SUPERADMIN by a BUSINESS_OWNER', async () => {
    const admin = await makeAdmin();
    const own = await makeProfissional('SP', { usuarioId: admin.id });
    expectError(await api('DELETE', `/api/profissionais/${own.id}`, { token: admin.token }), 403, 'FORBIDDEN');
    const owner = await makeUser({ role: 'BUSINESS_OWNER' });
    expectError(await api('DELETE', `/api/profissionais/${own.id}`, { token: owner.token }), 403, 'FORBIDDEN');
    expect(await db.select().from(users).where(eq(users.id, admin.id))).toHaveLength(1);
  });

  it('answers 404 for unknown and other-region ids; professionals may not delete', async () => {
    const admin = await makeAdmin();
    const p = await makeProfissional('SP');
    expectError(
      await api('DELETE', `/api/profissionais/${p.id}`, { token: admin.token, regiao: 'MG' }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await api('DELETE', `/api/profissionais/${crypto.randomUUID()}`, { token: admin.token }),
      404,
      'NOT_FOUND',
    );
    const u = await makeUser({ role: 'profissional' });
    expectError(await api('DELETE', `/api/profissionais/${p.id}`, { token: u.token }), 403, 'FORBIDDEN');
  });

  it('a function still held by a professional cannot be deleted (409 IN_USE)', async () => {
    const admin = await makeAdmin();
    const f = await makeFuncao();
    await makeProfissional('SP', {}, [f.id]);
    expectError(await api('DELETE', `/api/funcoes/${f.id}`, { token: admin.token }), 409, 'IN_USE');
  });
});

describe('regime_fiscal and tipo_chave_pix (docs/decisions.md#d18 "Tax")', () => {
  const create = async (body: Record<string, unknown>) =>
    api('POST', '/api/profissionais', { token: (await makeAdmin()).token, body: { nome: uniq('Pix'), ...body } });

  it('a profile is mei unless told otherwise, in every answer (create, read, list)', async () => {
    const admin = await makeAdmin();
    const res = await api('POST', '/api/profissionais', { token: admin.token, body: { nome: uniq('Mei') } });
    expect(res.status).toBe(201);
    expect(ProfissionalSchema.safeParse(res.body).error).toBeUndefined();
    expect(res.body).toMatchObject({ regime_fiscal: 'mei', tipo_chave_pix: null, conta_pix: null });
    const one = await api('GET', `/api/profissionais/${res.body.id}`, { token: admin.token });
    expect(one.body).toMatchObject({ regime_fiscal: 'mei', tipo_chave_pix: null });
    const stored = await makeProfissional('SP', { regimeFiscal: 'pj', contaPix: '52998224725', tipoChavePix: 'cpf' });
    const list = await api('GET', '/api/profissionais?limit=500', { token: admin.token });
    expect(list.body.find((p: { id: string }) => p.id === stored.id)).toMatchObject({
      regime_fiscal: 'pj',
      tipo_chave_pix: 'cpf',
      conta_pix: '52998224725',
    });
  });

  it.each(['autonomo_rpa', 'mei', 'pj'])('accepts regime_fiscal %s on create and PUT', async (regime) => {
    const admin = await makeAdmin();
    const res = await api('POST', '/api/profissionais', {
      token: admin.token,
      body: { nome: uniq('Reg'), regime_fiscal: regime },
    });
    expect(res.status).toBe(201);
    expect(res.body.regime_fiscal).toBe(regime);
    const other = regime === 'pj' ? 'mei' : 'pj';
    const put = await api('PUT', `/api/profissionais/${res.body.id}`, {
      token: admin.token,
      body: { regime_fiscal: other },
    });
    expect(put.status).toBe(200);
    expect(put.body.regime_fiscal).toBe(other);
  });

  it('refuses an unknown or null regime_fiscal and an unknown tipo_chave_pix', async () => {
    const bad = await create({ regime_fiscal: 'clt' });
    expectError(bad, 400, 'VALIDATION_FAILED');
    expect(bad.body.error).toContain('regime_fiscal: deve ser um de: autonomo_rpa, mei, pj');
    expectError(await create({ regime_fiscal: null }), 400, 'VALIDATION_FAILED');
    const tipo = await create({ tipo_chave_pix: 'conta', conta_pix: 'x' });
    expectError(tipo, 400, 'VALIDATION_FAILED');
    expect(tipo.body.error).toContain('tipo_chave_pix: deve ser um de');
  });

  it.each([
    ['cpf', '529.982.247-25', '52998224725'],
    ['cnpj', '11.222.333/0001-81', '11222333000181'],
    ['email', ' Maria.Silva@Example.COM ', 'maria.silva@example.com'],
    ['telefone', '+55 (11) 98765-4321', '+5511987654321'],
    ['telefone', '+551133334444', '+551133334444'],
    ['aleatoria', '123E4567-E89B-12D3-A456-426614174000', '123e4567-e89b-12d3-a456-426614174000'],
    ['aleatoria', '123E4567E89B12D3A456426614174000', '123e4567e89b12d3a456426614174000'],
  ])('accepts a %s key %j and stores it as %j', async (tipo, chave, stored) => {
    const res = await create({ tipo_chave_pix: tipo, conta_pix: chave });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ tipo_chave_pix: tipo, conta_pix: stored });
    const [row] = await db.select().from(profissionais).where(eq(profissionais.id, res.body.id));
    expect(row).toMatchObject({ tipoChavePix: tipo, contaPix: stored });
  });

  it.each([
    ['cpf', '529.982.247-24', 'conta_pix: não é um CPF válido para tipo_chave_pix cpf'],
    ['cpf', '11.222.333/0001-81', 'conta_pix: não é um CPF válido para tipo_chave_pix cpf'],
    ['cnpj', '11.222.333/0001-82', 'conta_pix: não é um CNPJ válido para tipo_chave_pix cnpj'],
    ['cnpj', '529.982.247-25', 'conta_pix: não é um CNPJ válido para tipo_chave_pix cnpj'],
    ['email', 'maria.example.com', 'conta_pix: não é um e-mail válido para tipo_chave_pix email'],
    ['telefone', '11987654321', 'conta_pix: não é um telefone +55'],
    ['telefone', '+1 415 555 2671', 'conta_pix: não é um telefone +55'],
    ['telefone', '+55119876543210', 'conta_pix: não é um telefone +55'],
    ['aleatoria', '123e4567-e89b-12d3-a456-42661417400', 'conta_pix: não é uma chave aleatória'],
    ['aleatoria', '123e4567e89b12d3a4564266141740001', 'conta_pix: não é uma chave aleatória'],
    ['aleatoria', '123e4567-e89b-12d3-a456-42661417400g', 'conta_pix: não é uma chave aleatória'],
  ])('refuses a %s key %j', async (tipo, chave, message) => {
    const res = await create({ tipo_chave_pix: tipo, conta_pix: chave });
    expectError(res, 400, 'VALIDATION_FAILED');
    expect(res.body.error).toContain(message);
  });

  it('one of the pair without the other is refused: the profile has both or neither', async () => {
    const noKey = await create({ tipo_chave_pix: 'cpf' });
    expectError(noKey, 400, 'VALIDATION_FAILED');
    expect(noKey.body.error).toBe('conta_pix: é obrigatória com tipo_chave_pix cpf');
    // A key without a type is no longer refused: its type is inferred (issue 32 item 1, below).
    const noType = await create({ conta_pix: 'maria@example.com' });
    expect(noType.status).toBe(201);
    expect(noType.body).toMatchObject({ conta_pix: 'maria@example.com', tipo_chave_pix: 'email' });
    expect((await create({ conta_pix: null, tipo_chave_pix: null })).status).toBe(201);
  });

  it('a PUT of one of the pair is checked against the stored other; nothing changes when refused', async () => {
    const admin = await makeAdmin();
    const p = await makeProfissional('SP', { contaPix: '52998224725', tipoChavePix: 'cpf' });
    const put = (body: Record<string, unknown>) =>
      api('PUT', `/api/profissionais/${p.id}`, { token: admin.token, body });

    const asEmail = await put({ tipo_chave_pix: 'email' });
    expectError(asEmail, 400, 'VALIDATION_FAILED');
    expect(asEmail.body.error).toBe('conta_pix: não é um e-mail válido para tipo_chave_pix email');
    // A new key without a type is read by its own shape, not by the stored type (issue 32 item 1).
    const wrongCpf = await put({ conta_pix: '529.982.247-24' });
    expectError(wrongCpf, 400, 'VALIDATION_FAILED');
    expect(wrongCpf.body.error).toContain('tipo_chave_pix: não foi possível deduzir o tipo da chave');
    expect(wrongCpf.body.error).toContain('não é um CPF válido');
    const [unchanged] = await db.select().from(profissionais).where(eq(profissionais.id, p.id));
    expect(unchanged).toMatchObject({ contaPix: '52998224725', tipoChavePix: 'cpf' });
    // conta_pix null alone clears the pair (a client that knows no type can remove its key).
    const clearKey = await put({ conta_pix: null });
    expect(clearKey.status).toBe(200);
    expect(clearKey.body).toMatchObject({ conta_pix: null, tipo_chave_pix: null });

    const newCpf = await put({ conta_pix: '111.444.777-35' });
    expect(newCpf.status).toBe(200);
    expect(newCpf.body).toMatchObject({ tipo_chave_pix: 'cpf', conta_pix: '11144477735' });
    const both = await put({ tipo_chave_pix: 'telefone', conta_pix: '+55 11 98765-4321' });
    expect(both.body).toMatchObject({ tipo_chave_pix: 'telefone', conta_pix: '+5511987654321' });
    const cleared = await put({ tipo_chave_pix: null, conta_pix: null });
    expect(cleared.body).toMatchObject({ tipo_chave_pix: null, conta_pix: null });
    // A stored key without a type (before D18) stays as it is until the pair is touched.
    const legacy = await makeProfissional('SP', { contaPix: 'chave-antiga' });
    const renamed = await api('PUT', `/api/profissionais/${legacy.id}`, {
      token: admin.token,
      body: { nome: 'Renomeado', regime_fiscal: 'autonomo_rpa' },
    });
    expect(renamed.body).toMatchObject({
      conta_pix: 'chave-antiga',
      tipo_chave_pix: null,
      regime_fiscal: 'autonomo_rpa',
    });
    const typed = await api('PUT', `/api/profissionais/${legacy.id}`, {
      token: admin.token,
      body: { tipo_chave_pix: 'aleatoria' },
    });
    expectError(typed, 400, 'VALIDATION_FAILED');
    expect(typed.body.error).toContain('conta_pix: não é uma chave aleatória');
  });

  it('a professional sets its own key type on its profile, with the same checks', async () => {
    const u = await makeUser({ role: 'profissional' });
    const p = await makeProfissional('SP', { usuarioId: u.id, email: u.email });
    const bad = await api('PUT', `/api/profissionais/${p.id}`, {
      token: u.token,
      body: { tipo_chave_pix: 'cnpj', conta_pix: '11.222.333/0001-00' },
    });
    expectError(bad, 400, 'VALIDATION_FAILED');
    // Its own regime is no longer its to change (issue 32 item 6): the stored one is accepted.
    const res = await api('PUT', `/api/profissionais/${p.id}`, {
      token: u.token,
      body: { tipo_chave_pix: 'cnpj', conta_pix: '11.222.333/0001-81', regime_fiscal: 'mei' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ tipo_chave_pix: 'cnpj', conta_pix: '11222333000181', regime_fiscal: 'mei' });
  });

  it('PUT /api/me checks its profile key the same way, against the stored type', async () => {
    const u = await makeUser({ role: 'profissional' });
    const p = await makeProfissional('SP', {
      usuarioId: u.id,
      email: u.email,
      contaPix: '+5511987654321',
      tipoChavePix: 'telefone',
    });
    const bad = await api('PUT', '/api/me', { token: u.token, body: { profissional: { conta_pix: '11987654321' } } });
    expectError(bad, 400, 'VALIDATION_FAILED');
    // Read by its own shape (issue 32 item 1): 11 digits that are no CPF, and a phone needs +55.
    expect(bad.body.error).toContain('um telefone precisa de +55');
    const ok = await api('PUT', '/api/me', {
      token: u.token,
      body: { profissional: { conta_pix: '+55 21 3333-4444', regime_fiscal: 'mei' } },
    });
    expect(ok.status).toBe(200);
    const [row] = await db.select().from(profissionais).where(eq(profissionais.id, p.id));
    expect(row).toMatchObject({ contaPix: '+552133334444', tipoChavePix: 'telefone', regimeFiscal: 'mei' });
  });
});

describe('a PIX key without its type gets the type it shows (issue 32 item 1)', () => {
  const create = async (body: Record<string, unknown>) =>
    api('POST', '/api/profissionais', { token: (await makeAdmin()).token, body: { nome: uniq('Pix'), ...body } });

  it.each([
    [' Maria.Silva@Example.COM ', 'email', 'maria.silva@example.com'],
    ['+55 (11) 98765-4321', 'telefone', '+5511987654321'],
    ['+551133334444', 'telefone', '+551133334444'],
    ['123E4567-E89B-12D3-A456-426614174000', 'aleatoria', '123e4567-e89b-12d3-a456-426614174000'],
    ['123e4567e89b12d3a456426614174000', 'aleatoria', '123e4567e89b12d3a456426614174000'],
    ['11.222.333/0001-81', 'cnpj', '11222333000181'],
    ['11222333000181', 'cnpj', '11222333000181'],
    ['529.982.247-25', 'cpf', '52998224725'],
    // 11 digits that are a CPF and cannot be a mobile number: 52 is no area code; 111 is no mobile.
    ['52998224725', 'cpf', '52998224725'],
    ['11144477735', 'cpf', '11144477735'],
    // A valid CPF that could be a mobile number, written with a CPF's mask: a CPF.
    ['119.876.543-74', 'cpf', '11987654374'],
  ])('POST with conta_pix %j and no type stores %s %j', async (chave, tipo, stored) => {
    const res = await create({ conta_pix: chave });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ tipo_chave_pix: tipo, conta_pix: stored });
    const [row] = await db.select().from(profissionais).where(eq(profissionais.id, res.body.id));
    expect(row).toMatchObject({ tipoChavePix: tipo, contaPix: stored });
    // tipo_chave_pix: null means the same as no type.
    expect((await create({ conta_pix: chave, tipo_chave_pix: null })).body).toMatchObject({ tipo_chave_pix: tipo });
  });

  it.each([
    ['chave qualquer', 'não é um e-mail, um telefone com +55'],
    ['(11) 98765-4321', 'não é um e-mail, um telefone com +55'],
    ['+1 415 555 2671', 'não é um telefone +55 com DDD'],
    ['maria@exemplo', 'não é um e-mail válido'],
    ['529.982.247-24', 'tem 11 dígitos mas não é um CPF válido'],
    ['11.222.333/0001-82', 'tem 14 dígitos mas não é um CNPJ válido'],
    // A valid CPF that is also DDD 11 + 9 + 8 digits: a CPF, or a phone without +55?
    ['11987654374', 'é um CPF válido e também um celular sem +55'],
    ['119 8765-4374', 'é um CPF válido e também um celular sem +55'],
  ])('POST with conta_pix %j and no type: 400 naming tipo_chave_pix', async (chave, why) => {
    const res = await create({ conta_pix: chave });
    expectError(res, 400, 'VALIDATION_FAILED');
    expect(res.body.error).toMatch(/^tipo_chave_pix: /);
    expect(res.body.error).toContain(why);
    // The type given settles it.
    if (chave === '11987654374') {
      expect((await create({ conta_pix: chave, tipo_chave_pix: 'cpf' })).body).toMatchObject({ tipo_chave_pix: 'cpf' });
      const phone = await create({ conta_pix: `+55${chave}`, tipo_chave_pix: 'telefone' });
      expect(phone.body).toMatchObject({ tipo_chave_pix: 'telefone', conta_pix: '+5511987654374' });
    }
  });

  it('the pure rule (lib/brazil.ts inferPixKey) agrees with the routes', () => {
    expect(inferPixKey('+55 11 98765-4321')).toEqual({ tipo: 'telefone', chave: '+5511987654321' });
    expect(inferPixKey('11987654374')).toEqual({ error: expect.stringContaining('celular sem +55') });
    // Every key inferred is valid for its type, in the stored form pixKey gives.
    for (const chave of ['a@b.co', '+5511987654321', '11222333000181', '52998224725', '0'.repeat(32)]) {
      const inferred = inferPixKey(chave);
      expect('tipo' in inferred && pixKey(inferred.tipo, chave)).toEqual({
        chave: 'chave' in inferred && inferred.chave,
      });
    }
  });

  it('PUT of the key alone: the new key decides the type (never the stale one); null clears the pair; the stored key sent again changes nothing', async () => {
    const admin = await makeAdmin();
    const p = await makeProfissional('SP', { contaPix: '52998224725', tipoChavePix: 'cpf' });
    const put = (id: string, body: Record<string, unknown>) =>
      api('PUT', `/api/profissionais/${id}`, { token: admin.token, body });

    const email = await put(p.id, { conta_pix: 'Nova@Chave.com' });
    expect(email.status).toBe(200);
    expect(email.body).toMatchObject({ conta_pix: 'nova@chave.com', tipo_chave_pix: 'email' });
    const phone = await put(p.id, { conta_pix: '+55 21 98888-7777' });
    expect(phone.body).toMatchObject({ conta_pix: '+5521988887777', tipo_chave_pix: 'telefone' });
    // A key that fits no type is refused whatever type is stored; nothing changes.
    const bad = await put(p.id, { conta_pix: '21988887777' });
    expectError(bad, 400, 'VALIDATION_FAILED');
    expect(bad.body.error).toMatch(/^tipo_chave_pix: /);
    const [kept] = await db.select().from(profissionais).where(eq(profissionais.id, p.id));
    expect(kept).toMatchObject({ contaPix: '+5521988887777', tipoChavePix: 'telefone' });
    // The whole form saved again (the stored key, no type) keeps the pair as it is.
    const same = await put(p.id, { nome: 'Mesmo Nome', conta_pix: '+5521988887777' });
    expect(same.body).toMatchObject({ nome: 'Mesmo Nome', conta_pix: '+5521988887777', tipo_chave_pix: 'telefone' });
    // tipo_chave_pix null alone reads the stored key again.
    expect((await put(p.id, { tipo_chave_pix: null })).body).toMatchObject({ tipo_chave_pix: 'telefone' });
    const cleared = await put(p.id, { conta_pix: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ conta_pix: null, tipo_chave_pix: null });
    expectError(await put(p.id, { tipo_chave_pix: 'cpf' }), 400, 'VALIDATION_FAILED');

    // A key stored before the type existed, sent back with the rest of the form: not checked, not changed.
    const legacy = await makeProfissional('SP', { contaPix: 'chave-antiga' });
    const resent = await put(legacy.id, { whatsapp: '11 3', conta_pix: 'chave-antiga', tipo_chave_pix: null });
    expect(resent.status).toBe(200);
    expect(resent.body).toMatchObject({ whatsapp: '11 3', conta_pix: 'chave-antiga', tipo_chave_pix: null });
    const typed = await put(legacy.id, { conta_pix: '111.444.777-35' });
    expect(typed.body).toMatchObject({ conta_pix: '11144477735', tipo_chave_pix: 'cpf' });
  });

  it('team registration (email and senha) and PUT /api/me take a key without its type', async () => {
    const admin = await makeAdmin();
    const email = `${uniq('equipe')}@example.com`;
    const team = await api('POST', '/api/profissionais', {
      token: admin.token,
      body: { nome: uniq('Equipe'), email, senha: 'segredo123', conta_pix: '11.222.333/0001-81' },
    });
    expect(team.status).toBe(201);
    expect(team.body).toMatchObject({ conta_pix: '11222333000181', tipo_chave_pix: 'cnpj' });
    const login = await api('POST', '/auth/login', { body: { email, senha: 'segredo123' } });
    const me = await api('PUT', '/api/me', {
      token: login.body.access_token,
      body: { profissional: { conta_pix: ' Eu@Pix.com ' } },
    });
    expect(me.status).toBe(200);
    expect(me.body.profissional).toMatchObject({ conta_pix: 'eu@pix.com', tipo_chave_pix: 'email' });
    const bad = await api('PUT', '/api/me', {
      token: login.body.access_token,
      body: { profissional: { conta_pix: '11987654374' } },
    });
    expectError(bad, 400, 'VALIDATION_FAILED');
    expect(bad.body.error).toMatch(/^tipo_chave_pix: /);
  });
});

describe("regime_fiscal is the administrators'; a professional's own PIX change is told (issue 32 item 6)", () => {
  const chavePixNotes = (userId: string) =>
    db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, userId), eq(notifications.tipo, 'chave_pix_alterada')));
  const pixMails = (para: string) =>
    db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.para, para), eq(emailOutbox.tipo, 'chave_pix_alterada')));

  /** A professional with a login and a profile in SP (regime `mei`, an e-mail PIX key). */
  async function ownProfile(over: Partial<typeof profissionais.$inferInsert> = {}) {
    const u = await makeUser({ role: 'profissional' });
    const p = await makeProfissional('SP', {
      usuarioId: u.id,
      email: u.email,
      contaPix: `${uniq('pix')}@example.com`,
      tipoChavePix: 'email',
      ...over,
    });
    return { u, p };
  }

  it('a professional changing its own regime_fiscal: 403 by PUT /api/profissionais/{id}, PUT /api/me and its own create; its stored value passes; an administrator changes it', async () => {
    const { u, p } = await ownProfile();
    const viaPut = await api('PUT', `/api/profissionais/${p.id}`, {
      token: u.token,
      body: { nome: 'Outro Nome', regime_fiscal: 'pj' },
    });
    expectError(viaPut, 403, 'FORBIDDEN');
    expect(viaPut.body.error).toContain('regime_fiscal: só um administrador altera o regime fiscal');
    for (const path of ['/api/me', '/api/users/me']) {
      const viaMe = await api('PUT', path, {
        token: u.token,
        body: { profissional: { regime_fiscal: 'autonomo_rpa' } },
      });
      expectError(viaMe, 403, 'FORBIDDEN');
      expect(viaMe.body.error).toContain('regime_fiscal');
    }
    const [untouched] = await db.select().from(profissionais).where(eq(profissionais.id, p.id));
    expect(untouched).toMatchObject({ regimeFiscal: 'mei', nome: p.nome });

    // The value it already has (a form saved whole) passes, and the other fields are written.
    const same = await api('PUT', `/api/profissionais/${p.id}`, {
      token: u.token,
      body: { nome: 'Outro Nome', regime_fiscal: 'mei' },
    });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ nome: 'Outro Nome', regime_fiscal: 'mei' });
    const sameMe = await api('PUT', '/api/me', {
      token: u.token,
      body: { profissional: { regime_fiscal: 'mei', cidade: 'Santos' } },
    });
    expect(sameMe.status).toBe(200);
    expect(sameMe.body.profissional).toMatchObject({ cidade: 'Santos', regime_fiscal: 'mei' });

    // An administrator sets it; the professional then keeps sending what it has.
    const admin = await makeUser({ role: 'BUSINESS_OWNER' });
    const byAdmin = await api('PUT', `/api/profissionais/${p.id}`, {
      token: admin.token,
      body: { regime_fiscal: 'autonomo_rpa' },
    });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.regime_fiscal).toBe('autonomo_rpa');
    expectError(
      await api('PUT', '/api/me', { token: u.token, body: { profissional: { regime_fiscal: 'mei' } } }),
      403,
      'FORBIDDEN',
    );
    const kept = await api('PUT', '/api/me', {
      token: u.token,
      body: { profissional: { regime_fiscal: 'autonomo_rpa' } },
    });
    expect(kept.status).toBe(200);
    const [row] = await db.select().from(profissionais).where(eq(profissionais.id, p.id));
    expect(row!.regimeFiscal).toBe('autonomo_rpa');

    // Its own profile's creation: only the default.
    const fresh = await makeUser({ role: 'profissional' });
    const own = (regime_fiscal: string) =>
      api('POST', '/api/profissionais', { token: fresh.token, body: { nome: uniq('Proprio'), regime_fiscal } });
    expectError(await own('pj'), 403, 'FORBIDDEN');
    const created = await own('mei');
    expect(created.status).toBe(201);
    expect(created.body.regime_fiscal).toBe('mei');
  });

  it("a professional's own PIX change: the update's log entry carries it, and it, the region's administrators and its e-mail are told", async () => {
    const { u, p } = await ownProfile();
    const superadmin = await makeAdmin();
    const ownerSp = await makeUser({ role: 'BUSINESS_OWNER' });
    await makeProfissional('SP', { usuarioId: ownerSp.id });
    const ownerMg = await makeUser({ role: 'BUSINESS_OWNER' });
    await makeProfissional('MG', { usuarioId: ownerMg.id });
    const since = await lastSeq();

    const res = await api('PUT', `/api/profissionais/${p.id}`, {
      token: u.token,
      body: { conta_pix: '+55 11 98765-4321' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ conta_pix: '+5511987654321', tipo_chave_pix: 'telefone' });

    const [mine] = await chavePixNotes(u.id);
    expect(mine).toMatchObject({ titulo: 'Chave PIX alterada', dados: { profissional_id: p.id } });
    expect(mine!.mensagem).toContain('Sua chave PIX foi alterada');
    for (const admin of [superadmin, ownerSp]) {
      const notes = await chavePixNotes(admin.id);
      expect(notes).toHaveLength(1);
      expect(notes[0]!.mensagem).toBe(
        `A chave PIX de ${p.nome} foi alterada pelo próprio profissional; confira antes de aprovar o próximo repasse.`,
      );
    }
    expect(await chavePixNotes(ownerMg.id)).toEqual([]);
    // No notification or e-mail carries the key beyond its last 4 characters.
    const [mail] = await pixMails(u.email);
    expect(mail).toMatchObject({ dados: { tipo_chave_pix: 'telefone', final: '4321' } });
    expect(JSON.stringify([mine, mail])).not.toContain('98765');
    const text = renderEmail(mail!, { APP_URL: 'https://app.test' }).text;
    expect(text).toContain('agora é do tipo telefone, terminada em 4321');

    const [entry] = (await entriesOf(p.id, 'profissionais.update')).filter((e) => e.seq > since);
    expect(entry).toMatchObject({ ator_id: u.id, regiao: 'SP' });
    expect(entry!.dados).toMatchObject({
      conta_pix: { antes: expect.stringMatching(/^\*\*\*/), depois: '***4321' },
      tipo_chave_pix: { antes: 'email', depois: 'telefone' },
    });
    expect(JSON.stringify(entry)).not.toContain('98765');

    // The same key again, another field, an administrator's change of it: nobody is told again.
    await api('PUT', `/api/profissionais/${p.id}`, { token: u.token, body: { conta_pix: '+5511987654321' } });
    await api('PUT', '/api/me', { token: u.token, body: { profissional: { cidade: 'Campinas' } } });
    const byAdmin = await api('PUT', `/api/profissionais/${p.id}`, {
      token: ownerSp.token,
      body: { conta_pix: 'escritorio@example.com' },
    });
    expect(byAdmin.body.tipo_chave_pix).toBe('email');
    expect(await chavePixNotes(u.id)).toHaveLength(1);
    expect(await chavePixNotes(superadmin.id)).toHaveLength(1);
    expect(await pixMails(u.email)).toHaveLength(1);

    // PUT /api/me tells the same people; clearing the key too.
    const viaMe = await api('PUT', '/api/me', { token: u.token, body: { profissional: { conta_pix: null } } });
    expect(viaMe.status).toBe(200);
    expect(viaMe.body.profissional).toMatchObject({ conta_pix: null, tipo_chave_pix: null });
    expect(await chavePixNotes(u.id)).toHaveLength(2);
    expect(await chavePixNotes(ownerSp.id)).toHaveLength(2);
    expect(await chavePixNotes(ownerMg.id)).toEqual([]);
    const mails = await pixMails(u.email);
    expect(mails).toHaveLength(2);
    const removed = mails.find((m) => (m.dados as { final: unknown }).final === null)!;
    expect(renderEmail(removed, { APP_URL: 'https://app.test' }).text).toContain('acabou de ser removida');
  });

  it('N parallel requests with the same new key: each person is told once', async () => {
    const { u, p } = await ownProfile();
    const owner = await makeUser({ role: 'BUSINESS_OWNER' });
    await makeProfissional('SP', { usuarioId: owner.id });
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        i % 2
          ? api('PUT', `/api/profissionais/${p.id}`, { token: u.token, body: { conta_pix: '11.222.333/0001-81' } })
          : api('PUT', '/api/me', { token: u.token, body: { profissional: { conta_pix: '11222333000181' } } }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(200));
    expect(await chavePixNotes(u.id)).toHaveLength(1);
    expect(await chavePixNotes(owner.id)).toHaveLength(1);
    expect(await pixMails(u.email)).toHaveLength(1);
  });

  it('a PIX change whose write fails tells nobody: the notices are in its batch', async () => {
    const { u, p } = await ownProfile();
    const owner = await makeUser({ role: 'BUSINESS_OWNER' });
    await makeProfissional('SP', { usuarioId: owner.id });
    const since = await lastSeq();
    for (const [path, body] of [
      [`/api/profissionais/${p.id}`, { conta_pix: 'desviada@example.com' }],
      ['/api/me', { profissional: { conta_pix: 'desviada@example.com' } }],
    ] as const) {
      const failing = failingD1(env.DB, {
        batch: (sqls) => sqls.some((q) => q.startsWith('update "profissionais"')),
        statement: (q) => q.startsWith('update "profissionais"'),
      });
      const log = vi.spyOn(console, 'error').mockImplementation(() => {});
      const res = await api('PUT', path, { token: u.token, body, bindings: { DB: failing.db } });
      log.mockRestore();
      expect(failing.injected).toBe(1);
      expect(res.status).toBe(500);
      // The notices stood before the update in the failed batch.
      expect(failing.batches.at(-1)!.some((q) => q.startsWith('insert into "notifications"'))).toBe(true);
    }
    const [row] = await db.select().from(profissionais).where(eq(profissionais.id, p.id));
    expect(row!.contaPix).toBe(p.contaPix);
    expect(await chavePixNotes(u.id)).toEqual([]);
    expect(await chavePixNotes(owner.id)).toEqual([]);
    expect(await pixMails(u.email)).toEqual([]);
    expect((await entriesOf(p.id, 'profissionais.update')).filter((e) => e.seq > since)).toEqual([]);
  });
});
