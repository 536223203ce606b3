import type { z } from '@hono/zod-openapi';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../../../src/db/schema';
import { mapDbError } from '../../../src/lib/errors';
import {
  anosFormaturasConfig,
  cursosConfig,
  empresasConfig,
  funcoesConfig,
  tiposServicosConfig,
} from '../../../src/routes/catalogs';
import { catalogSchemas, type CatalogConfig } from '../../../src/routes/catalogs/catalogs.schemas';
import { EventoResponse, tiposEventosConfig } from '../../../src/routes/catalogs/tipos-eventos.schemas';
import { InstituicaoResponse, instituicoesConfig } from '../../../src/routes/catalogs/instituicoes.schemas';
import {
  db,
  label,
  makeAdmin,
  makeCatalog,
  makeFot,
  makePreco,
  makeProfissional,
  makeUser,
  type TestUser,
} from '../../helpers/factories';
import { api, expectError, UNKNOWN_ID } from '../../helpers/request';

interface CatalogCase {
  cfg: CatalogConfig;
  response: z.ZodType;
  deleteStatus: 200 | 204;
  /** Each makes a row of another table point at the entry, so deleting it must be 409 IN_USE. */
  references?: { by: string; make: (id: string, regiao: string) => Promise<unknown> }[];
}

const cases: CatalogCase[] = [
  {
    cfg: anosFormaturasConfig,
    response: catalogSchemas(anosFormaturasConfig).response,
    deleteStatus: 204,
    references: [{ by: 'a FOT record', make: (anoFormaturaId, regiao) => makeFot(regiao, { anoFormaturaId }) }],
  },
  {
    cfg: cursosConfig,
    response: catalogSchemas(cursosConfig).response,
    deleteStatus: 204,
    references: [{ by: 'a FOT record', make: (cursoId, regiao) => makeFot(regiao, { cursoId }) }],
  },
  {
    cfg: empresasConfig,
    response: catalogSchemas(empresasConfig).response,
    deleteStatus: 204,
    references: [
      { by: 'a user', make: (empresaId) => makeUser({ role: 'EVENT_OWNER', empresaId }) },
      { by: 'a FOT record', make: (empresaId, regiao) => makeFot(regiao, { empresaId }) },
    ],
  },
  {
    cfg: funcoesConfig,
    response: catalogSchemas(funcoesConfig).response,
    deleteStatus: 200,
    references: [
      {
        by: 'a price',
        make: async (funcaoId, regiao) =>
          makePreco((await makeCatalog(schema.tiposEventos, regiao)).id, funcaoId, { regiao }),
      },
      { by: 'a professional', make: (funcaoId, regiao) => makeProfissional(regiao, {}, [funcaoId]) },
    ],
  },
  { cfg: tiposServicosConfig, response: catalogSchemas(tiposServicosConfig).response, deleteStatus: 204 },
  // Event types go through the same suite; their prices are tested in tipos-eventos.test.ts.
  { cfg: tiposEventosConfig, response: EventoResponse, deleteStatus: 204 },
  // Institutions too (docs/decisions.md#d23); their acronym, city and `vincular` in instituicoes.test.ts.
  {
    cfg: instituicoesConfig,
    response: InstituicaoResponse,
    deleteStatus: 204,
    references: [{ by: 'a FOT record', make: (instituicaoId, regiao) => makeFot(regiao, { instituicaoId }) }],
  },
];

