import { eq } from 'drizzle-orm';
import { z } from '@hono/zod-openapi';
import { beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../../../src/db/schema';
import { EventoResponse, PrecoResponse } from '../../../src/routes/catalogs/tipos-eventos.schemas';
import {
  db,
  label,
  makeAdmin,
  makePreco,
  makeUser,
  type TestUser,
  makeTipoEvento,
  makeFuncao,
} from '../../helpers/factories';
import { api, expectError, UNKNOWN_ID } from '../../helpers/request';

const storedPrecos = (tipoEventoId: string) =>
  db.select().from(schema.precos).where(eq(schema.precos.tipoEventoId, tipoEventoId));

let admin: TestUser;
let reader: TestUser;

beforeAll(async () => {
  admin = await makeAdmin();
  reader = await makeUser({ role: 'agenda_viewer' });
});

const setPrice = (body: unknown, regiao?: string, token = admin.token) =>
  api('POST', '/api/tipos-eventos/precos', { token, regiao, body });
const getPrecos = (id: string, regiao?: string, who: 'reader' | 'anonymous' = 'reader') =>
  api('GET', `/api/tipos-eventos/${id}/precos`, { token: who === 'reader' ? reader.token : undefined, regiao });
const listTipos = async (regiao?: string) => {
  const res = await api('GET', '/api/tipos-eventos', { token: reader.token, regiao });
  expect(res.status).toBe(200);
  return z.array(EventoResponse).parse(res.body);
};

describe('POST /api/tipos-eventos/precos', () => {
  it('creates the price of an event type for a function: 200 {message, id}', async () => {
    const [tipo, funcao] = await Promise.all([makeTipoEvento(), makeFuncao()]);
    const res = await setPrice({ tipo_evento_id: tipo.id, funcao_profissional_id: funcao.id, valor: 350.5 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: expect.any(String), id: expect.stringMatching(/^[0-9a-f-]{36}$/) });

    const [row] = await storedPrecos(tipo.id);
    expect(row).toMatchObject({ id: res.body.id, regiao: 'SP', funcaoProfissionalId: funcao.id, valorCentavos: 35050 });
    const precos = await getPrecos(tipo.id);
    expect(precos.status).toBe(200);
    expect(z.array(PrecoResponse).parse(precos.body)).toEqual([
      {
        id: res.body.id,
        tipo_evento_id: tipo.id,
        funcao_profissional_id: funcao.id,
        funcao_nome: funcao.label,
        valor: 350.5,
        regiao: 'SP',
        created_at: row!.createdAt,
        updated_at: row!.updatedAt,
      },
    ]);
  });

  it('replaces the price of the same event type and function: same id, new valor, one row', async () => {
    const [tipo, funcao] = await Promise.all([makeTipoEvento(), makeFuncao()]);
    const first = await setPrice({ tipo_evento_id: tipo.id, funcao_profissional_id: funcao.id, valor: 100 });
    const [before] = await storedPrecos(tipo.id);
    const second = await setPrice({ tipo_evento_id: tipo.id, funcao_profissional_id: funcao.id, valor: 120.75 });
    expect(second.status).toBe(200);
    expect(second.body.id).toBe(first.body.id);
    const rows = await storedPrecos(tipo.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: first.body.id, valorCentavos: 12075, createdAt: before!.createdAt });
    expect(rows[0]!.updatedAt >= before!.updatedAt).toBe(true);
    expect((await getPrecos(tipo.id)).body.map((p: { valor: number }) => p.valor)).toEqual([120.75]);
  });

  it('accepts ids in upper case (stored lowercase) and exact cents without float drift', async () => {
    const [tipo, funcao] = await Promise.all([makeTipoEvento(), makeFuncao()]);
    for (const [valor, cents] of [
      [0, 0],
      [0.1, 10],
      [19.99, 1999],
      [1.1, 110],
      [1234567.89, 123456789],
    ] as const) {
      const res = await setPrice({
        tipo_evento_id: tipo.id.toUpperCase(),
        funcao_profissional_id: funcao.id.toUpperCase(),
        valor,
      });
      expect(res.status).toBe(200);
      expect((await storedPrecos(tipo.id))[0]?.valorCentavos).toBe(cents);
      expect((await getPrecos(tipo.id)).body[0].valor).toBe(valor);
    }
  });

  it('keeps prices per region: an event type and function of MG are priced with x-regiao MG only', async () => {
    const nome = label('Mesmo nome');
    const [tipoSp, tipoMg, funcaoSp, funcaoMg] = await Promise.all([
      makeTipoEvento('SP', nome),
      makeTipoEvento('MG', nome),
      makeFuncao('SP', nome),
      makeFuncao('MG', nome),
    ]);
    expect(
      (await setPrice({ tipo_evento_id: tipoSp.id, funcao_profissional_id: funcaoSp.id, valor: 10 }, 'SP')).status,
    ).toBe(200);
    expect(
      (await setPrice({ tipo_evento_id: tipoMg.id, funcao_profissional_id: funcaoMg.id, valor: 20 }, 'mg')).status,
    ).toBe(200);

    const sp = (await listTipos('SP')).find((t) => t.id === tipoSp.id)!;
    const mg = (await listTipos('MG')).find((t) => t.id === tipoMg.id)!;
    expect(sp.precos.map((p) => [p.funcao_profissional_id, p.valor, p.regiao])).toEqual([[funcaoSp.id, 10, 'SP']]);
    expect(mg.precos.map((p) => [p.funcao_profissional_id, p.valor, p.regiao])).toEqual([[funcaoMg.id, 20, 'MG']]);
    expect((await listTipos('SP')).some((t) => t.id === tipoMg.id)).toBe(false);
  });

  it.each([
    ['valor', -1, /^valor: /],
    ['valor', 1.234, /^valor: deve ter no máximo 2 casas decimais/],
    ['valor', '10', /^valor: /],
    ['valor', null, /^valor: /],
    ['valor', undefined, /^valor: é obrigatório/],
    ['tipo_evento_id', undefined, /^tipo_evento_id: é obrigatório/],
    ['tipo_evento_id', 'not-a-uuid', /^tipo_evento_id: deve ser um UUID/],
    ['funcao_profissional_id', undefined, /^funcao_profissional_id: é obrigatório/],
    ['funcao_profissional_id', '', /^funcao_profissional_id: /],
  ])('answers 400 VALIDATION_FAILED for %s = %j, and stores nothing', async (key, value, message) => {
    const [tipo, funcao] = await Promise.all([makeTipoEvento(), makeFuncao()]);
    const body: Record<string, unknown> = { tipo_evento_id: tipo.id, funcao_profissional_id: funcao.id, valor: 10 };
    if (value === undefined) delete body[key];
    else body[key] = value;
    const res = await setPrice(body);
    expectError(res, 400, 'VALIDATION_FAILED');
    expect(res.body.error).toMatch(message);
    expect(await storedPrecos(tipo.id)).toEqual([]);
  });

  it('answers 404 NOT_FOUND naming the field for an unknown or other-region event type or function, and stores nothing', async () => {
    const [tipo, funcao, tipoMg, funcaoMg] = await Promise.all([
      makeTipoEvento(),
      makeFuncao(),
      makeTipoEvento('MG'),
      makeFuncao('MG'),
    ]);
    const cases = [
      [{ tipo_evento_id: UNKNOWN_ID, funcao_profissional_id: funcao.id }, /^tipo_evento_id: /],
      [{ tipo_evento_id: tipoMg.id, funcao_profissional_id: funcao.id }, /^tipo_evento_id: /],
      [{ tipo_evento_id: tipo.id, funcao_profissional_id: UNKNOWN_ID }, /^funcao_profissional_id: /],
      [{ tipo_evento_id: tipo.id, funcao_profissional_id: funcaoMg.id }, /^funcao_profissional_id: /],
    ] as const;
    for (const [ids, message] of cases) {
      const res = await setPrice({ ...ids, valor: 10 }, 'SP');
      expectError(res, 404, 'NOT_FOUND');
      expect(res.body.error).toMatch(message);
    }
    expect(await storedPrecos(tipo.id)).toEqual([]);
    expect(await storedPrecos(tipoMg.id)).toEqual([]);
  });

  it('answers 403 to a non-administrator and 400 INVALID_REGION to an unknown region', async () => {
    const [tipo, funcao] = await Promise.all([makeTipoEvento(), makeFuncao()]);
    const body = { tipo_evento_id: tipo.id, funcao_profissional_id: funcao.id, valor: 10 };
    expectError(await setPrice(body, 'SP', reader.token), 403, 'FORBIDDEN');
    expectError(await setPrice(body, 'XX'), 400, 'INVALID_REGION');
    expect(await storedPrecos(tipo.id)).toEqual([]);
  });
});

