import { beforeAll, describe, expect, it } from 'vitest';
import { AvaliacaoSchema, RegraSchema } from '../../../src/routes/rules/regras.schemas';
import { FLORIANOPOLIS, makeInstituicao } from '../../helpers/rules';
import {
  makeAdmin,
  makeEvento,
  makeFuncao,
  makeTipoEvento,
  makeUser,
  uniq,
  type TestUser,
} from '../../helpers/factories';
import { api, expectError, UNKNOWN_ID } from '../../helpers/request';
import { entriesOf } from '../../helpers/activity-log';

let admin: TestUser;
let viewer: TestUser;
let foto: { id: string; label: string };

const ufscBody = (instituicaoId: string, over: Record<string, unknown> = {}) => ({
  nome: 'UFSC 2011',
  escopo: 'instituicao',
  instituicao_id: instituicaoId,
  fonte_url: 'https://example.edu/resolucao-2011',
  vigencia_inicio: '2011-01-01',
  definicao: {
    quotas: [
      { funcao_id: foto.id, por_formandos: 20, arredondar: 'cima', limite: 'maximo' },
      { recurso: 'qtd_estudios', por_formandos: 20, arredondar: 'cima', limite: 'maximo' },
    ],
    prazos: [{ tipo: 'credenciamento', quantidade: 5, unidade: 'dias_uteis', antes_de: 'data_evento' }],
    taxas: [
      { descricao: 'Credencial', por: 'profissional', valor: 50 },
      { descricao: 'Estúdio', por: 'estudio', valor: 200.5 },
    ],
    documentos: ['nome_completo', 'cpf', 'funcao'],
  },
  ...over,
});

beforeAll(async () => {
  admin = await makeAdmin();
  viewer = await makeUser({ role: 'agenda_viewer' });
  foto = await makeFuncao('SP', uniq('Fotógrafo'));
});

describe('/api/regras', () => {
  it('creates, reads, lists by filters, replaces and deletes a rule, logging each write', async () => {
    const inst = await makeInstituicao();
    const res = await api('POST', '/api/regras', { token: admin.token, body: ufscBody(inst.id) });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(RegraSchema.safeParse(res.body).error).toBeUndefined();
    expect(res.body).toMatchObject({
      escopo: 'instituicao',
      instituicao_id: inst.id,
      vigencia_fim: null,
      regiao: 'SP',
    });
    expect(res.body.definicao.taxas[1]).toEqual({ descricao: 'Estúdio', por: 'estudio', valor: 200.5 });
    const id = res.body.id as string;
    expect((await api('GET', `/api/regras/${id}`, { token: admin.token })).body).toEqual(res.body);

    const mine = await api('GET', `/api/regras?instituicao_id=${inst.id}`, { token: admin.token });
    expect(mine.body.map((r: { id: string }) => r.id)).toEqual([id]);
    const then = await api('GET', `/api/regras?instituicao_id=${inst.id}&vigente_em=2010-12-31`, {
      token: admin.token,
    });
    expect(then.body).toEqual([]);
    expect((await api('GET', `/api/regras/${id}`, { token: admin.token, regiao: 'MG' })).status).toBe(404);

    const put = await api('PUT', `/api/regras/${id}`, {
      token: admin.token,
      body: ufscBody(inst.id, { vigencia_fim: '2026-12-31' }),
    });
    expect(put.status).toBe(200);
    expect(put.body.vigencia_fim).toBe('2026-12-31');
    const log = await entriesOf(id);
    expect(log.map((e) => e.acao).sort()).toEqual(['regras.create', 'regras.update']);

    expect((await api('DELETE', `/api/regras/${id}`, { token: admin.token })).status).toBe(204);
    expectError(await api('DELETE', `/api/regras/${id}`, { token: admin.token }), 404, 'NOT_FOUND');
    expectError(
      await api('PUT', `/api/regras/${UNKNOWN_ID}`, { token: admin.token, body: ufscBody(inst.id) }),
      404,
      'NOT_FOUND',
    );
  });

  it('refuses a malformed rule with 400 naming the field, outside words included', async () => {
    const inst = await makeInstituicao();
    const bad = async (definicao: unknown, field: string) => {
      const res = await api('POST', '/api/regras', { token: admin.token, body: { ...ufscBody(inst.id), definicao } });
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(res.body.campos.map((c: { campo: string }) => c.campo)).toContain(field);
    };
    const quota = { funcao_id: foto.id, por_formandos: 20, arredondar: 'cima', limite: 'maximo' };
    await bad({ quotas: [{ ...quota, por_formandos: 0 }] }, 'definicao.quotas.0.por_formandos');
    await bad({ quotas: [{ ...quota, limite: 'ate' }] }, 'definicao.quotas.0.limite');
    await bad({ quotas: [{ ...quota, formula: 'F / 20' }] }, 'definicao.quotas.0');
    await bad({ quotas: [{ ...quota, recurso: 'qtd_estudios' }] }, 'definicao.quotas.0.funcao_id');
    await bad({ quotas: [{ ...quota, recurso: 'qtd_cadeiras', funcao_id: undefined }] }, 'definicao.quotas.0.recurso');
    await bad(
      { prazos: [{ tipo: 'credenciamento', quantidade: 5, unidade: 'horas', antes_de: 'data_evento' }] },
      'definicao.prazos.0.unidade',
    );
    await bad({ taxas: [{ descricao: 'x', por: 'evento', valor: 1.234 }] }, 'definicao.taxas.0.valor');
    await bad({ documentos: ['cpf', 'cpf'] }, 'definicao.documentos');
    await bad({ expressao: 'x' }, 'definicao');
    const scope = await api('POST', '/api/regras', {
      token: admin.token,
      body: { ...ufscBody(inst.id), escopo: 'empresa' },
    });
    expectError(scope, 400, 'VALIDATION_FAILED');
    expect(scope.body.error).toBe('instituicao_id: uma regra de escopo empresa não tem instituição');
    const noInst = await api('POST', '/api/regras', {
      token: admin.token,
      body: { ...ufscBody(inst.id), instituicao_id: null },
    });
    expect(noInst.body.error).toBe('instituicao_id: é obrigatório numa regra de escopo instituicao');
    const order = await api('POST', '/api/regras', {
      token: admin.token,
      body: ufscBody(inst.id, { vigencia_fim: '2010-01-01' }),
    });
    expect(order.body.error).toBe('vigencia_fim: não pode ser antes de vigencia_inicio');
  });

  it('refuses references outside the region (404 naming the field) and two versions starting the same day (409)', async () => {
    const inst = await makeInstituicao();
    const mgInst = await makeInstituicao('MG');
    const mgFuncao = await makeFuncao('MG');
    const r1 = await api('POST', '/api/regras', { token: admin.token, body: ufscBody(mgInst.id) });
    expectError(r1, 404, 'NOT_FOUND');
    expect(r1.body.error).toMatch(/^instituicao_id:/);
    const body = ufscBody(inst.id);
    body.definicao.quotas[0]!.funcao_id = mgFuncao.id;
    const r2 = await api('POST', '/api/regras', { token: admin.token, body });
    expect(r2.body.error).toMatch(/^definicao\.quotas\.0\.funcao_id:/);
    expect((await api('POST', '/api/regras', { token: admin.token, body: ufscBody(inst.id) })).status).toBe(201);
    const twice = await api('POST', '/api/regras', { token: admin.token, body: ufscBody(inst.id, { nome: 'outra' }) });
    expectError(twice, 409, 'CONFLICT');
    expect(twice.body.error).toMatch(/^vigencia_inicio:/);
    const next = await api('POST', '/api/regras', {
      token: admin.token,
      body: ufscBody(inst.id, { nome: 'UFSC 2027', vigencia_inicio: '2027-03-01' }),
    });
    expect(next.status).toBe(201);
  });
});

