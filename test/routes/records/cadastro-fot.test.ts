import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { cadastroFot } from '../../../src/db/schema';
import { FotSchema } from '../../../src/routes/records/cadastro-fot.schemas';
import { db, makeAdmin, makeFot, makeFotRefs, makeUser, nextFot } from '../../helpers/factories';
import { expectKeptCounts, keptCountsAfterAll } from '../../helpers/kept-columns';
import { api, expectError } from '../../helpers/request';

keptCountsAfterAll('fots');

async function fotBody(regiao = 'SP', over: Record<string, unknown> = {}) {
  const r = await makeFotRefs(regiao);
  return { fot: nextFot(), empresa_id: r.empresa.id, curso_id: r.curso.id, ano_formatura_id: r.ano.id, ...over };
}

describe('POST /api/cadastro-fot', () => {
  it('creates a record with joined names, region, money and a stored uppercase UF', async () => {
    const admin = await makeAdmin();
    const body = await fotBody('MG', {
      instituicao: ' UFMG ',
      cidade: 'Belo Horizonte',
      estado: 'mg',
      observacoes: 'turma grande',
      gastos_captacao: 1234.5,
      pre_venda: true,
    });
    const res = await api('POST', '/api/cadastro-fot', { token: admin.token, regiao: 'MG', body });
    expect(res.status).toBe(201);
    expect(FotSchema.safeParse(res.body).error).toBeUndefined();
    expect(res.body).toMatchObject({
      fot: body.fot,
      regiao: 'MG',
      instituicao: 'UFMG',
      estado: 'MG',
      gastos_captacao: 1234.5,
      pre_venda: true,
    });
    expect(res.body.empresa_nome).toBeTruthy();
    expect(res.body.ano_formatura_label).toMatch(/^2026\./);
    const [row] = await db.select().from(cadastroFot).where(eq(cadastroFot.id, res.body.id));
    expect(row?.gastosCaptacaoCentavos).toBe(123450);
  });

  it('stores region SP when x-regiao is missing', async () => {
    const admin = await makeAdmin();
    const res = await api('POST', '/api/cadastro-fot', { token: admin.token, body: await fotBody('SP') });
    expect(res.status).toBe(201);
    expect(res.body.regiao).toBe('SP');
    expect(res.body.pre_venda).toBe(false);
    expect(res.body.gastos_captacao).toBeNull();
  });

  it.each([
    [{ fot: undefined }, 'fot: é obrigatório'],
    [{ fot: 0 }, 'fot: deve ser maior que 0'],
    [{ fot: 1.5 }, 'fot: deve ser um número inteiro'],
    [{ fot: '12' }, 'fot: deve ser um número'],
    [{ empresa_id: undefined }, 'empresa_id: é obrigatório'],
    [{ curso_id: 'x' }, 'curso_id: deve ser um UUID'],
    [{ estado: 'XY' }, 'estado: deve ser a sigla de um estado'],
    [{ gastos_captacao: -1 }, 'gastos_captacao: deve ser maior ou igual a 0'],
    [{ gastos_captacao: 1.234 }, 'gastos_captacao: deve ter no máximo 2 casas decimais'],
    [{ pre_venda: 'sim' }, 'pre_venda: deve ser true ou false'],
    [{ observacoes: 'x'.repeat(2001) }, 'observacoes: deve ter no máximo 2000 caracteres'],
  ])('rejects %j with 400 naming the field', async (over, message) => {
    const admin = await makeAdmin();
    const res = await api('POST', '/api/cadastro-fot', { token: admin.token, body: await fotBody('SP', over) });
    expectError(res, 400, 'VALIDATION_FAILED');
    expect(res.body.error).toContain(message);
  });

  it('refuses references of another region or unknown with 404 naming the field', async () => {
    const admin = await makeAdmin();
    const mg = await makeFotRefs('MG');
    const res = await api('POST', '/api/cadastro-fot', {
      token: admin.token,
      body: await fotBody('SP', { curso_id: mg.curso.id }),
    });
    expectError(res, 404, 'NOT_FOUND');
    expect(res.body.error).toContain('curso_id');
    const unknown = await api('POST', '/api/cadastro-fot', {
      token: admin.token,
      body: await fotBody('SP', { ano_formatura_id: crypto.randomUUID() }),
    });
    expect(unknown.body.error).toContain('ano_formatura_id');
  });

  it('refuses a taken FOT number (also from another region) with 400 DUPLICATE_FOT', async () => {
    const admin = await makeAdmin();
    const existing = await makeFot('MG');
    expectError(
      await api('POST', '/api/cadastro-fot', { token: admin.token, body: await fotBody('SP', { fot: existing.fot }) }),
      400,
      'DUPLICATE_FOT',
    );
  });

  it('lets exactly one of 10 concurrent creates with one FOT number win', async () => {
    const admin = await makeAdmin();
    const body = await fotBody('SP');
    const results = await Promise.all(
      Array.from({ length: 10 }, () => api('POST', '/api/cadastro-fot', { token: admin.token, body })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 201)) expectError(r, 400, 'DUPLICATE_FOT');
    expect(await db.select().from(cadastroFot).where(eq(cadastroFot.fot, body.fot))).toHaveLength(1);
  });
});

