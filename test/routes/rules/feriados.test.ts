import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { feriados, notifications, profissionais } from '../../../src/db/schema';
import { FeriadoSchema } from '../../../src/routes/rules/feriados.schemas';
import { lembrarCredenciamentoJob } from '../../../src/scheduled/credenciamento';
import { env } from 'cloudflare:test';
import {
  db,
  makeAdmin,
  makeConvite,
  makeEvento,
  makeFuncao,
  makePro,
  makeRegionAdmin,
  makeUser,
  uniq,
  type TestUser,
} from '../../helpers/factories';
import { api, expectError, UNKNOWN_ID } from '../../helpers/request';
import { makeInstituicao } from '../../helpers/rules';

const CAMPINAS = 3509502;
const BELO_HORIZONTE = 3106200;
let admin: TestUser;
let viewer: TestUser;

beforeAll(async () => {
  admin = await makeAdmin();
  viewer = await makeUser({ role: 'agenda_viewer' });
});

const rule = (body: Record<string, unknown>) => api('POST', '/api/regras', { token: admin.token, body });
const dayOf = (rows: { data: string; nome: string }[], data: string) =>
  rows.filter((r) => r.data === data).map((r) => r.nome);

describe('the national and state calendar of the migration', () => {
  it('has the Easter-based days, 20 November from 2024 and state days, for 2024-2040', async () => {
    const all = await db.select().from(feriados);
    const nacional = all.filter((f) => f.escopo === 'nacional');
    // 14 national days a year (13 in none: 20 November is national from 2024 on, the first year loaded).
    expect(nacional).toHaveLength(17 * 14);
    const on = (data: string) => nacional.filter((f) => f.data === data).map((f) => [f.nome, f.tipo]);
    expect(on('2027-02-08')).toEqual([['Carnaval (segunda-feira)', 'feriado']]);
    expect(on('2027-02-10')).toEqual([['Quarta-feira de Cinzas', 'ponto_facultativo']]);
    expect(on('2027-03-26')).toEqual([['Sexta-feira Santa', 'feriado']]);
    expect(on('2027-05-27')).toEqual([['Corpus Christi', 'feriado']]);
    expect(on('2024-11-20')).toEqual([['Dia Nacional de Zumbi e da Consciência Negra', 'feriado']]);
    // Easter 2038 is 25 April (the latest possible is 25 April): Good Friday the 23rd.
    expect(on('2038-04-23')).toEqual([['Sexta-feira Santa', 'feriado']]);
    expect(all.filter((f) => f.escopo === 'uf' && f.uf === 'SP' && f.data === '2040-07-09')).toHaveLength(1);
    expect(all.filter((f) => f.data < '2024-01-01' || f.data > '2040-12-31')).toEqual([]);
    expect(all.every((f) => f.regiao === null || f.escopo === 'municipio' || f.escopo === 'instituicao')).toBe(true);
  });
});

