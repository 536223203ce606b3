import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeUser, type TestUser } from '../../helpers/factories';
import { api, expectError } from '../../helpers/request';

let pro: TestUser;
beforeAll(async () => {
  pro = await makeUser({ role: 'profissional' });
});

const search = (query: string, token = pro.token) => api('GET', `/api/cidades${query}`, { token });
const names = (body: { nome: string; uf: string }[]) => body.map((c) => `${c.nome}/${c.uf}`);

describe('the cidades migration', () => {
  it('loads the municipalities (5,571: the data includes Boa Esperança do Norte, MT, installed in 2025) with their coordinates and every word start', async () => {
    const row = await env.DB.prepare(
      'select count(*) n, min(codigo_ibge) lo, max(codigo_ibge) hi, sum(latitude is null or longitude is null) sem from cidades',
    ).first<{ n: number; lo: number; hi: number; sem: number }>();
    expect(row).toEqual({ n: 5571, lo: 1100015, hi: 5300108, sem: 0 });
    const sp = await env.DB.prepare(
      'select nome, uf, latitude, longitude from cidades where codigo_ibge = 3550308',
    ).first();
    expect(sp).toEqual({ nome: 'São Paulo', uf: 'SP', latitude: -23.5329, longitude: -46.6395 });
    const words = await env.DB.prepare(
      'select chave, posicao from cidades_busca where codigo_ibge = 3549904 order by posicao',
    ).all();
    expect(words.results).toEqual([
      { chave: 'sao jose dos campos', posicao: 0 },
      { chave: 'jose dos campos', posicao: 1 },
      { chave: 'dos campos', posicao: 2 },
      { chave: 'campos', posicao: 3 },
    ]);
  });

  it('applies fast: its statements run again in well under a second (every test file applies it)', async () => {
    const migration = env.TEST_MIGRATIONS.find((m) => m.name.includes('_cidades_data'))!;
    expect(migration.queries.length).toBe(13);
    await env.DB.batch([env.DB.prepare('delete from cidades_busca'), env.DB.prepare('delete from cidades')]);
    const start = performance.now();
    await env.DB.batch(migration.queries.map((q) => env.DB.prepare(q)));
    const ms = performance.now() - start;
    console.log(`the cidades data migration applied in ${ms.toFixed(0)} ms`);
    expect(ms).toBeLessThan(1500);
    const n = await env.DB.prepare(
      'select (select count(*) from cidades) c, (select count(*) from cidades_busca) b',
    ).first();
    expect(n).toEqual({ c: 5571, b: expect.any(Number) });
  });
});

describe('GET /api/cidades', () => {
  it('matches ignoring case and accents, names that start with the text first', async () => {
    const res = await search('?q=SAO%20JOSE&uf=sp');
    expect(res.status).toBe(200);
    expect(names(res.body).slice(0, 3)).toEqual([
      'São José da Bela Vista/SP',
      'São José do Barreiro/SP',
      'São José do Rio Pardo/SP',
    ]);
    expect(res.body.every((c: { uf: string; nome: string }) => c.uf === 'SP' && c.nome.startsWith('São José'))).toBe(
      true,
    );
    expect(res.body[0]).toEqual({
      codigo_ibge: expect.any(Number),
      nome: 'São José da Bela Vista',
      uf: 'SP',
      latitude: expect.any(Number),
      longitude: expect.any(Number),
    });
  });

  it('finds a city by the start of any word of its name, after the names that start with it', async () => {
    const res = await search('?q=paulo');
    expect(res.status).toBe(200);
    const list = names(res.body);
    const firstOther = list.findIndex((n) => !n.toLowerCase().startsWith('paulo'));
    expect(firstOther).toBeGreaterThan(0);
    expect(list.slice(0, firstOther).every((n) => /^paul/i.test(n))).toBe(true);
    expect(list).toContain('São Paulo/SP');
    expect(list.slice(firstOther).every((n) => !/^paul/i.test(n))).toBe(true);
  });

  it('reads the apostrophe and the hyphen loosely', async () => {
    expect(names((await search("?q=santa%20barbara%20d'oeste")).body)).toEqual(["Santa Bárbara d'Oeste/SP"]);
    expect(names((await search('?q=santa%20barbara%20doeste')).body)).toEqual(["Santa Bárbara d'Oeste/SP"]);
    expect(names((await search('?q=embu%20guacu')).body)).toEqual(['Embu-Guaçu/SP']);
  });

  it('answers at most 50, or fewer with limit; without q, the first names of the state', async () => {
    expect((await search('?q=s')).body).toHaveLength(50);
    expect((await search('?q=s&limit=3')).body).toHaveLength(3);
    const mg = await search('?uf=MG&limit=2');
    expect(names(mg.body)).toEqual(['Abadia dos Dourados/MG', 'Abaeté/MG']);
    expect((await search('')).body).toHaveLength(50);
    expect((await search('?q=xyzw')).body).toEqual([]);
  });

  it('refuses a bad uf, an empty q and a limit over 50', async () => {
    expectError(await search('?uf=XX'), 400, 'VALIDATION_FAILED');
    expectError(await search('?q=%20'), 400, 'VALIDATION_FAILED');
    expectError(await search('?limit=51'), 400, 'VALIDATION_FAILED');
    expectError(await search('?limit=0'), 400, 'VALIDATION_FAILED');
  });

  it('is open to every active role and needs a token', async () => {
    for (const role of ['RESEARCHER', 'EVENT_OWNER', 'agenda_viewer', 'BUSINESS_OWNER'] as const) {
      const u = await makeUser({ role });
      expect((await search('?q=campinas', u.token)).status).toBe(200);
    }
    expectError(await api('GET', '/api/cidades?q=campinas'), 401, 'UNAUTHENTICATED');
  });
});
