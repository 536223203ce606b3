/**
 * Every error sentence is Brazilian Portuguese (docs/api-conventions.md, "Errors"): the answers that
 * come from the app itself, the middleware, mapDbError and the services that the route suites check by
 * code only. Each sentence is checked exactly, so a change of wording is a change of this file too.
 */
import { describe, expect, it } from 'vitest';
import { makeAdmin, makeUser, PASSWORD, uniq } from '../helpers/factories';
import { api, expectError, UNKNOWN_ID, type ApiResult } from '../helpers/request';
import { LOGIN_MAX_PER_CLIENT } from '../../src/services/accounts/sessions';

const client = () => ({
  'cf-connecting-ip': `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
});

/** The error's code and its exact sentence. */
function expectSentence(res: ApiResult, status: number, code: string, sentence: string | RegExp) {
  expectError(res, status, code);
  if (typeof sentence === 'string') expect(res.body.error).toBe(sentence);
  else expect(res.body.error).toMatch(sentence);
}

describe('error sentences of the app, in Portuguese', () => {
  it('unknown route, malformed or oversized body, unknown region, malformed path id, validation', async () => {
    expectSentence(await api('GET', '/nope'), 404, 'NOT_FOUND', 'rota não encontrada: GET /nope');
    expectSentence(
      await api('POST', '/auth/login', { rawBody: '{"email":', headers: { 'content-type': 'application/json' } }),
      400,
      'INVALID_JSON',
      'o corpo da requisição não é um JSON válido',
    );
    expectSentence(
      await api('POST', '/auth/login', { body: { email: 'a@b.co', senha: 'x'.repeat(70 * 1024) } }),
      413,
      'PAYLOAD_TOO_LARGE',
      'o corpo da requisição passa de 64 KiB',
    );
    const admin = await makeAdmin();
    expectSentence(
      await api('GET', '/api/cursos', { token: admin.token, regiao: 'XX' }),
      400,
      'INVALID_REGION',
      'x-regiao: deve ser um de: SP, MG',
    );
    expectSentence(
      await api('PUT', '/api/cursos/abc', { token: admin.token, body: { nome: 'Medicina' } }),
      400,
      'INVALID_ID',
      'id: deve ser um UUID',
    );
    expectSentence(await api('POST', '/auth/login', { body: {} }), 400, 'VALIDATION_FAILED', 'email: é obrigatório');
  });

  it('authentication and roles', async () => {
    expectSentence(
      await api('GET', '/api/admin/users'),
      401,
      'UNAUTHENTICATED',
      'autenticação necessária: envie Authorization: Bearer <access_token>',
    );
    expectSentence(
      await api('GET', '/api/admin/users', { token: 'not-a-token' }),
      401,
      'UNAUTHENTICATED',
      'token de acesso inválido ou expirado',
    );
    const viewer = await makeUser({ role: 'agenda_viewer' });
    expectSentence(
      await api('GET', '/api/admin/users', { token: viewer.token }),
      403,
      'FORBIDDEN',
      'seu perfil não pode usar esta rota',
    );
    const pending = await makeUser({ role: 'agenda_viewer', ativo: false });
    expectSentence(
      await api('POST', '/auth/login', { body: { email: pending.email, senha: PASSWORD } }),
      401,
      'ACCOUNT_PENDING',
      'conta aguardando aprovação de um administrador',
    );
  });

  it('login answers one sentence for an unknown e-mail and a wrong password, then the rate limit', async () => {
    const u = await makeUser();
    const unknown = await api('POST', '/auth/login', {
      body: { email: `${uniq('ninguem')}@example.com`, senha: PASSWORD },
    });
    expectSentence(unknown, 401, 'INVALID_CREDENTIALS', 'e-mail ou senha inválidos');
    const headers = client();
    for (let i = 0; i < LOGIN_MAX_PER_CLIENT; i++)
      expectSentence(
        await api('POST', '/auth/login', { body: { email: u.email, senha: 'senha-errada' }, headers }),
        401,
        'INVALID_CREDENTIALS',
        'e-mail ou senha inválidos',
      );
    expectSentence(
      await api('POST', '/auth/login', { body: { email: u.email, senha: PASSWORD }, headers }),
      429,
      'RATE_LIMITED',
      /^muitas tentativas de login sem sucesso: tente de novo em \d+ segundos$/,
    );
  });

  it('refresh without a token or with an unknown one', async () => {
    expectSentence(
      await api('POST', '/auth/refresh', { body: {} }),
      401,
      'INVALID_REFRESH_TOKEN',
      'nenhum token de renovação: envie refresh_token no corpo ou no cookie',
    );
    expectSentence(
      await api('POST', '/auth/refresh', { body: { refresh_token: 'x'.repeat(43) } }),
      401,
      'INVALID_REFRESH_TOKEN',
      'token de renovação inválido',
    );
  });

  it('not found: the noun agrees in gender', async () => {
    const admin = await makeAdmin();
    const put = (path: string) => api('PUT', `${path}/${UNKNOWN_ID}`, { token: admin.token, body: { nome: 'Nome' } });
    expectSentence(await put('/api/empresas'), 404, 'NOT_FOUND', 'empresa não encontrada');
    expectSentence(await put('/api/cursos'), 404, 'NOT_FOUND', 'curso não encontrado');
    expectSentence(await put('/api/funcoes'), 404, 'NOT_FOUND', 'função não encontrada');
    expectSentence(await put('/api/tipos-servicos'), 404, 'NOT_FOUND', 'tipo de serviço não encontrado');
    expectSentence(
      await api('DELETE', `/api/admin/users/${UNKNOWN_ID}`, { token: admin.token }),
      404,
      'NOT_FOUND',
      'usuário não encontrado',
    );
    expectSentence(
      await api('DELETE', `/api/admin/users/${admin.id}`, { token: admin.token }),
      403,
      'FORBIDDEN',
      'você não pode excluir a própria conta',
    );
  });

  it('database constraints (mapDbError)', async () => {
    const admin = await makeAdmin();
    const nome = uniq('Curso');
    expect((await api('POST', '/api/cursos', { token: admin.token, body: { nome } })).status).toBe(201);
    expectSentence(
      await api('POST', '/api/cursos', { token: admin.token, body: { nome } }),
      409,
      'CONFLICT',
      'nome: já existe um registro com este nome nesta região',
    );
    const email = `${uniq('dup')}@example.com`;
    const body = { email, senha: 'segredo123', nome: 'Maria Silva', role: 'profissional' };
    expect((await api('POST', '/auth/register', { body })).status).toBe(201);
    expectSentence(
      await api('POST', '/auth/register', { body }),
      400,
      'EMAIL_TAKEN',
      'email: já existe uma conta com este e-mail',
    );
  });
});

describe('a validation failure lists every field error at once (issue 32 item 14)', () => {
  it('a body: `error` is the first sentence as before, `campos` every failing field in order, dotted paths', async () => {
    const admin = await makeAdmin();
    const res = await api('POST', '/api/profissionais', {
      token: admin.token,
      body: { nome: 'Ana', funcoes_ids: [UNKNOWN_ID, 'x', 'y'], qual_tec: 9, email: 'a@localhost' },
    });
    expectSentence(res, 400, 'VALIDATION_FAILED', 'funcoes_ids.1: deve ser um UUID');
    expect(res.body.campos).toEqual([
      { campo: 'funcoes_ids.1', erro: 'deve ser um UUID' },
      { campo: 'funcoes_ids.2', erro: 'deve ser um UUID' },
      { campo: 'qual_tec', erro: 'deve ser menor ou igual a 5' },
      { campo: 'email', erro: 'deve ser um e-mail válido' },
    ]);
    // One field wrong: a list of one, the same sentence.
    const one = await api('POST', '/auth/login', { body: {} });
    expectSentence(one, 400, 'VALIDATION_FAILED', 'email: é obrigatório');
    expect(one.body.campos).toEqual([
      { campo: 'email', erro: 'é obrigatório' },
      { campo: 'senha', erro: 'é obrigatório' },
    ]);
  });

  it('a query, a path id and a problem of the body as a whole (campo null)', async () => {
    const admin = await makeAdmin();
    const q = await api('GET', '/api/agenda?de=ontem&ate=2027-02-30&fot_id=1', { token: admin.token });
    expectSentence(q, 400, 'VALIDATION_FAILED', 'de: deve ser uma data AAAA-MM-DD');
    expect(q.body.campos).toEqual([
      { campo: 'de', erro: 'deve ser uma data AAAA-MM-DD' },
      { campo: 'ate', erro: 'deve ser uma data AAAA-MM-DD (a data 2027-02-30 não existe)' },
      { campo: 'fot_id', erro: 'deve ser um UUID' },
    ]);
    const id = await api('PUT', '/api/cursos/abc', { token: admin.token, body: { nome: 'Medicina' } });
    expectSentence(id, 400, 'INVALID_ID', 'id: deve ser um UUID');
    expect(id.body.campos).toEqual([{ campo: 'id', erro: 'deve ser um UUID' }]);
    const whole = await api('PATCH', `/api/chamados/${UNKNOWN_ID}`, { token: admin.token, body: {} });
    expectSentence(whole, 400, 'VALIDATION_FAILED', 'informe responsavel_id, status ou prioridade');
    expect(whole.body.campos).toEqual([{ campo: null, erro: 'informe responsavel_id, status ou prioridade' }]);
  });

  it('an impossible date says it does not exist, apart from a malformed one', async () => {
    const admin = await makeAdmin();
    for (const [value, sentence] of [
      ['2027-02-30', 'data_evento: deve ser uma data AAAA-MM-DD (a data 2027-02-30 não existe)'],
      ['2027-13-01', 'data_evento: deve ser uma data AAAA-MM-DD (a data 2027-13-01 não existe)'],
      ['2100-02-29', 'data_evento: deve ser uma data AAAA-MM-DD (a data 2100-02-29 não existe)'],
      ['30/02/2027', 'data_evento: deve ser uma data AAAA-MM-DD'],
      ['2027-2-3', 'data_evento: deve ser uma data AAAA-MM-DD'],
    ]) {
      const res = await api('POST', '/api/agenda', {
        token: admin.token,
        body: { fot_id: UNKNOWN_ID, tipo_evento_id: UNKNOWN_ID, data_evento: value },
      });
      expectSentence(res, 400, 'VALIDATION_FAILED', sentence!);
    }
    // The activity log's filters (a date or an instant) follow the same rule.
    const log = await api('GET', '/api/logs-atividade?de=2027-02-30T10:00:00Z', { token: admin.token });
    expectSentence(
      log,
      400,
      'VALIDATION_FAILED',
      'de: deve ser uma data (AAAA-MM-DD) ou um instante ISO-8601 (a data 2027-02-30 não existe)',
    );
  });

  it('a refusal decided after validation (against stored data) carries error and code only', async () => {
    const admin = await makeAdmin();
    const u = await makeUser({ role: 'RESEARCHER' });
    const res = await api('PATCH', `/api/admin/users/${u.id}/role`, {
      token: admin.token,
      body: { role: 'EVENT_OWNER' },
    });
    expectSentence(res, 400, 'VALIDATION_FAILED', 'empresa_id: é obrigatório para o perfil EVENT_OWNER');
    expect(res.body.campos).toBeUndefined();
  });
});
