import { and, eq, like } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { logsAtividade } from '../../../src/db/schema';
import { percentOf, withholding, type TaxTable } from '../../../src/lib/money';
import { db, makeAdmin, makeUser, type TestUser } from '../../helpers/factories';
import { api, expectError } from '../../helpers/request';

/** A table shaped like Brazil's 2024 monthly one (figures in cents). */
const TABLE: TaxTable = {
  inssAliquota: 11,
  inssTetoCentavos: 778_602,
  irrfFaixas: [
    { ateCentavos: 225_920, aliquota: 0, deducaoCentavos: 0 },
    { ateCentavos: 282_665, aliquota: 7.5, deducaoCentavos: 16_944 },
    { ateCentavos: 375_105, aliquota: 15, deducaoCentavos: 38_144 },
    { ateCentavos: 466_468, aliquota: 22.5, deducaoCentavos: 66_277 },
    { ateCentavos: null, aliquota: 27.5, deducaoCentavos: 89_600 },
  ],
  issAliquota: 5,
};

describe('withholding (hand-computed figures)', () => {
  it.each([
    // bruto, inss, irrf, iss, liquido — worked by hand in docs/guide/money.md
    ['exempt bracket', 200_000, 22_000, 0, 10_000, 168_000],
    ['7.5% bracket: 2670.00 × 7.5% − 169.44', 300_000, 33_000, 3_081, 15_000, 248_919],
    ['15% bracket: 3560.00 × 15% − 381.44', 400_000, 44_000, 15_256, 20_000, 320_744],
    ['22.5% bracket: 4450.00 × 22.5% − 662.77', 500_000, 55_000, 33_848, 25_000, 386_152],
    [
      'INSS ceiling + 27.5%: 7786.02 × 11% = 856.46; 9143.54 × 27.5% = 2514.47 − 896.00',
      1_000_000,
      85_646,
      161_847,
      50_000,
      702_507,
    ],
  ])('%s', (_name, bruto, inss, irrf, iss, liquido) => {
    expect(withholding(bruto, TABLE)).toEqual({ inss, irrf, iss, liquido });
  });

  it('rounds each figure half-up to the cent, without float error', () => {
    expect(percentOf(123_450, 7.5)).toBe(9_259); // 92.5875 → 92.59
    expect(percentOf(1, 50)).toBe(1); // 0.5 cent → 1
    expect(percentOf(3, 0.01)).toBe(0);
    expect(percentOf(10_000_000_000, 27.5)).toBe(2_750_000_000);
    expect(percentOf(101, 0.5)).toBe(1); // 0.505 → 1
  });

  it('IRRF is never below zero', () => {
    expect(withholding(230_000, { ...TABLE, issAliquota: 0 }).irrf).toBe(0);
  });
});

describe('tax tables', () => {
  let admin: TestUser;
  let owner: TestUser;
  beforeAll(async () => {
    admin = await makeAdmin();
    owner = await makeUser({ role: 'BUSINESS_OWNER' });
  });
  const body = {
    inss_aliquota: 11,
    inss_teto: 7786.02,
    irrf_faixas: [
      { ate: 2259.2, aliquota: 0, deducao: 0 },
      { ate: 2826.65, aliquota: 7.5, deducao: 169.44 },
      { ate: null, aliquota: 27.5, deducao: 896 },
    ],
    iss_aliquota: 5,
  };

  it('SUPERADMIN creates and replaces a table; administrators list them; every write logged', async () => {
    const put = await api('PUT', '/api/financeiro/tabelas-tributarias/2030-01-01', { token: admin.token, body });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toMatchObject({ ...body, vigencia: '2030-01-01' });
    const again = await api('PUT', '/api/financeiro/tabelas-tributarias/2030-01-01', {
      token: admin.token,
      body: { ...body, iss_aliquota: 2.5 },
    });
    expect(again.body.iss_aliquota).toBe(2.5);
    const list = await api('GET', '/api/financeiro/tabelas-tributarias', { token: owner.token });
    expect(list.body.find((t: any) => t.vigencia === '2030-01-01')).toMatchObject({ iss_aliquota: 2.5 });
    const logs = await taxLogs('2030-01-01');
    expect(logs.map((l) => l.acao)).toEqual(['tabelas_tributarias.create', 'tabelas_tributarias.update']);
    expectError(
      await api('PUT', '/api/financeiro/tabelas-tributarias/2030-01-01', { token: owner.token, body }),
      403,
      'FORBIDDEN',
    );
  });

  it('refuses malformed tables', async () => {
    const put = (b: unknown, v = '2030-02-01') =>
      api('PUT', `/api/financeiro/tabelas-tributarias/${v}`, { token: admin.token, body: b });
    expectError(await put({ ...body, inss_aliquota: 101 }), 400, 'VALIDATION_FAILED');
    expectError(await put({ ...body, iss_aliquota: 1.23456 }), 400, 'VALIDATION_FAILED');
    expectError(await put({ ...body, irrf_faixas: [{ ate: 10, aliquota: 0, deducao: 0 }] }), 400, 'VALIDATION_FAILED');
    expectError(
      await put({
        ...body,
        irrf_faixas: [
          { ate: null, aliquota: 0, deducao: 0 },
          { ate: null, aliquota: 5, deducao: 0 },
        ],
      }),
      400,
      'VALIDATION_FAILED',
    );
    expectError(
      await put({
        ...body,
        irrf_faixas: [
          { ate: 100, aliquota: 0, deducao: 0 },
          { ate: 50, aliquota: 5, deducao: 0 },
          { ate: null, aliquota: 5, deducao: 0 },
        ],
      }),
      400,
      'VALIDATION_FAILED',
    );
    expect((await put(body, '2030-02-30')).status).toBe(400);
  });
});

const taxLogs = (vigencia: string) =>
  db
    .select()
    .from(logsAtividade)
    .where(and(eq(logsAtividade.entidade, 'tabelas_tributarias'), like(logsAtividade.dados, `%${vigencia}%`)))
    .orderBy(logsAtividade.seq);
