/**
 * POST /api/planejamento/simulacao (docs/decisions.md#d26): the answer with hypothetical events equals
 * the answer once the same events are created through the API, and the simulation writes nothing.
 * Days of 2041, its own functions.
 */
import { describe, expect, it } from 'vitest';
import { agendaEquipe, disponibilidades, regras } from '../../../src/db/schema';
import {
  db,
  makeAdmin,
  makeEvento,
  makeFot,
  makeFuncao,
  makeProfissional,
  makeTipoEvento,
  uniq,
} from '../../helpers/factories';
import { api, expectError, UNKNOWN_ID } from '../../helpers/request';
import { keptColumnsAfterAll } from '../../helpers/kept-columns';
import { makeInstituicao } from '../../helpers/rules';

const FLORIANOPOLIS = 4205407;

type Linha = Record<string, any> & { eventos: string[] };

/** The rows with their event lists in one order, hypothetical ids replaced by the created ones. */
const comparable = (linhas: Linha[], ids: Record<string, string> = {}) =>
  linhas.map((l) => ({ ...l, eventos: l.eventos.map((e) => ids[e] ?? e).sort() }));

keptColumnsAfterAll();
describe('the what-if', () => {
  it('answers what creating the same events answers, and writes nothing', async () => {
    const admin = await makeAdmin();
    const f = await makeFuncao('SP', uniq('Garçom'));
    const g = await makeFuncao('SP', uniq('Segurança'));
    const tipo = await makeTipoEvento('SP');
    const ufsc = await makeInstituicao('SP');
    const hs = await Promise.all([0, 1, 2].map(() => makeProfissional('SP', {}, [f.id, g.id])));
    // One holder out on the 6th's evening; an event already there that night.
    await db.insert(disponibilidades).values({
      profissionalId: hs[0]!.id,
      tipo: 'indisponivel',
      dataInicio: '2041-03-06',
      dataFim: '2041-03-06',
      horaInicio: '18:00',
      horaFim: '23:59',
      origem: 'profissional',
    });
    // Another out on the 7th's evening, when only a hypothetical event runs.
    await db.insert(disponibilidades).values({
      profissionalId: hs[1]!.id,
      tipo: 'indisponivel',
      dataInicio: '2041-03-07',
      dataFim: '2041-03-07',
      horaInicio: '21:00',
      horaFim: '22:00',
      origem: 'profissional',
    });
    const existing = await makeEvento('SP', null, {
      dataEvento: '2041-03-06',
      horario: '17:30',
      horarioFim: '23:00',
      cidadeIbge: FLORIANOPOLIS,
    });
    await db.insert(agendaEquipe).values({ agendaId: existing.id, funcaoId: f.id, quantidade: 2 });

    const eventos = [
      {
        data_evento: '2041-03-06',
        horario: '14:00',
        horario_fim: '17:00',
        cidade_ibge: FLORIANOPOLIS,
        tipo_evento_id: tipo.id,
        qtd_formandos: 57,
        equipe: [
          { funcao_id: f.id, quantidade: 2 },
          { funcao_id: g.id, quantidade: 1 },
        ],
        qtd_estudios: 1,
      },
      {
        data_evento: '2041-03-07',
        horario: '20:00',
        tipo_evento_id: tipo.id,
        qtd_formandos: 41,
        instituicao_id: ufsc.id,
        equipe: [{ funcao_id: f.id, quantidade: 4 }],
      },
    ];
    // The security of an event with no quota for it: the company's rule asks ceil(41 / 10) = 5, the
    // institution's (which replaces it for its events) ceil(41 / 20) = 3.
    const definicao = (por_formandos: number) =>
      JSON.stringify({
        quotas: [{ funcao_id: g.id, por_formandos, arredondar: 'cima', limite: 'minimo' }],
        prazos: [],
        taxas: [],
        documentos: [],
      });
    await db.insert(regras).values([
      { regiao: 'SP', nome: uniq('Padrão'), escopo: 'empresa', vigenciaInicio: '2041-01-01', definicao: definicao(10) },
      {
        regiao: 'SP',
        nome: uniq('UFSC'),
        escopo: 'instituicao',
        instituicaoId: ufsc.id,
        vigenciaInicio: '2041-01-01',
        definicao: definicao(20),
      },
    ]);
    const q = 'de=2041-03-05&ate=2041-03-08';
    const get = () => api('GET', `/api/planejamento/capacidade?${q}`, { token: admin.token });
    const before = await get();
    const range = { de: '2041-03-05', ate: '2041-03-08' };
    const sim = await api('POST', '/api/planejamento/simulacao', { token: admin.token, body: { ...range, eventos } });
    expect(sim.status, JSON.stringify(sim.body)).toBe(200);
    // Nothing written: the planner answers as before.
    expect((await get()).body).toEqual(before.body);

    // The 6th: the existing 17:30 event (2) and the hypothetical 14:00-17:00 one (2) in the same city
    // share nobody (17:00 + 40 + 30 > 17:30); one holder is out that evening.
    const row = (b: { linhas: Linha[] }, periodo: string, key: string) =>
      b.linhas.find((l) => l.periodo === periodo && (l.funcao_id ?? l.recurso) === key)!;
    expect(row(sim.body, '2041-03-06', f.id)).toMatchObject({
      demanda_confirmada: 4,
      demanda_pico: 4,
      pool: 3,
      indisponiveis: 1,
      oferta_livre: 2,
      deficit: 2,
    });
    expect(row(sim.body, '2041-03-06', f.id).eventos.sort()).toEqual([existing.id, 'simulacao-1'].sort());
    // The 7th: only the hypothetical 20:00 event (4), which the second holder's 21:00-22:00 meets.
    expect(row(sim.body, '2041-03-07', f.id)).toMatchObject({
      demanda_pico: 4,
      indisponiveis: 1,
      oferta_livre: 2,
      deficit: 2,
      status: 'deficit',
      eventos: ['simulacao-2'],
    });
    expect(row(before.body, '2041-03-07', f.id)).toMatchObject({ demanda_pico: 0, status: 'coberto' });
    // The hypothetical 20:00 event of the institution, with no quota for security: its rule's 3. The 6th's
    // has its own quota (1), the existing event no qtd_formandos: no rule counts for them.
    expect(row(sim.body, '2041-03-07', g.id)).toMatchObject({
      demanda_confirmada: 0,
      demanda_regras: 3,
      demanda_pico: 3,
      deficit: 1,
      eventos: ['simulacao-2'],
    });
    expect(row(sim.body, '2041-03-06', g.id)).toMatchObject({ demanda_confirmada: 1, demanda_regras: 0 });
    expect(row(before.body, '2041-03-07', g.id)).toMatchObject({ demanda_regras: 0, demanda_pico: 0 });

    // Now create them for real, through the API.
    const ids: Record<string, string> = {};
    for (const [i, e] of eventos.entries()) {
      // The institution is the class's (its FOT record's), as on the agenda.
      const { equipe, instituicao_id, ...fields } = e;
      const fot = await makeFot('SP', instituicao_id ? { instituicaoId: instituicao_id } : {});
      const created = await api('POST', '/api/agenda', { token: admin.token, body: { ...fields, fot_id: fot.id } });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const team = await api('PUT', `/api/agenda/${created.body.id}/equipe`, { token: admin.token, body: equipe });
      expect(team.status, JSON.stringify(team.body)).toBe(200);
      ids[`simulacao-${i + 1}`] = created.body.id as string;
    }
    const after = await get();
    expect(after.status).toBe(200);
    expect(comparable(after.body.linhas)).toEqual(comparable(sim.body.linhas, ids));
    // And simulating over the created events changes nothing more than simulating (the same CSV too).
    // Without a range, the events' own days; as CSV on asking.
    const csvSim = await api('POST', '/api/planejamento/simulacao', {
      token: admin.token,
      body: {
        funcao_id: f.id,
        eventos: [
          { data_evento: '2041-03-08', tipo_evento_id: tipo.id },
          { data_evento: '2041-03-06', tipo_evento_id: tipo.id },
        ],
      },
      headers: { accept: 'text/csv' },
    });
    expect(csvSim.status).toBe(200);
    expect(csvSim.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const lines = (csvSim.body as string).trimEnd().split('\r\n');
    expect(lines.slice(1).map((l) => l.split(';')[0])).toEqual(['2041-03-06', '2041-03-07', '2041-03-08']);
  });
});

describe('errors', () => {
  it('refuses references of another region (404), an unknown city and a day outside the range (400)', async () => {
    const admin = await makeAdmin();
    const tipo = await makeTipoEvento('SP');
    const post = (eventos: unknown[], range: object = { de: '2041-04-01', ate: '2041-04-30' }) =>
      api('POST', '/api/planejamento/simulacao', { token: admin.token, body: { ...range, eventos } });
    const ok = { data_evento: '2041-04-02', tipo_evento_id: tipo.id };
    expect((await post([ok])).status).toBe(200);
    expectError(await post([{ ...ok, tipo_evento_id: UNKNOWN_ID }]), 404, 'NOT_FOUND');
    expectError(await post([{ ...ok, tipo_evento_id: (await makeTipoEvento('MG')).id }]), 404, 'NOT_FOUND');
    expectError(
      await post([{ ...ok, equipe: [{ funcao_id: (await makeFuncao('MG')).id, quantidade: 1 }] }]),
      404,
      'NOT_FOUND',
    );
    expectError(await post([{ ...ok, instituicao_id: UNKNOWN_ID }]), 404, 'NOT_FOUND');
    expectError(await post([{ ...ok, cidade_ibge: 3599999 }]), 400, 'VALIDATION_FAILED');
    expectError(await post([{ ...ok, data_evento: '2041-05-01' }]), 400, 'VALIDATION_FAILED');
    expectError(await post([]), 400, 'VALIDATION_FAILED');
    const f = await makeFuncao('SP');
    const twice = [
      { funcao_id: f.id, quantidade: 1 },
      { funcao_id: f.id, quantidade: 2 },
    ];
    expectError(await post([{ ...ok, equipe: twice }]), 400, 'VALIDATION_FAILED');
    expectError(await post([ok], { de: '2041-04-30', ate: '2041-04-01' }), 400, 'VALIDATION_FAILED');
    // More than 120 days between the events (the range defaults to their first and last days).
    expectError(await post([ok, { ...ok, data_evento: '2041-08-01' }], {}), 400, 'VALIDATION_FAILED');
    expectError(await post([ok], { funcao_id: (await makeFuncao('MG')).id }), 404, 'NOT_FOUND');
  });
});
