import { z } from '@hono/zod-openapi';
import { allowAgenda, requireAdmin } from '../../middleware/require-role';
import { errors, IdParam, jsonBody, jsonResponse } from '../openapi';
import { authedRoute } from '../route';
import { AvaliacaoSchema, RegraRequest, RegraSchema, RegrasQuery, ValidarRequest } from './regras.schemas';

const tags = ['Rules'];

export const list = authedRoute({
  method: 'get',
  path: '/',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: "The region's rules, the company's and the institutions' (administrators)",
  description:
    'Every version, by name then vigencia_inicio (docs/guide/rules.md). `vigente_em` keeps the versions in force on that day.',
  request: { query: RegrasQuery },
  responses: { 200: jsonResponse(z.array(RegraSchema), 'Rules') },
});

export const get = authedRoute({
  method: 'get',
  path: '/{id}',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: 'One rule (administrators)',
  request: { params: IdParam },
  responses: { 200: jsonResponse(RegraSchema, 'The rule'), 404: errors[404] },
});

const writeDescription =
  "The closed vocabulary of docs/decisions.md#d25 (a field outside it is 400 naming it). `escopo` instituicao needs `instituicao_id`; each quota names `funcao_id` or `recurso`. A new version of a rule is a new rule with the same escopo, institution and event type and a later `vigencia_inicio`: the evaluation takes, in each layer, the version in force on the event's date that started last. Two versions starting on the same day are 409 CONFLICT. Fees (`valor`) in reais.";

export const create = authedRoute({
  method: 'post',
  path: '/',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: 'Create a rule or a new version of one (administrators)',
  description: writeDescription,
  request: { body: jsonBody(RegraRequest) },
  responses: { 201: jsonResponse(RegraSchema, 'Created'), 404: errors[404], 409: errors[409] },
});

export const update = authedRoute({
  method: 'put',
  path: '/{id}',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: 'Replace a rule (administrators)',
  description: writeDescription,
  request: { params: IdParam, body: jsonBody(RegraRequest) },
  responses: { 200: jsonResponse(RegraSchema, 'Replaced'), 404: errors[404], 409: errors[409] },
});

export const remove = authedRoute({
  method: 'delete',
  path: '/{id}',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: 'Delete a rule (administrators)',
  description: 'What it wrote before (quotas, fees) stays: it was applied.',
  request: { params: IdParam },
  responses: { 204: { description: 'Deleted' }, 404: errors[404] },
});

export const validar = authedRoute({
  method: 'post',
  path: '/validar',
  tags,
  allow: allowAgenda('create'),
  regional: true,
  summary: 'Evaluate a draft rule against a sample event, writing nothing (planners)',
  description:
    "The draft alone (not the stored rules), with the holidays of the sample's `uf` / `cidade_ibge`. Its references are checked in the region as a save would (404 naming the field). The answer is GET /api/agenda/{id}/regras's.",
  request: { body: jsonBody(ValidarRequest) },
  responses: { 200: jsonResponse(AvaliacaoSchema, 'The evaluation'), 404: errors[404] },
});