describe('/api/feriados', () => {
  it('lists by period and place, adds municipal and institutional days, removes only its own', async () => {
    const list = await api('GET', '/api/feriados?de=2027-07-01&ate=2027-07-31&uf=SP', { token: viewer.token });
    expect(list.status).toBe(200);
    expect(list.body.map((f: { nome: string }) => f.nome)).toEqual(['Revolução Constitucionalista']);
    expect(list.headers.get('x-total-count')).toBe('1');
    for (const f of list.body) expect(FeriadoSchema.safeParse(f).error).toBeUndefined();

    const add = await api('POST', '/api/feriados', {
      token: admin.token,
      body: {
        data: '2027-07-14',
        nome: 'Aniversário de Campinas',
        tipo: 'feriado',
        escopo: 'municipio',
        cidade_ibge: CAMPINAS,
      },
    });
    expect(add.status, JSON.stringify(add.body)).toBe(201);
    expect(add.body).toMatchObject({ uf: 'SP', cidade_ibge: CAMPINAS, regiao: 'SP', escopo: 'municipio' });
    const again = await api('POST', '/api/feriados', {
      token: admin.token,
      body: { data: '2027-07-14', nome: 'De novo', tipo: 'feriado', escopo: 'municipio', cidade_ibge: CAMPINAS },
    });
    expectError(again, 409, 'CONFLICT');
    const city = await api('GET', `/api/feriados?de=2027-07-01&ate=2027-07-31&cidade_ibge=${CAMPINAS}`, {
      token: viewer.token,
    });
    expect(dayOf(city.body, '2027-07-14')).toEqual(['Aniversário de Campinas']);
    const bh = await api('GET', `/api/feriados?de=2027-07-01&ate=2027-07-31&cidade_ibge=${BELO_HORIZONTE}`, {
      token: viewer.token,
    });
    expect(bh.body).toEqual([]);
    // Another region does not see (nor count) it.
    const mg = await api('GET', `/api/feriados?de=2027-07-14&ate=2027-07-14`, { token: admin.token, regiao: 'MG' });
    expect(mg.body).toEqual([]);
    expectError(
      await api('DELETE', `/api/feriados/${add.body.id}`, { token: admin.token, regiao: 'MG' }),
      404,
      'NOT_FOUND',
    );

    const inst = await makeInstituicao();
    const recesso = await api('POST', '/api/feriados', {
      token: admin.token,
      body: {
        data: '2027-07-13',
        nome: 'Recesso da UFSC',
        tipo: 'recesso',
        escopo: 'instituicao',
        instituicao_id: inst.id,
      },
    });
    expect(recesso.status).toBe(201);
    const ofInst = await api('GET', `/api/feriados?de=2027-07-13&ate=2027-07-13&instituicao_id=${inst.id}`, {
      token: viewer.token,
    });
    expect(ofInst.body.map((f: { nome: string }) => f.nome)).toEqual(['Recesso da UFSC']);

    const [national] = await db
      .select()
      .from(feriados)
      .where(and(eq(feriados.data, '2027-09-07'), eq(feriados.escopo, 'nacional')));
    expectError(await api('DELETE', `/api/feriados/${national!.id}`, { token: admin.token }), 409, 'INVALID_STATE');
    expect((await api('DELETE', `/api/feriados/${add.body.id}`, { token: admin.token })).status).toBe(204);
    expectError(await api('DELETE', `/api/feriados/${UNKNOWN_ID}`, { token: admin.token }), 404, 'NOT_FOUND');
  });

  it('refuses a municipal day without its city, an unknown city, an institution of another region', async () => {
    const noCity = await api('POST', '/api/feriados', {
      token: admin.token,
      body: { data: '2027-07-14', nome: 'X', tipo: 'feriado', escopo: 'municipio' },
    });
    expectError(noCity, 400, 'VALIDATION_FAILED');
    expect(noCity.body.error).toBe('cidade_ibge: é obrigatório num feriado municipal');
    const unknown = await api('POST', '/api/feriados', {
      token: admin.token,
      body: { data: '2027-07-14', nome: 'X', tipo: 'feriado', escopo: 'municipio', cidade_ibge: 1234567 },
    });
    expectError(unknown, 400, 'VALIDATION_FAILED');
    const mgInst = await makeInstituicao('MG');
    const other = await api('POST', '/api/feriados', {
      token: admin.token,
      body: { data: '2027-07-14', nome: 'X', tipo: 'feriado', escopo: 'instituicao', instituicao_id: mgInst.id },
    });
    expectError(other, 404, 'NOT_FOUND');
    const state = await api('POST', '/api/feriados', {
      token: admin.token,
      body: { data: '2027-07-14', nome: 'X', tipo: 'feriado', escopo: 'uf' },
    });
    expectError(state, 400, 'VALIDATION_FAILED');
  });
});

describe('business days where the event happens', () => {
  it('counts over the state and municipal days of its city, the event day excluded', async () => {
    const foto = await makeFuncao();
    const created = await rule({
      nome: uniq('Padrão'),
      escopo: 'empresa',
      vigencia_inicio: '2027-07-01',
      vigencia_fim: '2027-07-31',
      definicao: {
        quotas: [{ funcao_id: foto.id, por_formandos: 50, arredondar: 'cima', limite: 'minimo' }],
        prazos: [{ tipo: 'credenciamento', quantidade: 2, unidade: 'dias_uteis', antes_de: 'data_evento' }],
      },
    });
    expect(created.status).toBe(201);
    await api('POST', '/api/feriados', {
      token: admin.token,
      body: {
        data: '2027-07-14',
        nome: 'Aniversário de Campinas',
        tipo: 'feriado',
        escopo: 'municipio',
        cidade_ibge: CAMPINAS,
      },
    });
    const deadline = async (cidadeIbge: number, dataEvento: string) => {
      const ev = await makeEvento('SP', viewer, { dataEvento, cidadeIbge });
      const res = await api('GET', `/api/agenda/${ev.id}/regras`, { token: viewer.token });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.prazos[0].data_limite as string;
    };
    // Monday 12 July: Friday 9 is São Paulo's day, not Minas Gerais'.
    expect(await deadline(CAMPINAS, '2027-07-12')).toBe('2027-07-07');
    expect(await deadline(BELO_HORIZONTE, '2027-07-12')).toBe('2027-07-08');
    // Friday 16 July in Campinas: Wednesday 14 is the city's day.
    expect(await deadline(CAMPINAS, '2027-07-16')).toBe('2027-07-13');
    expect(await deadline(BELO_HORIZONTE, '2027-07-16')).toBe('2027-07-14');
  });
});

