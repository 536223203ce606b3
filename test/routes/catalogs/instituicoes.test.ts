import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../../../src/db/schema';
import { db, label, makeAdmin, makeFot, makeFotRefs, makeUser, nextFot, type TestUser } from '../../helpers/factories';
import { api, expectError, UNKNOWN_ID } from '../../helpers/request';

const CAMPINAS = { codigo_ibge: 3509502, nome: 'Campinas', uf: 'SP' };
let admin: TestUser;
beforeAll(async () => {
  admin = await makeAdmin();
});

const create = (body: object, regiao = 'SP') => api('POST', '/api/instituicoes', { token: admin.token, regiao, body });

describe('/api/instituicoes: acronym and city', () => {
  it('stores sigla and cidade_ibge and answers the city by name, in the list too', async () => {
    const nome = label('Universidade');
    const res = await create({ nome, sigla: 'UNI', cidade_ibge: 3509502 });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ nome, sigla: 'UNI', cidade: CAMPINAS, regiao: 'SP' });
    const plain = await create({ nome: label('Faculdade') });
    expect(plain.body).toMatchObject({ sigla: null, cidade: null });
    const list = await api('GET', '/api/instituicoes', { token: admin.token, regiao: 'SP' });
    expect(list.body.find((i: { id: string }) => i.id === res.body.id)).toMatchObject({ cidade: CAMPINAS });
    expect(list.body.find((i: { id: string }) => i.id === plain.body.id)).toMatchObject({ cidade: null });
  });

  it('PUT changes the fields sent; null clears them', async () => {
    const { body } = await create({ nome: label('Inst'), sigla: 'AB', cidade_ibge: 3509502 });
    const renamed = await api('PUT', `/api/instituicoes/${body.id}`, {
      token: admin.token,
      body: { nome: 'Outro nome ' + body.id },
    });
    expect(renamed.body).toMatchObject({ sigla: 'AB', cidade: CAMPINAS });
    const moved = await api('PUT', `/api/instituicoes/${body.id}`, {
      token: admin.token,
      body: { nome: 'Outro nome ' + body.id, sigla: null, cidade_ibge: 3550308 },
    });
    expect(moved.body).toMatchObject({ sigla: null, cidade: { codigo_ibge: 3550308, nome: 'São Paulo', uf: 'SP' } });
  });

  it('an unknown city code is 400 and nothing is written; a malformed one too', async () => {
    const nome = label('Sem cidade');
    expectError(await create({ nome, cidade_ibge: 3599999 }), 400, 'VALIDATION_FAILED');
    expect(await db.select().from(schema.instituicoes).where(eq(schema.instituicoes.label, nome))).toEqual([]);
    expectError(await create({ nome, cidade_ibge: 123 }), 400, 'VALIDATION_FAILED');
    const { body } = await create({ nome });
    expectError(
      await api('PUT', `/api/instituicoes/${body.id}`, { token: admin.token, body: { nome, cidade_ibge: 3599999 } }),
      400,
      'VALIDATION_FAILED',
    );
  });
});

