import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { agenda, tiposEventos } from '../../../src/db/schema';
import { AgendaSchema } from '../../../src/routes/agenda/agenda.schemas';
import { db, makeAdmin, makeCatalog, makeFot, uniq, type TestUser } from '../../helpers/factories';
import { keptCountsAfterAll } from '../../helpers/kept-columns';
import { api, expectError } from '../../helpers/request';

// The event's city and venue (docs/decisions.md#d23).
keptCountsAfterAll();

const CAMPINAS = { codigo_ibge: 3509502, nome: 'Campinas', uf: 'SP' };
let admin: TestUser;
beforeAll(async () => {
  admin = await makeAdmin();
});

async function body(over: Record<string, unknown> = {}) {
  const fot = await makeFot('SP');
  const tipo = await makeCatalog(tiposEventos, 'SP');
  return { fot_id: fot.id, tipo_evento_id: tipo.id, data_evento: '2027-03-05', ...over };
}
const post = async (over: Record<string, unknown>) =>
  api('POST', '/api/agenda', { token: admin.token, body: await body(over) });
const put = (id: string, b: object) => api('PUT', `/api/agenda/${id}`, { token: admin.token, body: b });

describe('agenda events with a city and venue coordinates', () => {
  it('answers cidade by name with the coordinates, on create, get and list', async () => {
    const res = await post({ cidade_ibge: 3509502, latitude: -22.8184, longitude: -47.0647 });
    expect(res.status).toBe(201);
    AgendaSchema.parse(res.body);
    expect(res.body).toMatchObject({ cidade_ibge: 3509502, cidade: CAMPINAS, latitude: -22.8184, longitude: -47.0647 });
    const got = await api('GET', `/api/agenda/${res.body.id}`, { token: admin.token });
    expect(got.body.cidade).toEqual(CAMPINAS);
    const list = await api('GET', '/api/agenda?de=2027-03-05&ate=2027-03-05', { token: admin.token });
    expect(list.body.find((e: { id: string }) => e.id === res.body.id).cidade).toEqual(CAMPINAS);
    const none = await post({});
    expect(none.body).toMatchObject({ cidade_ibge: null, cidade: null, latitude: null, longitude: null });
  });

  it('PUT moves the event to another city and clears it with null', async () => {
    const { body: e } = await post({ cidade_ibge: 3509502 });
    const moved = await put(e.id, { cidade_ibge: 3550308 });
    expect(moved.body.cidade).toEqual({ codigo_ibge: 3550308, nome: 'São Paulo', uf: 'SP' });
    const cleared = await put(e.id, { cidade_ibge: null });
    expect(cleared.body).toMatchObject({ cidade_ibge: null, cidade: null });
  });

  it('an unknown city code is 400 on create and update, and nothing is written', async () => {
    const chave = uniq('evt');
    expectError(await post({ cidade_ibge: 3599999, chave_externa: chave }), 400, 'VALIDATION_FAILED');
    expect(await db.select().from(agenda).where(eq(agenda.chaveExterna, chave))).toEqual([]);
    const { body: e } = await post({ cidade_ibge: 3509502 });
    expectError(await put(e.id, { cidade_ibge: 3599999 }), 400, 'VALIDATION_FAILED');
    expect((await api('GET', `/api/agenda/${e.id}`, { token: admin.token })).body.cidade).toEqual(CAMPINAS);
    expectError(await post({ cidade_ibge: 35 }), 400, 'VALIDATION_FAILED');
  });

  it('latitude and longitude go together and stay in range', async () => {
    for (const over of [
      { latitude: -22.8 },
      { longitude: -47 },
      { latitude: -22.8, longitude: null },
      { latitude: 91, longitude: 0 },
    ]) {
      const res = await post(over);
      expectError(res, 400, 'VALIDATION_FAILED');
    }
    const { body: e } = await post({ latitude: -22.8, longitude: -47 });
    expectError(await put(e.id, { latitude: -23 }), 400, 'VALIDATION_FAILED');
    const cleared = await put(e.id, { latitude: null, longitude: null });
    expect(cleared.body).toMatchObject({ latitude: null, longitude: null });
  });
});

describe('import and export carry cidade_ibge', () => {
  it('exports the code and imports it back', async () => {
    const { body: e } = await post({ cidade_ibge: 3509502, data_evento: '2027-04-09' });
    const csv = await api('GET', '/api/exportacoes/agenda.csv?de=2027-04-09&ate=2027-04-09', { token: admin.token });
    expect(csv.status).toBe(200);
    const [header, ...lines] = (csv.body as string).trim().split('\n');
    const sep = header!.includes(';') ? ';' : ',';
    const col = header!.split(sep).indexOf('cidade_ibge');
    expect(col).toBeGreaterThan(0);
    const line = lines.find((l) => l.startsWith(e.id))!;
    expect(line.split(sep)[col]).toBe('3509502');

    const fot = await makeFot('SP');
    const tipo = await makeCatalog(tiposEventos, 'SP');
    const chave = uniq('IMP');
    const file = [
      'chave_externa;fot;tipo_evento;data_evento;cidade_ibge',
      `${chave};${fot.fot};${tipo.label};10/04/2027;3550308`,
    ].join('\n');
    const up = await api('POST', '/api/importacoes?tipo=agenda', {
      token: admin.token,
      rawBody: file,
      headers: { 'content-type': 'text/csv' },
    });
    expect(up.status).toBe(201);
    const applied = await api('POST', `/api/importacoes/${up.body.id}/aplicar`, { token: admin.token });
    expect(applied.status).toBe(200);
    const [row] = await db.select().from(agenda).where(eq(agenda.chaveExterna, chave));
    expect(row!.cidadeIbge).toBe(3550308);
  });

  it('a code that is no city fails the apply (409), writing nothing', async () => {
    const fot = await makeFot('SP');
    const tipo = await makeCatalog(tiposEventos, 'SP');
    const chave = uniq('IMP');
    const file = [
      'chave_externa;fot;tipo_evento;data_evento;cidade_ibge',
      `${chave};${fot.fot};${tipo.label};10/04/2027;3599999`,
    ].join('\n');
    const up = await api('POST', '/api/importacoes?tipo=agenda', {
      token: admin.token,
      rawBody: file,
      headers: { 'content-type': 'text/csv' },
    });
    const applied = await api('POST', `/api/importacoes/${up.body.id}/aplicar`, { token: admin.token });
    expect(applied.status).toBe(409);
    expect(applied.body.code).toBeTypeOf('string');
    expect(await db.select().from(agenda).where(eq(agenda.chaveExterna, chave))).toEqual([]);
  });
});