describe('GET /api/agenda/{id}/credenciamento.csv and the reminder', () => {
  it('lists the accepted team with the documents the rules name, formula-escaped', async () => {
    const inst = await makeInstituicao();
    const foto = await makeFuncao();
    expect(
      (
        await rule({
          nome: 'UFSC docs',
          escopo: 'instituicao',
          instituicao_id: inst.id,
          vigencia_inicio: '2020-01-01',
          definicao: { documentos: ['nome_completo', 'cpf', 'rg', 'funcao'] },
        })
      ).status,
    ).toBe(201);
    const ev = await makeEvento('SP', viewer, { dataEvento: '2027-05-10', fot: { instituicaoId: inst.id } });
    const a = await makePro('SP', foto.id);
    const b = await makePro('SP', foto.id);
    await db
      .update(profissionais)
      .set({ nome: '=HYPERLINK("x")', cpfCnpjTitular: '52998224725' })
      .where(eq(profissionais.id, a.prof.id));
    await makeConvite(ev.id, a, 'aceito');
    await makeConvite(ev.id, b, 'pendente');
    const res = await api('GET', `/api/agenda/${ev.id}/credenciamento.csv`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/csv/);
    const lines = String(res.body).trim().split(/\r?\n/);
    expect(lines[0]).toBe('Nome completo;CPF;RG;Função');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`'=HYPERLINK`);
    expect(lines[1]).toContain('52998224725');
    expectError(await api('GET', `/api/agenda/${ev.id}/credenciamento.csv`, { token: viewer.token }), 403, 'FORBIDDEN');
    expectError(
      await api('GET', `/api/agenda/${ev.id}/credenciamento.csv`, { token: admin.token, regiao: 'MG' }),
      404,
      'NOT_FOUND',
    );
  });

  it('reminds the region administrators 2 business days before the deadline, once over three runs, never after it was sent', async () => {
    const regionAdmin = await makeRegionAdmin('SP');
    const mgAdmin = await makeRegionAdmin('MG');
    // Deadline Wednesday 2027-07-14 in Campinas; 2 business days before: Monday 12 (Friday 9 is SP's day).
    const ev = await makeEvento('SP', viewer, { dataEvento: '2027-07-23', cidadeIbge: CAMPINAS });
    const sent = await makeEvento('SP', viewer, { dataEvento: '2027-07-23', cidadeIbge: CAMPINAS });
    for (const id of [ev.id, sent.id])
      expect(
        (
          await api('PUT', `/api/agenda/${id}/logistica`, {
            token: viewer.token,
            body: { prazo_credenciamento: '2027-07-14' },
          })
        ).status,
      ).toBe(200);
    const patched = await api('PATCH', `/api/agenda/${sent.id}/logistica`, {
      token: viewer.token,
      body: { credenciamento_enviado_em: '2027-07-01' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.credenciamento_enviado_em).toBe('2027-07-01');
    const notesOf = (userId: string) =>
      db
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, userId), eq(notifications.tipo, 'credenciamento_pendente')));
    // Friday 9 July, 12:00 in São Paulo: not yet.
    await lembrarCredenciamentoJob(env, new Date('2027-07-09T15:00:00Z'));
    expect(await notesOf(regionAdmin.id)).toHaveLength(0);
    const monday = new Date('2027-07-12T15:00:00Z');
    await Promise.all([lembrarCredenciamentoJob(env, monday), lembrarCredenciamentoJob(env, monday)]);
    await lembrarCredenciamentoJob(env, new Date('2027-07-13T15:00:00Z'));
    const mine = (await notesOf(regionAdmin.id)).filter(
      (n) => (n.dados as unknown as { agenda_id: string }).agenda_id === ev.id,
    );
    expect(mine).toHaveLength(1);
    expect(mine[0]!.mensagem).toBe(
      'A lista de credenciamento do evento de 23/07/2027 vence em 14/07/2027 e ainda não foi enviada.',
    );
    expect(
      (await notesOf(regionAdmin.id)).filter(
        (n) => (n.dados as unknown as { agenda_id: string }).agenda_id === sent.id,
      ),
    ).toHaveLength(0);
    expect(await notesOf(mgAdmin.id)).toHaveLength(0);
  });
});