describe('FOT records with instituicao_id', () => {
  it('a record linked to an institution answers its name as instituicao, in the agenda too', async () => {
    const inst = await create({ nome: label('Unicamp') });
    const refs = await makeFotRefs('SP');
    const res = await api('POST', '/api/cadastro-fot', {
      token: admin.token,
      body: {
        fot: nextFot(),
        empresa_id: refs.empresa.id,
        curso_id: refs.curso.id,
        ano_formatura_id: refs.ano.id,
        instituicao: 'texto livre',
        instituicao_id: inst.body.id,
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ instituicao: inst.body.nome, instituicao_id: inst.body.id });
    const cleared = await api('PUT', `/api/cadastro-fot/${res.body.id}`, {
      token: admin.token,
      body: { instituicao_id: null },
    });
    expect(cleared.body).toMatchObject({ instituicao: 'texto livre', instituicao_id: null });
  });

  it('an institution of another region or unknown is 404 on create and update', async () => {
    const mg = await create({ nome: label('Mineira') }, 'MG');
    const refs = await makeFotRefs('SP');
    const body = {
      fot: nextFot(),
      empresa_id: refs.empresa.id,
      curso_id: refs.curso.id,
      ano_formatura_id: refs.ano.id,
    };
    for (const id of [mg.body.id, UNKNOWN_ID])
      expectError(
        await api('POST', '/api/cadastro-fot', { token: admin.token, body: { ...body, instituicao_id: id } }),
        404,
        'NOT_FOUND',
      );
    const fot = await makeFot('SP');
    expectError(
      await api('PUT', `/api/cadastro-fot/${fot.id}`, { token: admin.token, body: { instituicao_id: mg.body.id } }),
      404,
      'NOT_FOUND',
    );
  });
});

describe('POST /api/instituicoes/vincular', () => {
  it('links the records whose text equals a name ignoring case, accents and spaces; answers the unmatched texts', async () => {
    const regiao = 'MG';
    const nome = `Universidade Federal ${label('X')}`;
    const inst = (await create({ nome }, regiao)).body;
    const variants = [nome.toUpperCase(), nome.replace(/ /g, ''), ` ${nome.toLowerCase()}  `];
    const linked = await Promise.all(variants.map((instituicao) => makeFot(regiao, { instituicao })));
    const other = label('Sem par');
    const unmatched = await makeFot(regiao, { instituicao: other });
    const spOne = await makeFot('SP', { instituicao: nome });
    const res = await api('POST', '/api/instituicoes/vincular', { token: admin.token, regiao });
    expect(res.status).toBe(200);
    expect(res.body.vinculados).toBeGreaterThanOrEqual(3);
    expect(res.body.sem_correspondencia).toContain(other);
    const idOf = async (id: string) =>
      (await db.select().from(schema.cadastroFot).where(eq(schema.cadastroFot.id, id)))[0]!.instituicaoId;
    for (const f of linked) expect(await idOf(f.id)).toBe(inst.id);
    expect(await idOf(unmatched.id)).toBeNull();
    expect(await idOf(spOne.id)).toBeNull(); // another region
    const logs = await db.select().from(schema.logsAtividade).where(eq(schema.logsAtividade.entidadeId, linked[0]!.id));
    expect(logs.map((l) => l.acao)).toContain('cadastro_fot.vincular_instituicao');
    // Again: nothing more to link.
    const again = await api('POST', '/api/instituicoes/vincular', { token: admin.token, regiao });
    expect(again.body.vinculados).toBe(0);
  });

  it('a text that matches two entries is left unmatched; a linked record is never relinked', async () => {
    const base = label('PUC');
    await create({ nome: `${base}-SP` }, 'SP');
    await create({ nome: `${base} SP` }, 'SP');
    const text = `${base}SP`;
    const fot = await makeFot('SP', { instituicao: text });
    const res = await api('POST', '/api/instituicoes/vincular', { token: admin.token, regiao: 'SP' });
    expect(res.body.sem_correspondencia).toContain(text);
    const [row] = await db.select().from(schema.cadastroFot).where(eq(schema.cadastroFot.id, fot.id));
    expect(row!.instituicaoId).toBeNull();
  });

  it('links each record once under 10 parallel calls', async () => {
    const regiao = 'MG';
    const nome = label('Paralela');
    await create({ nome }, regiao);
    await Promise.all([1, 2, 3, 4, 5].map(() => makeFot(regiao, { instituicao: nome })));
    const results = await Promise.all(
      Array.from({ length: 10 }, () => api('POST', '/api/instituicoes/vincular', { token: admin.token, regiao })),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results.reduce((n, r) => n + r.body.vinculados, 0)).toBe(5);
    const logs = await db
      .select()
      .from(schema.logsAtividade)
      .where(eq(schema.logsAtividade.acao, 'cadastro_fot.vincular_instituicao'));
    const ids = logs.map((l) => l.entidadeId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('is for administrators', async () => {
    const viewer = await makeUser({ role: 'agenda_viewer' });
    expectError(await api('POST', '/api/instituicoes/vincular', { token: viewer.token }), 403, 'FORBIDDEN');
  });
});