describe.each(cases)('$cfg.path', ({ cfg, response, deleteStatus, references = [] }) => {
  const { path, field, maxLength, table } = cfg;
  let admin: TestUser;
  let reader: TestUser;

  beforeAll(async () => {
    admin = await makeAdmin();
    reader = await makeUser({ role: 'RESEARCHER' });
  });

  const create = (value: unknown, regiao?: string, token = admin.token) =>
    api('POST', path, { token, regiao, body: { [field]: value } });
  const rename = (id: string, value: unknown, regiao?: string, token = admin.token) =>
    api('PUT', `${path}/${id}`, { token, regiao, body: { [field]: value } });
  const remove = (id: string, regiao?: string, token = admin.token) =>
    api('DELETE', `${path}/${id}`, { token, regiao });
  /** `anonymous` sends no token. */
  const list = (regiao?: string, who: 'reader' | 'anonymous' = 'reader') =>
    api('GET', path, { token: who === 'reader' ? reader.token : undefined, regiao });
  const stored = async (id: string) => (await db.select().from(table).where(eq(table.id, id)))[0];

  describe('create', () => {
    it('answers 201 with the entry, its name trimmed and the region stored', async () => {
      const name = label();
      const res = await create(`  ${name}  `, 'MG');
      expect(res.status).toBe(201);
      const body = response.parse(res.body) as Record<string, unknown>;
      expect(body).toMatchObject({ [field]: name, regiao: 'MG' });
      expect(body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(new Date(body.created_at as string).toISOString()).toBe(body.created_at);
      expect(body.updated_at).toBe(body.created_at);
      if (cfg === tiposEventosConfig) expect(body.precos).toEqual([]);
    });

    it('stores the default region SP when x-regiao is missing or empty', async () => {
      for (const regiao of [undefined, '', '  ']) {
        const res = await create(label(), regiao);
        expect(res.status).toBe(201);
        expect(res.body.regiao).toBe('SP');
      }
    });

    it('accepts x-regiao in any case and stores it uppercase', async () => {
      const res = await create(label(), 'mg');
      expect(res.status).toBe(201);
      expect(res.body.regiao).toBe('MG');
    });

    it(`accepts a ${field} of exactly ${maxLength} characters`, async () => {
      const name = label('L').padEnd(maxLength, 'x');
      const res = await create(name);
      expect(res.status).toBe(201);
      expect(res.body[field]).toBe(name);
    });

    it.each([
      ['missing', undefined],
      ['null', null],
      ['empty', ''],
      ['whitespace-only', '   '],
      ['a number', 42],
      ['over-long', 'x'.repeat(maxLength + 1)],
    ])(`answers 400 VALIDATION_FAILED naming ${field} when it is %s`, async (_what, value) => {
      const res = await api('POST', path, { token: admin.token, body: value === undefined ? {} : { [field]: value } });
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(res.body.error).toMatch(new RegExp(`^${field}: `));
    });

    it('answers 409 CONFLICT for a name that exists in the region', async () => {
      const name = label();
      expect((await create(name)).status).toBe(201);
      expectError(await create(name), 409, 'CONFLICT');
    });

    it('ignores case, accents in any case and surrounding spaces for uniqueness ("Educação" = " EDUCAÇÃO ")', async () => {
      const suffix = label('').trim();
      expect((await create(`Educação ${suffix}`, 'MG')).status).toBe(201);
      expectError(await create(` EDUCAÇÃO ${suffix.toUpperCase()} `, 'MG'), 409, 'CONFLICT');
    });

    it('counts names that differ only by zero-width characters, stray combining marks or compatibility forms as the same (409)', async () => {
      const name = label('Uni');
      expect((await create(name, 'MG')).status).toBe(201);
      const [first, ...rest] = [...name];
      for (const lookAlike of [
        `${first}\u200b${rest.join('')}`, // zero-width space
        `${first}\u2060${rest.join('\u200d')}`, // word joiner, zero-width joiners
        `\ufeff${name}`, // byte-order mark
        `${name}\u0336`, // combining long stroke overlay: composes with nothing
        `\uff35${name.slice(1)}`, // fullwidth U
      ])
        expectError(await create(lookAlike, 'MG'), 409, 'CONFLICT');
    });

    it('stores names NFC-normalised and without zero-width spaces', async () => {
      const suffix = label('').trim();
      const res = await create(`Educac\u0327a\u0303o\u200b ${suffix}`, 'MG');
      expect(res.status).toBe(201);
      expect(res.body[field]).toBe(`Educação ${suffix}`);
    });

    it.each([
      ['NUL', '\u0000'],
      ['BEL', '\u0007'],
      ['a right-to-left override', '\u202e'],
      ['a left-to-right isolate', '\u2066'],
    ])(`answers 400 VALIDATION_FAILED naming ${field} when it contains %s`, async (_what, ch) => {
      const res = await create(`Nome${ch}${label('')}`);
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(res.body.error).toMatch(new RegExp(`^${field}: .*controle`));
    });

    it('allows the same name in the other region', async () => {
      const name = label();
      expect((await create(name, 'SP')).status).toBe(201);
      const res = await create(name, 'MG');
      expect(res.status).toBe(201);
      expect(res.body.regiao).toBe('MG');
    });

    it('lets exactly one of two concurrent creates of the same name succeed (201 + 409 CONFLICT)', async () => {
      const name = label();
      const [a, b] = await Promise.all([create(name), create(name.toUpperCase())]);
      expect([a.status, b.status].sort()).toEqual([201, 409]);
      expectError(a.status === 409 ? a : b, 409, 'CONFLICT');
    });
  });

  describe('list', () => {
    it("answers the region's entries only, ordered by name ignoring case", async () => {
      const prefix = label('Ordem');
      const [b, a, c] = [`${prefix} b`, `${prefix} A`, `${prefix} C`];
      for (const name of [b, a, c]) expect((await create(name, 'MG')).status).toBe(201);
      const elsewhere = await create(`${prefix} a-sp`, 'SP');

      const res = await list('MG');
      expect(res.status).toBe(200);
      const entries = res.body as Record<string, unknown>[];
      for (const entry of entries) response.parse(entry);
      expect(entries.every((e) => e.regiao === 'MG')).toBe(true);
      expect(entries.map((e) => e[field]).filter((n) => String(n).startsWith(prefix))).toEqual([a, b, c]);
      expect(entries.some((e) => e.id === elsewhere.body.id)).toBe(false);
    });

    it('reads the default region SP without x-regiao and accepts lowercase', async () => {
      const sp = await create(label(), 'SP');
      expect((await list(undefined)).body.some((e: { id: string }) => e.id === sp.body.id)).toBe(true);
      expect((await list('sp')).body.some((e: { id: string }) => e.id === sp.body.id)).toBe(true);
      expect((await list('mg')).body.some((e: { id: string }) => e.id === sp.body.id)).toBe(false);
    });

    it('answers 400 INVALID_REGION for an unknown region', async () => {
      expectError(await list('XX'), 400, 'INVALID_REGION');
    });

    if (cfg.publicList) {
      it('needs no token (public), still filtered by region', async () => {
        const mg = await create(label(), 'MG');
        const res = await list('MG', 'anonymous');
        expect(res.status).toBe(200);
        expect(res.body.some((e: { id: string }) => e.id === mg.body.id)).toBe(true);
        expect((await list('SP', 'anonymous')).body.some((e: { id: string }) => e.id === mg.body.id)).toBe(false);
        expectError(await list('XX', 'anonymous'), 400, 'INVALID_REGION');
      });
    } else {
      it('answers 401 UNAUTHENTICATED without a token', async () => {
        expectError(await list('SP', 'anonymous'), 401, 'UNAUTHENTICATED');
      });
    }
  });

  describe('update', () => {
    it('renames the entry and answers 200 with it', async () => {
      const created = await create(label(), 'MG');
      const name = label('Novo');
      const res = await rename(created.body.id, ` ${name} `, 'MG');
      expect(res.status).toBe(200);
      const body = response.parse(res.body) as Record<string, unknown>;
      expect(body).toMatchObject({
        id: created.body.id,
        [field]: name,
        regiao: 'MG',
        created_at: created.body.created_at,
      });
      expect((body.updated_at as string) >= (body.created_at as string)).toBe(true);
      expect((await list('MG')).body.find((e: { id: string }) => e.id === created.body.id)?.[field]).toBe(name);
    });

    it('lets an entry change the case of its own name', async () => {
      const name = label();
      const created = await create(name);
      const res = await rename(created.body.id, name.toUpperCase());
      expect(res.status).toBe(200);
      expect(res.body[field]).toBe(name.toUpperCase());
    });

    it('answers 409 CONFLICT when renaming onto an existing name of the region, and changes nothing', async () => {
      const taken = label();
      await create(taken);
      const other = await create(label());
      expectError(await rename(other.body.id, ` ${taken.toUpperCase()}`), 409, 'CONFLICT');
      expect((await stored(other.body.id))?.label).toBe(other.body[field]);
    });

    it('allows renaming onto a name that exists only in the other region', async () => {
      const name = label();
      await create(name, 'SP');
      const mine = await create(label(), 'MG');
      expect((await rename(mine.body.id, name, 'MG')).status).toBe(200);
    });

    it('answers 404 NOT_FOUND for an id of the other region, and changes nothing', async () => {
      const sp = await create(label(), 'SP');
      expectError(await rename(sp.body.id, label(), 'MG'), 404, 'NOT_FOUND');
      expect((await stored(sp.body.id))?.label).toBe(sp.body[field]);
    });

    it('answers 404 NOT_FOUND for an unknown id', async () => {
      expectError(await rename(UNKNOWN_ID, label()), 404, 'NOT_FOUND');
    });

    it('answers 400 INVALID_ID for an id that is not a UUID', async () => {
      expectError(await rename('not-a-uuid', label()), 400, 'INVALID_ID');
    });

    it('answers 400 VALIDATION_FAILED for an empty name', async () => {
      const created = await create(label());
      const res = await rename(created.body.id, ' ');
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(res.body.error).toMatch(new RegExp(`^${field}: `));
    });
  });

  describe('delete', () => {
    it(`answers ${deleteStatus} and removes the entry`, async () => {
      const created = await create(label(), 'MG');
      const res = await remove(created.body.id, 'MG');
      expect(res.status).toBe(deleteStatus);
      if (deleteStatus === 204) expect(res.body).toBe('');
      else expect(res.body).toEqual({ message: 'função excluída' });
      expect(await stored(created.body.id)).toBeUndefined();
      expect((await list('MG')).body.some((e: { id: string }) => e.id === created.body.id)).toBe(false);
      expectError(await remove(created.body.id, 'MG'), 404, 'NOT_FOUND');
    });

    it('answers 404 NOT_FOUND for an id of the other region, and deletes nothing', async () => {
      const sp = await create(label(), 'SP');
      expectError(await remove(sp.body.id, 'MG'), 404, 'NOT_FOUND');
      expect(await stored(sp.body.id)).toBeDefined();
    });

    it('answers 404 NOT_FOUND for an unknown id and 400 INVALID_ID for a malformed one', async () => {
      expectError(await remove(UNKNOWN_ID), 404, 'NOT_FOUND');
      expectError(await remove('123'), 400, 'INVALID_ID');
    });

    for (const reference of references) {
      it(`answers 409 IN_USE while ${reference.by} references the entry, and deletes nothing`, async () => {
        const created = await create(label(), 'MG');
        await reference.make(created.body.id, 'MG');
        expectError(await remove(created.body.id, 'MG'), 409, 'IN_USE');
        expect(await stored(created.body.id)).toBeDefined();
      });
    }
  });

  describe('permissions and region header', () => {
    it('answers 403 FORBIDDEN to a non-administrator on every write', async () => {
      const owner = await makeUser({ role: 'EVENT_OWNER' });
      const created = await create(label());
      expectError(await create(label(), undefined, owner.token), 403, 'FORBIDDEN');
      expectError(await rename(created.body.id, label(), undefined, owner.token), 403, 'FORBIDDEN');
      expectError(await remove(created.body.id, undefined, owner.token), 403, 'FORBIDDEN');
      expect(await stored(created.body.id)).toBeDefined();
    });

    it('answers 401 UNAUTHENTICATED to writes without a token', async () => {
      expectError(await api('POST', path, { body: { [field]: label() } }), 401, 'UNAUTHENTICATED');
      expectError(await api('PUT', `${path}/${UNKNOWN_ID}`, { body: { [field]: label() } }), 401, 'UNAUTHENTICATED');
      expectError(await api('DELETE', `${path}/${UNKNOWN_ID}`), 401, 'UNAUTHENTICATED');
    });

    it('lets BUSINESS_OWNER write too', async () => {
      const owner = await makeUser({ role: 'BUSINESS_OWNER' });
      expect((await create(label(), undefined, owner.token)).status).toBe(201);
    });

    it('answers 400 INVALID_REGION to writes with an unknown x-regiao, and stores nothing', async () => {
      const name = label();
      expectError(await create(name, 'XX'), 400, 'INVALID_REGION');
      expectError(await rename(UNKNOWN_ID, name, 'XX'), 400, 'INVALID_REGION');
      expectError(await remove(UNKNOWN_ID, 'XX'), 400, 'INVALID_REGION');
      expect((await create(name)).status).toBe(201);
    });
  });
});

/** The real D1 error of a statement (never mocked), for the one error mapper. */
async function d1Error(run: () => Promise<unknown>) {
  try {
    await run();
  } catch (err) {
    return err;
  }
  throw new Error('expected the statement to fail');
}

describe('mapDbError with real D1 errors', () => {
  it('maps a RESTRICT failure to IN_USE also inside db.batch(), where drizzle attaches no SQL text', async () => {
    const funcao = await makeCatalog(schema.funcoes);
    await makePreco((await makeCatalog(schema.tiposEventos)).id, funcao.id);
    const del = () => db.delete(schema.funcoes).where(eq(schema.funcoes.id, funcao.id));
    expect(mapDbError(await d1Error(() => del()))?.code).toBe('IN_USE');
    expect(mapDbError(await d1Error(() => db.batch([del()])))?.code).toBe('IN_USE');
  });

  it('maps a missing parent on insert to NOT_FOUND, even when a parameter reads "delete from"', async () => {
    const err = await d1Error(() =>
      db
        .insert(schema.profissionais)
        .values({ regiao: 'SP', nome: 'delete from funcoes', funcaoProfissionalId: crypto.randomUUID() }),
    );
    expect(mapDbError(err)?.code).toBe('NOT_FOUND');
  });

  it('names the field of a duplicate catalog name', async () => {
    const ano = await makeCatalog(schema.anosFormaturas, 'SP', label('A'));
    const err = await d1Error(() => makeCatalog(schema.anosFormaturas, 'SP', ano.label));
    expect(mapDbError(err)).toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(/^ano_semestre: /) });
  });
});