describe('GET /api/cadastro-fot', () => {
  it('lists the region only, newest update first, and filters by empresa_id', async () => {
    const admin = await makeAdmin();
    const a = await makeFot('SP', { updatedAt: '2026-01-01T00:00:00.000Z' });
    const b = await makeFot('SP', { updatedAt: '2026-02-01T00:00:00.000Z' });
    const mg = await makeFot('MG');
    const res = await api('GET', '/api/cadastro-fot', { token: admin.token });
    expect(res.status).toBe(200);
    const ids = res.body.map((f: { id: string }) => f.id);
    expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(a.id));
    expect(ids).not.toContain(mg.id);
    for (const f of res.body) expect(FotSchema.safeParse(f).success).toBe(true);
    const filtered = await api('GET', `/api/cadastro-fot?empresa_id=${a.empresaId}`, { token: admin.token });
    expect(filtered.body.map((f: { id: string }) => f.id)).toEqual([a.id]);
    expectError(
      await api('GET', '/api/cadastro-fot?empresa_id=nope', { token: admin.token }),
      400,
      'VALIDATION_FAILED',
    );
  });

  it('moves a record to the top after an update', async () => {
    const admin = await makeAdmin();
    const old = await makeFot('SP', { updatedAt: '2000-01-01T00:00:00.000Z' });
    await api('PUT', `/api/cadastro-fot/${old.id}`, { token: admin.token, body: { observacoes: 'mudou' } });
    const res = await api('GET', '/api/cadastro-fot', { token: admin.token });
    expect(res.body[0].id).toBe(old.id);
  });

  it("shows an EVENT_OWNER only its own company's records, and 404 for others", async () => {
    const mine = await makeFot('SP');
    const other = await makeFot('SP');
    const owner = await makeUser({ role: 'EVENT_OWNER', empresaId: mine.empresaId });
    const res = await api('GET', '/api/cadastro-fot', { token: owner.token });
    expect(res.body.map((f: { id: string }) => f.id)).toEqual([mine.id]);
    expect((await api('GET', `/api/cadastro-fot/${mine.id}`, { token: owner.token })).status).toBe(200);
    expectError(await api('GET', `/api/cadastro-fot/${other.id}`, { token: owner.token }), 404, 'NOT_FOUND');
    expectError(
      await api('POST', '/api/cadastro-fot', { token: owner.token, body: await fotBody() }),
      403,
      'FORBIDDEN',
    );
    expectError(await api('DELETE', `/api/cadastro-fot/${mine.id}`, { token: owner.token }), 403, 'FORBIDDEN');
  });

  it("a page's X-Total-Count is the list's length for each caller and filter, through moves and a delete (kept counts)", async () => {
    const admin = await makeAdmin();
    const a = await makeFot('MG');
    const b = await makeFot('MG', { empresaId: a.empresaId });
    const c = await makeFot('MG');
    const owner = await makeUser({ role: 'EVENT_OWNER', empresaId: a.empresaId });
    const cases: [string, string, string][] = [
      [admin.token, 'MG', ''],
      [admin.token, 'SP', ''],
      [admin.token, 'MG', `empresa_id=${a.empresaId}`],
      [admin.token, 'MG', `empresa_id=${c.empresaId}`],
      [owner.token, 'MG', ''],
      [owner.token, 'MG', `empresa_id=${a.empresaId}`],
    ];
    const check = async () => {
      for (const [token, regiao, q] of cases) {
        const all = await api('GET', `/api/cadastro-fot?${q}`, { token, regiao });
        const page = await api('GET', `/api/cadastro-fot?limit=1&${q}`, { token, regiao });
        expect(page.status).toBe(200);
        expect(Number(page.headers.get('X-Total-Count')), `${regiao} ${q}`).toBe(all.body.length);
      }
      await expectKeptCounts();
    };
    await check();
    // Another company and another region by hand (a console, a script), then a delete through the API.
    await db.update(cadastroFot).set({ empresaId: c.empresaId }).where(eq(cadastroFot.id, b.id));
    await check();
    await db.update(cadastroFot).set({ regiao: 'SP' }).where(eq(cadastroFot.id, c.id));
    await check();
    expect((await api('DELETE', `/api/cadastro-fot/${a.id}`, { token: admin.token, regiao: 'MG' })).status).toBe(204);
    await check();
  });

  it('costs the same number of D1 round trips for 1 and for 100 records', async () => {
    const admin = await makeAdmin();
    const refs = await makeFotRefs('MG');
    await db.insert(cadastroFot).values({
      regiao: 'MG',
      fot: nextFot(),
      empresaId: refs.empresa.id,
      cursoId: refs.curso.id,
      anoFormaturaId: refs.ano.id,
    });
    const one = await api('GET', `/api/cadastro-fot?empresa_id=${refs.empresa.id}`, {
      token: admin.token,
      regiao: 'MG',
      countQueries: true,
    });
    expect(one.body).toHaveLength(1);
    // D1 binds at most 100 parameters per statement: insert in chunks.
    for (let i = 0; i < 9; i++) {
      await db.insert(cadastroFot).values(
        Array.from({ length: 11 }, () => ({
          regiao: 'MG',
          fot: nextFot(),
          empresaId: refs.empresa.id,
          cursoId: refs.curso.id,
          anoFormaturaId: refs.ano.id,
        })),
      );
    }
    const hundred = await api('GET', `/api/cadastro-fot?empresa_id=${refs.empresa.id}`, {
      token: admin.token,
      regiao: 'MG',
      countQueries: true,
    });
    expect(hundred.body).toHaveLength(100);
    expect(hundred.roundTrips).toBe(one.roundTrips);
    expect(hundred.roundTrips).toBe(1); // the user row, the list and its total in one batch
  });
});

