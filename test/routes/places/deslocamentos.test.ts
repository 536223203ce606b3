import { describe, expect, it, beforeAll } from 'vitest';
import { estimatedMinutes, greatCircleKm, travelMinutes, type Place } from '../../../src/services/places/deslocamentos';
import { makeAdmin, makeUser, type TestUser } from '../../helpers/factories';
import { api, expectError } from '../../helpers/request';

const CAMPINAS = 3509502;
const SAO_PAULO = 3550308;
const JUNDIAI = 3525904;
const city = (codigo_ibge: number, latitude: number, longitude: number): Place => ({
  cidade: { codigo_ibge, latitude, longitude },
});
const campinas = city(CAMPINAS, -22.9053, -47.0659);
const saoPaulo = city(SAO_PAULO, -23.5329, -46.6395);

describe('travelMinutes, the four-step rule (pure)', () => {
  it('(1) the matrix, either way unless the reverse row exists', () => {
    const one = [{ origem_ibge: CAMPINAS, destino_ibge: SAO_PAULO, minutos: 100 }];
    expect(travelMinutes(campinas, saoPaulo, one, 40)).toMatchObject({ minutos: 100, fonte: 'matriz' });
    expect(travelMinutes(saoPaulo, campinas, one, 40)).toMatchObject({ minutos: 100, fonte: 'matriz' });
    const both = [...one, { origem_ibge: SAO_PAULO, destino_ibge: CAMPINAS, minutos: 130 }];
    expect(travelMinutes(saoPaulo, campinas, both, 40)).toMatchObject({ minutos: 130, fonte: 'matriz' });
    expect(travelMinutes(campinas, saoPaulo, both, 40)).toMatchObject({ minutos: 100, fonte: 'matriz' });
    // A same-city row overrides the default.
    expect(
      travelMinutes(campinas, campinas, [{ origem_ibge: CAMPINAS, destino_ibge: CAMPINAS, minutos: 60 }], 40),
    ).toMatchObject({ minutos: 60, fonte: 'matriz' });
  });

  it('(2) the same city without a row', () => {
    expect(travelMinutes(campinas, campinas, [], 40)).toEqual({ minutos: 40, distancia_km: 0, fonte: 'mesma_cidade' });
  });

  it('(3) km x 1.3 at 60 km/h rounded up to 5 minutes; the venues when both have them', () => {
    const km = greatCircleKm(campinas.cidade!, saoPaulo.cidade!);
    expect(km).toBeGreaterThan(80);
    expect(km).toBeLessThan(90);
    const t = travelMinutes(campinas, saoPaulo, [], 40)!;
    expect(t).toEqual({ minutos: estimatedMinutes(km), distancia_km: Math.round(km * 10) / 10, fonte: 'estimado' });
    expect(t.minutos % 5).toBe(0);
    expect(t.minutos).toBeGreaterThanOrEqual((km * 1.3 * 60) / 60);
    expect(estimatedMinutes(0)).toBe(0);
    expect(estimatedMinutes(50 / 1.3)).toBe(50); // exactly 50 minutes stays 50
    const venueA = { ...campinas, venue: { latitude: -23.0, longitude: -47.0 } };
    const venueB = { ...saoPaulo, venue: { latitude: -23.0, longitude: -47.0 } };
    expect(travelMinutes(venueA, venueB, [], 40)).toMatchObject({ distancia_km: 0, minutos: 0, fonte: 'estimado' });
    expect(travelMinutes(venueA, saoPaulo, [], 40)!.distancia_km).toBe(t.distancia_km); // one venue only: the cities
  });

  it('(4) a city unknown on either side: no travel rule', () => {
    expect(travelMinutes({ cidade: null }, saoPaulo, [], 40)).toBeUndefined();
    expect(travelMinutes(campinas, { cidade: null }, [], 40)).toBeUndefined();
  });
});