describe('GET /api/agenda/{id}/regras and the cap on the team quota', () => {
  it('explains the suggestion, the deadline in business days and the fees; a quota above the cap is 409 unless forced', async () => {
    const inst = await makeInstituicao();
    const tipo = await makeTipoEvento();
    expect((await api('POST', '/api/regras', { token: admin.token, body: ufscBody(inst.id) })).status).toBe(201);
    const company = await api('POST', '/api/regras', {
      token: admin.token,
      body: {
        nome: uniq('Padrão'),
        escopo: 'empresa',
        tipo_evento_id: tipo.id,
        vigencia_inicio: '2020-01-01',
        definicao: { quotas: [{ funcao_id: foto.id, por_formandos: 30, arredondar: 'cima', limite: 'minimo' }] },
      },
    });
    expect(company.status).toBe(201);
    // Friday 2027-02-12, in Florianópolis: Carnaval Monday and Tuesday are skipped.
    const ev = await makeEvento('SP', viewer, {
      dataEvento: '2027-02-12',
      qtdFormandos: 57,
      tipoEventoId: tipo.id,
      cidadeIbge: FLORIANOPOLIS,
      fot: { instituicaoId: inst.id },
    });
    const res = await api('GET', `/api/agenda/${ev.id}/regras`, { token: viewer.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(AvaliacaoSchema.safeParse(res.body).error).toBeUndefined();
    const nome = foto.label.toLocaleLowerCase('pt-BR');
    expect(res.body.quotas_sugeridas).toEqual([
      expect.objectContaining({
        funcao_id: foto.id,
        quantidade: 2,
        minimo: 2,
        maximo: 3,
        explicacao: `${nome}: ceil(57 / 30) = 2 (mínimo, ${company.body.nome}); ceil(57 / 20) = 3 (máximo, UFSC 2011) → 2`,
      }),
      expect.objectContaining({ recurso: 'qtd_estudios', quantidade: 3 }),
    ]);
    expect(res.body.prazos).toEqual([
      expect.objectContaining({
        tipo: 'credenciamento',
        data_limite: '2027-02-03',
        explicacao:
          'credenciamento: 5 dias úteis antes de 12/02/2027 = 03/02/2027 (UFSC 2011; sem contar 08/02/2027 (Carnaval (segunda-feira)), 09/02/2027 (Carnaval (terça-feira)))',
      }),
    ]);
    expect(res.body.taxas).toEqual([
      expect.objectContaining({ descricao: 'Credencial', quantidade: 2, valor_unitario: 50, total: 100 }),
      expect.objectContaining({ descricao: 'Estúdio', quantidade: 3, valor_unitario: 200.5, total: 601.5 }),
    ]);
    expect(res.body.documentos).toEqual(['nome_completo', 'cpf', 'funcao']);
    expect(res.body.conflitos).toEqual([]);

    // The cap on the team quota: 4 > 3 is refused, forced it passes and is logged.
    const over = await api('PUT', `/api/agenda/${ev.id}/equipe`, {
      token: viewer.token,
      body: [{ funcao_id: foto.id, quantidade: 4 }],
    });
    expectError(over, 409, 'EXCEEDS_INSTITUTION_LIMIT');
    expect(over.body.error).toContain('acima do máximo 3');
    const at = await api('PUT', `/api/agenda/${ev.id}/equipe`, {
      token: viewer.token,
      body: [{ funcao_id: foto.id, quantidade: 3 }],
    });
    expect(at.status).toBe(200);
    const forced = await api('PUT', `/api/agenda/${ev.id}/equipe`, {
      token: viewer.token,
      body: [{ funcao_id: foto.id, quantidade: 4, forcar: true }],
    });
    expect(forced.status).toBe(200);
    const [entry] = await entriesOf(ev.id, 'agenda.equipe');
    expect(entry!.dados.forcado).toEqual({ depois: [{ funcao_id: foto.id, quantidade: 4, maximo: 3 }] });
    const after = await api('GET', `/api/agenda/${ev.id}/regras`, { token: admin.token });
    expect(after.body.conflitos).toEqual([
      expect.objectContaining({ code: 'EXCEEDS_INSTITUTION_LIMIT', funcao_id: foto.id, quantidade: 4, maximo: 3 }),
    ]);
  });

  it("404 for an event the caller may not see (another's, another region's)", async () => {
    const other = await makeUser({ role: 'agenda_viewer' });
    const ev = await makeEvento('SP', other);
    expectError(await api('GET', `/api/agenda/${ev.id}/regras`, { token: viewer.token }), 404, 'NOT_FOUND');
    expectError(
      await api('GET', `/api/agenda/${ev.id}/regras`, { token: admin.token, regiao: 'MG' }),
      404,
      'NOT_FOUND',
    );
    expectError(await api('GET', `/api/agenda/${UNKNOWN_ID}/regras`, { token: admin.token }), 404, 'NOT_FOUND');
  });
});

describe('POST /api/regras/validar', () => {
  it('evaluates a draft against a sample event, writing nothing, with the holidays of its state', async () => {
    const inst = await makeInstituicao();
    const body = {
      regra: ufscBody(inst.id),
      // Monday 2027-07-12 in São Paulo: 9 July (Revolução Constitucionalista) is skipped.
      evento: {
        data_evento: '2027-07-12',
        qtd_formandos: 57,
        uf: 'SP',
        equipe: [{ funcao_id: foto.id, quantidade: 5 }],
      },
    };
    const res = await api('POST', '/api/regras/validar', { token: viewer.token, body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.quotas_sugeridas[0]).toMatchObject({
      quantidade: 3,
      explicacao: `${foto.label.toLocaleLowerCase('pt-BR')}: ceil(57 / 20) = 3 (máximo, UFSC 2011)`,
    });
    expect(res.body.prazos[0].data_limite).toBe('2027-07-02');
    expect(res.body.prazos[0].explicacao).toContain('09/07/2027 (Revolução Constitucionalista)');
    expect(res.body.conflitos).toHaveLength(1);
    expect(res.body.taxas[0]).toMatchObject({ quantidade: 5, total: 250 });
    const mg = await api('POST', '/api/regras/validar', {
      token: viewer.token,
      body: { ...body, evento: { ...body.evento, uf: 'MG' } },
    });
    expect(mg.body.prazos[0].data_limite).toBe('2027-07-05');
    expect((await api('GET', `/api/regras?instituicao_id=${inst.id}`, { token: admin.token })).body).toEqual([]);

    const early = await api('POST', '/api/regras/validar', {
      token: viewer.token,
      body: { ...body, evento: { data_evento: '2010-05-05', qtd_formandos: 10 } },
    });
    expect(early.body.quotas_sugeridas).toEqual([]);
    expect(early.body.avisos[0]).toMatch(/não está em vigor em 05\/05\/2010/);
    expectError(
      await api('POST', '/api/regras/validar', { token: viewer.token, body: { ...body, regra: ufscBody(UNKNOWN_ID) } }),
      404,
      'NOT_FOUND',
    );
  });
});
