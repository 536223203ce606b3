/**
 * One date rule everywhere (issue 32 item 17): every date the document allows (`format: date`,
 * YYYY-MM-DD, years 0000-9999 of the Gregorian calendar) is accepted by every date field and date
 * query parameter, and answers what it says. Years 0001-0099 were refused (JavaScript's Date.UTC reads
 * them as 1900-1999) and dates near 9999 computed past the format.
 */
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { makeAdmin, makeCatalog, makeFot, makeUser, uniq, makeEvento } from '../helpers/factories';
import { api, expectError, send } from '../helpers/request';
import { tiposEventos } from '../../src/db/schema';

describe('years 0000-0099 are dates like any other', () => {
  it('GET /api/agenda?de=0099-12-31 answers 200, as 0100-01-01 always did; a year-0 leap day is a day', async () => {
    const admin = await makeAdmin();
    for (const de of ['0099-12-31', '0100-01-01', '0001-01-01', '0000-02-29'])
      expect((await api('GET', `/api/agenda?de=${de}`, { token: admin.token })).status, de).toBe(200);
    // 100 is not a leap year (divisible by 100, not by 400): its 29 February does not exist.
    const res = await api('GET', '/api/agenda?de=0100-02-29', { token: admin.token });
    expectError(res, 400, 'VALIDATION_FAILED');
    expect(res.body.error).toBe('de: deve ser uma data AAAA-MM-DD (a data 0100-02-29 não existe)');
  });

  it('an event on 0050-06-15 is stored, listed and filtered by that date', async () => {
    const admin = await makeAdmin();
    const fot = await makeFot('SP');
    const tipo = await makeCatalog(tiposEventos, 'SP');
    const res = await api('POST', '/api/agenda', {
      token: admin.token,
      body: { fot_id: fot.id, tipo_evento_id: tipo.id, data_evento: '0050-06-15', horario: '10:00' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data_evento).toBe('0050-06-15');
    const list = await api('GET', `/api/agenda?de=0050-06-15&ate=0050-06-15&fot_id=${fot.id}`, {
      token: admin.token,
    });
    expect(list.body.map((e: { id: string }) => e.id)).toEqual([res.body.id]);
  });

  it('the other date query parameters: vagas, finance entries, the activity log', async () => {
    const admin = await makeAdmin();
    const pro = await makeUser({ role: 'profissional' });
    expect((await api('GET', '/api/vagas?de=0099-12-31', { token: pro.token })).status).not.toBe(400);
    expect(
      (await api('GET', '/api/financeiro/lancamentos?de=0099-01-01&ate=0099-12-31', { token: admin.token })).status,
    ).toBe(200);
    expect((await api('GET', '/api/logs-atividade?de=0099-12-31', { token: admin.token })).status).toBe(200);
  });

  it('a contract from 0099-01-31: installments one month apart in year 99, not 1999', async () => {
    const admin = await makeAdmin();
    const fot = await makeFot('SP');
    const res = await api('POST', '/api/financeiro/contratos', {
      token: admin.token,
      body: { fot_id: fot.id, valor_total: 100, parcelas: 3, primeiro_vencimento: '0099-01-31' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.lancamentos.map((p: { vencimento: string }) => p.vencimento)).toEqual([
      '0099-01-31',
      '0099-02-28',
      '0099-03-31',
    ]);
  });
});

describe('dates at the end of the format (9999-12-31)', () => {
  it('a contract whose installments would pass 9999-12-31 is refused, none stored past the format', async () => {
    const admin = await makeAdmin();
    const fot = await makeFot('SP');
    const post = (primeiro_vencimento: string, parcelas: number) =>
      api('POST', '/api/financeiro/contratos', {
        token: admin.token,
        body: { fot_id: fot.id, valor_total: 100, parcelas, primeiro_vencimento },
      });
    const refused = await post('9999-12-31', 2);
    expectError(refused, 400, 'VALIDATION_FAILED');
    expect(refused.body.error).toBe('parcelas: a última parcela venceria depois de 9999-12-31');
    const last = await post('9999-11-30', 2);
    expect(last.status).toBe(201);
    expect(last.body.lancamentos.map((p: { vencimento: string }) => p.vencimento)).toEqual([
      '9999-11-30',
      '9999-12-30',
    ]);
  });

  it('ate=9999-12-31 on a timestamp filter still includes everything up to today', async () => {
    const admin = await makeAdmin();
    const curso = await api('POST', '/api/cursos', { token: admin.token, body: { nome: uniq('Curso') } });
    const log = await api('GET', `/api/logs-atividade?entidade_id=${curso.body.id}&ate=9999-12-31`, {
      token: admin.token,
    });
    expect(log.body.map((e: { acao: string }) => e.acao)).toEqual(['cursos.create']);
    const nome = uniq('Exportada');
    expect((await api('POST', '/api/profissionais', { token: admin.token, body: { nome } })).status).toBe(201);
    const csv = await send('GET', '/api/exportacoes/profissionais.csv?de=0000-01-01&ate=9999-12-31', {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(csv.status).toBe(200);
    expect(await csv.text()).toContain(nome);
  });

  it('an all-day event on 9999-12-31 is a well-formed calendar entry (its end is stated as a length)', async () => {
    const viewer = await makeUser({ role: 'agenda_viewer' });
    await makeEvento('SP', viewer, { dataEvento: '9999-12-31', horario: null });
    await makeEvento('SP', viewer, { dataEvento: '9999-12-31', horario: '20:00' });
    const url = (await api('GET', '/api/me/calendario', { token: viewer.token })).body.url as string;
    const text = await (await send('GET', new URL(url).pathname)).text();
    expect(text).not.toMatch(/\+0100/);
    expect(text).toContain('DURATION:P1D');
    expect(text).toContain('DURATION:PT300M');
    const events = new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent');
    expect(events).toHaveLength(2);
    for (const e of events) expect(new ICAL.Event(e).duration.toSeconds()).toBeGreaterThan(0);
  });
});

describe('instants follow the same rule', () => {
  it('an instant on a day that does not exist is refused (it was read as a day of the next month)', async () => {
    const admin = await makeAdmin();
    for (const antes of ['2027-02-30T00:00:00.000Z', '2027-02-29T12:00:00Z']) {
      const res = await api('GET', `/api/v1/notifications?antes=${antes}`, { token: admin.token });
      expectError(res, 400, 'VALIDATION_FAILED');
    }
    expect((await api('GET', '/api/v1/notifications?antes=0099-12-31T00:00:00Z', { token: admin.token })).status).toBe(
      200,
    );
    expect(
      (await api('GET', '/api/logs-atividade?antes=2028-02-29T23:59:59.999Z', { token: admin.token })).status,
    ).toBe(200);
  });
});