describe('GET /api/tipos-eventos/{id}/precos', () => {
  it("answers the event type's prices ordered by function name", async () => {
    const tipo = await makeTipoEvento();
    const prefix = label('Ordem');
    const [b, a] = await Promise.all([makeFuncao('SP', `${prefix} b`), makeFuncao('SP', `${prefix} A`)]);
    await makePreco(tipo.id, b.id, { valorCentavos: 200 });
    await makePreco(tipo.id, a.id, { valorCentavos: 150 });
    const other = await makeTipoEvento();
    await makePreco(other.id, a.id, { valorCentavos: 999 });

    const res = await getPrecos(tipo.id);
    expect(res.status).toBe(200);
    expect(res.body.map((p: { funcao_nome: string; valor: number }) => [p.funcao_nome, p.valor])).toEqual([
      [a.label, 1.5],
      [b.label, 2],
    ]);
  });

  it('answers [] for an event type without prices', async () => {
    const res = await getPrecos((await makeTipoEvento()).id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it('answers 404 for an unknown or other-region event type, 400 INVALID_ID for a bad id, 401 without a token', async () => {
    const mg = await makeTipoEvento('MG');
    expectError(await getPrecos(UNKNOWN_ID), 404, 'NOT_FOUND');
    expectError(await getPrecos(mg.id, 'SP'), 404, 'NOT_FOUND');
    expect((await getPrecos(mg.id, 'MG')).status).toBe(200);
    expectError(await getPrecos('precos'), 400, 'INVALID_ID');
    expectError(await getPrecos(mg.id, 'MG', 'anonymous'), 401, 'UNAUTHENTICATED');
  });
});

describe('EventoResponse.precos', () => {
  it('every listed event type carries its own prices of the region; others carry []', async () => {
    const [tipo, vazio, f1, f2] = await Promise.all([
      makeTipoEvento('MG'),
      makeTipoEvento('MG'),
      makeFuncao('MG'),
      makeFuncao('MG'),
    ]);
    const p1 = await makePreco(tipo.id, f1.id, { regiao: 'MG', valorCentavos: 5000 });
    const p2 = await makePreco(tipo.id, f2.id, { regiao: 'MG', valorCentavos: 7525 });
    const list = await listTipos('MG');
    const found = list.find((t) => t.id === tipo.id)!;
    expect(found.precos.map((p) => p.id).sort()).toEqual([p1.id, p2.id].sort());
    expect(found.precos.every((p) => p.tipo_evento_id === tipo.id)).toBe(true);
    expect(Object.fromEntries(found.precos.map((p) => [p.funcao_nome, p.valor]))).toEqual({
      [f1.label]: 50,
      [f2.label]: 75.25,
    });
    expect(list.find((t) => t.id === vazio.id)!.precos).toEqual([]);
  });

  it('create answers precos [] and a rename answers the prices of the event type', async () => {
    const created = await api('POST', '/api/tipos-eventos', { token: admin.token, body: { nome: label('Novo') } });
    expect(created.status).toBe(201);
    expect(EventoResponse.parse(created.body).precos).toEqual([]);
    const funcao = await makeFuncao();
    await setPrice({ tipo_evento_id: created.body.id, funcao_profissional_id: funcao.id, valor: 42 });
    const renamed = await api('PUT', `/api/tipos-eventos/${created.body.id}`, {
      token: admin.token,
      body: { nome: label('Renomeado') },
    });
    expect(renamed.status).toBe(200);
    expect(EventoResponse.parse(renamed.body).precos.map((p) => [p.funcao_nome, p.valor])).toEqual([
      [funcao.label, 42],
    ]);
  });
});

describe('deleting', () => {
  it('an event type removes its prices (they belong to it), and frees the function', async () => {
    const [tipo, funcao] = await Promise.all([makeTipoEvento(), makeFuncao()]);
    await setPrice({ tipo_evento_id: tipo.id, funcao_profissional_id: funcao.id, valor: 80 });
    expectError(await api('DELETE', `/api/funcoes/${funcao.id}`, { token: admin.token }), 409, 'IN_USE');

    expect((await api('DELETE', `/api/tipos-eventos/${tipo.id}`, { token: admin.token })).status).toBe(204);
    expect(await storedPrecos(tipo.id)).toEqual([]);
    expect((await api('DELETE', `/api/funcoes/${funcao.id}`, { token: admin.token })).status).toBe(200);
  });
});

describe('GET /api/tipos-eventos query count', () => {
  async function measure(regiao: string) {
    const res = await api('GET', '/api/tipos-eventos', {
      token: reader.token,
      regiao,
      // Regions of their own, so each list holds exactly the event types made here.
      bindings: { REGIOES: 'SP,MG,C1,C50' },
      countQueries: true,
    });
    expect(res.status).toBe(200);
    const count = { roundTrips: res.roundTrips!, statements: res.statements! };
    return { body: z.array(EventoResponse).parse(res.body), count };
  }

  async function seed(regiao: string, tipos: number) {
    const funcoes = await Promise.all([makeFuncao(regiao), makeFuncao(regiao)]);
    const rows = Array.from({ length: tipos }, (_, i) => {
      const nome = `Tipo ${String(i).padStart(3, '0')}`;
      return { id: crypto.randomUUID(), regiao, label: nome, labelKey: nome.toLowerCase() };
    });
    await db.batch([
      db.insert(schema.tiposEventos).values(rows[0]!),
      ...rows.slice(1).map((row) => db.insert(schema.tiposEventos).values(row)),
      ...rows.flatMap((row, i) =>
        funcoes.map((f, j) =>
          db
            .insert(schema.precos)
            .values({ regiao, tipoEventoId: row.id, funcaoProfissionalId: f.id, valorCentavos: 100 * i + j }),
        ),
      ),
    ]);
    return rows;
  }

  it.each([
    ['C1', 1],
    ['C50', 50],
  ])('region %s with %i event types: the auth query + at most 2', async (regiao, n) => {
    const rows = await seed(regiao, n);
    const { body, count } = await measure(regiao);
    console.log(`GET /api/tipos-eventos with ${n} event type(s): ${JSON.stringify(count)} (the auth query included)`);
    expect(body.map((t) => t.id)).toEqual(rows.map((r) => r.id));
    expect(body.every((t, i) => t.precos.length === 2 && t.precos.every((p) => p.tipo_evento_id === rows[i]!.id))).toBe(
      true,
    );
    const last = 100 * (n - 1);
    expect(body[n - 1]!.precos.map((p) => p.valor).sort((a, b) => a - b)).toEqual([last / 100, (last + 1) / 100]);
    // One query authenticates; listing costs at most two more, whatever the number of types.
    expect(count.statements - 1).toBeLessThanOrEqual(2);
    expect(count.roundTrips - 1).toBeLessThanOrEqual(2);
  });
});