describe('GET/PUT/DELETE /api/cadastro-fot/{id}', () => {
  it('GET answers the record; 404 for unknown or other-region ids; 400 for malformed ones', async () => {
    const admin = await makeAdmin();
    const f = await makeFot('SP');
    expect((await api('GET', `/api/cadastro-fot/${f.id}`, { token: admin.token })).body).toMatchObject({
      id: f.id,
      fot: f.fot,
    });
    expectError(await api('GET', `/api/cadastro-fot/${f.id}`, { token: admin.token, regiao: 'MG' }), 404, 'NOT_FOUND');
    expectError(await api('GET', `/api/cadastro-fot/${crypto.randomUUID()}`, { token: admin.token }), 404, 'NOT_FOUND');
    expectError(await api('GET', '/api/cadastro-fot/12', { token: admin.token }), 400, 'INVALID_ID');
  });

  it('PUT changes only the fields it carries', async () => {
    const admin = await makeAdmin();
    const f = await makeFot('SP', { instituicao: 'USP', cidade: 'São Paulo', gastosCaptacaoCentavos: 500 });
    const res = await api('PUT', `/api/cadastro-fot/${f.id}`, {
      token: admin.token,
      body: { cidade: 'Campinas', gastos_captacao: 0 },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ fot: f.fot, instituicao: 'USP', cidade: 'Campinas', gastos_captacao: 0 });
    expect(res.body.updated_at > f.updatedAt).toBe(true);
  });

  it('PUT validates, checks references in the region and refuses a taken number', async () => {
    const admin = await makeAdmin();
    const f = await makeFot('SP');
    const g = await makeFot('SP');
    const mg = await makeFotRefs('MG');
    expectError(
      await api('PUT', `/api/cadastro-fot/${f.id}`, { token: admin.token, body: { fot: -2 } }),
      400,
      'VALIDATION_FAILED',
    );
    expectError(
      await api('PUT', `/api/cadastro-fot/${f.id}`, { token: admin.token, body: { empresa_id: mg.empresa.id } }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await api('PUT', `/api/cadastro-fot/${f.id}`, { token: admin.token, body: { fot: g.fot } }),
      400,
      'DUPLICATE_FOT',
    );
    expectError(
      await api('PUT', `/api/cadastro-fot/${f.id}`, { token: admin.token, regiao: 'MG', body: { cidade: 'x' } }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await api('PUT', `/api/cadastro-fot/${crypto.randomUUID()}`, { token: admin.token, body: { cidade: 'x' } }),
      404,
      'NOT_FOUND',
    );
  });

  it("DELETE answers 204, then 404; another region's id is 404", async () => {
    const admin = await makeAdmin();
    const f = await makeFot('SP');
    expectError(
      await api('DELETE', `/api/cadastro-fot/${f.id}`, { token: admin.token, regiao: 'MG' }),
      404,
      'NOT_FOUND',
    );
    const res = await api('DELETE', `/api/cadastro-fot/${f.id}`, { token: admin.token });
    expect(res.status).toBe(204);
    expect(res.body).toBe('');
    expectError(await api('DELETE', `/api/cadastro-fot/${f.id}`, { token: admin.token }), 404, 'NOT_FOUND');
  });

  it('keeps the catalogs a record uses: deleting its company is 409 IN_USE', async () => {
    const admin = await makeAdmin();
    const f = await makeFot('SP');
    expectError(await api('DELETE', `/api/empresas/${f.empresaId}`, { token: admin.token }), 409, 'IN_USE');
    expectError(await api('DELETE', `/api/cursos/${f.cursoId}`, { token: admin.token }), 409, 'IN_USE');
    expectError(await api('DELETE', `/api/anos-formaturas/${f.anoFormaturaId}`, { token: admin.token }), 409, 'IN_USE');
  });
});
