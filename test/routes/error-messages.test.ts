/**
 * Every error sentence is Brazilian Portuguese (docs/api-conventions.md, "Errors"): the answers that
 * come from the app itself, the middleware, mapDbError and the services that the route suites check by
 * code only. Each sentence is checked exactly, so a change of wording is a change of this file too.
 */
import { describe, expect, it } from 'vitest';
import { makeAdmin, makeUser, PASSWORD, uniq } from '../helpers/factories';
import { api, expectError, UNKNOWN_ID, type ApiResult } from '../helpers/request';
import { LOGIN_MAX_PER_CLIENT } from '../../src/services/sessions';

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