describe('/openapi.json', () => {
  it('documents every catalog route with its named schemas', async () => {
    const doc = (await api('GET', '/openapi.json')).body;
    for (const { cfg } of cases) {
      expect(Object.keys(doc.paths[cfg.path])).toEqual(expect.arrayContaining(['get', 'post']));
      expect(Object.keys(doc.paths[`${cfg.path}/{id}`])).toEqual(expect.arrayContaining(['put', 'delete']));
      expect(doc.components.schemas).toHaveProperty(cfg.schemaNames.request);
      expect(doc.components.schemas).toHaveProperty(cfg.schemaNames.response);
      expect(doc.paths[cfg.path].post.security).toEqual([{ BearerAuth: [] }]);
      expect(doc.paths[cfg.path].get.security).toEqual(cfg.publicList ? [] : [{ BearerAuth: [] }]);
    }
    expect(doc.paths['/api/funcoes/{id}'].delete.responses).toHaveProperty('200');
    expect(doc.paths['/api/cursos/{id}'].delete.responses).toHaveProperty('204');
    expect(doc.paths).toHaveProperty(['/api/tipos-eventos/precos']);
    expect(doc.paths).toHaveProperty(['/api/tipos-eventos/{id}/precos']);
    for (const name of ['PrecoResponse', 'PriceInput', 'CreateEventoRequest', 'EventoResponse'])
      expect(doc.components.schemas).toHaveProperty(name);
  });
});