describe('/api/deslocamentos', () => {
  let admin: TestUser;
  let viewer: TestUser;
  beforeAll(async () => {
    admin = await makeAdmin();
    viewer = await makeUser({ role: 'agenda_viewer' });
  });
  const put = (itens: object[], regiao = 'MG') =>
    api('PUT', '/api/deslocamentos', { token: admin.token, regiao, body: { itens } });
  const estimativa = (o: number | string, d: number | string, regiao = 'MG', token = viewer.token) =>
    api('GET', `/api/deslocamentos/estimativa?origem=${o}&destino=${d}`, { token, regiao });

  it('PUT upserts rows by origin and destination; GET lists the region', async () => {
    const first = await put([{ origem_ibge: CAMPINAS, destino_ibge: SAO_PAULO, minutos: 100, fonte: 'medido' }]);
    expect(first.status).toBe(200);
    expect(first.body).toEqual([
      expect.objectContaining({
        origem_ibge: CAMPINAS,
        destino_ibge: SAO_PAULO,
        minutos: 100,
        fonte: 'medido',
        regiao: 'MG',
      }),
    ]);
    const again = await put([
      { origem_ibge: CAMPINAS, destino_ibge: SAO_PAULO, minutos: 110 },
      { origem_ibge: SAO_PAULO, destino_ibge: CAMPINAS, minutos: 130 },
    ]);
    expect(again.body.map((r: { minutos: number }) => r.minutos)).toEqual([110, 130]);
    expect(again.body[0].id).toBe(first.body[0].id);
    const list = await api('GET', '/api/deslocamentos', { token: admin.token, regiao: 'MG' });
    expect(list.body).toHaveLength(2);
    expect((await api('GET', '/api/deslocamentos', { token: admin.token, regiao: 'SP' })).body).toEqual([]);
  });

  it('the estimate follows the rule: matrix (reverse override), same city, estimated', async () => {
    expect((await estimativa(CAMPINAS, SAO_PAULO)).body).toMatchObject({ minutos: 110, fonte: 'matriz' });
    expect((await estimativa(SAO_PAULO, CAMPINAS)).body).toMatchObject({ minutos: 130, fonte: 'matriz' });
    expect((await estimativa(CAMPINAS, CAMPINAS)).body).toMatchObject({ minutos: 40, fonte: 'mesma_cidade' });
    const est = await estimativa(CAMPINAS, JUNDIAI);
    expect(est.body.fonte).toBe('estimado');
    expect(est.body.minutos % 5).toBe(0);
    expect((await estimativa(CAMPINAS, SAO_PAULO, 'SP')).body.fonte).toBe('estimado'); // another region's matrix
  });

  it('refuses unknown cities, bad rows and too many rows, writing nothing', async () => {
    expectError(
      await put([{ origem_ibge: CAMPINAS, destino_ibge: 3599999, minutos: 10 }], 'SP'),
      400,
      'VALIDATION_FAILED',
    );
    expect((await api('GET', '/api/deslocamentos', { token: admin.token, regiao: 'SP' })).body).toEqual([]);
    expectError(await put([{ origem_ibge: CAMPINAS, destino_ibge: SAO_PAULO, minutos: -1 }]), 400, 'VALIDATION_FAILED');
    expectError(await put([]), 400, 'VALIDATION_FAILED');
    // A pair sent twice in one body: the last one wins.
    const twice = await put([
      { origem_ibge: CAMPINAS, destino_ibge: JUNDIAI, minutos: 1 },
      { origem_ibge: CAMPINAS, destino_ibge: JUNDIAI, minutos: 2 },
    ]);
    expect(twice.body.find((r: { destino_ibge: number }) => r.destino_ibge === JUNDIAI).minutos).toBe(2);
    expectError(
      await put(
        Array.from({ length: 201 }, (_, i) => ({ origem_ibge: CAMPINAS, destino_ibge: 1100015 + i, minutos: 1 })),
      ),
      400,
      'VALIDATION_FAILED',
    );
    expectError(await estimativa(CAMPINAS, 3599999), 400, 'VALIDATION_FAILED');
    expectError(await estimativa('abc', CAMPINAS), 400, 'VALIDATION_FAILED');
  });

  it('the matrix is for administrators, the estimate for planners', async () => {
    expectError(await api('GET', '/api/deslocamentos', { token: viewer.token }), 403, 'FORBIDDEN');
    const pro = await makeUser({ role: 'profissional' });
    expectError(await estimativa(CAMPINAS, SAO_PAULO, 'MG', pro.token), 403, 'FORBIDDEN');
  });
});
