import { allowAgenda } from '../../middleware/require-role';
import { errors, IdParam, jsonBody, jsonResponse } from '../openapi';
import { authedRoute } from '../route';
import { LogisticaRequest, LogisticaSchema } from './logistica.schemas';

const tags = ['Call sheets'];

export const get = authedRoute({
  method: 'get',
  path: '/{id}/logistica',
  tags,
  allow: allowAgenda('read'),
  fold: true,
  regional: true,
  summary: "An event's call sheet (whoever may see the event: administrators, creator, invited team, EVENT_OWNER)",
  description: '404 when the caller may not see the event or when no call sheet was written yet.',
  request: { params: IdParam },
  responses: { 200: jsonResponse(LogisticaSchema, 'The call sheet'), 404: errors[404] },
});

export const put = authedRoute({
  method: 'put',
  path: '/{id}/logistica',
  tags,
  allow: allowAgenda('update'),
  regional: true,
  summary: "Create or change an event's call sheet (administrators; agenda_viewer its own events)",
  description:
    'Changes the fields sent. A change bumps versao by one and notifies every accepted team member (logistica_alterada, dados.campos, dados.agenda_id); a PUT that changes nothing keeps versao and notifies nobody. 409 CONFLICT only if the sheet kept changing under ten attempts in a row.',
  request: { params: IdParam, body: jsonBody(LogisticaRequest) },
  responses: { 200: jsonResponse(LogisticaSchema, 'The call sheet'), 404: errors[404], 409: errors[409] },
});

/** The same partial change under the verb docs/decisions.md#d25 names for `credenciamento_enviado_em`. */
export const patch = authedRoute({
  method: 'patch',
  path: '/{id}/logistica',
  tags,
  allow: allowAgenda('update'),
  regional: true,
  summary: "Change fields of an event's call sheet (as PUT: the fields sent)",
  description:
    'Exactly PUT /api/agenda/{id}/logistica: absent fields are kept, null clears one. The credential list sent: `{"credenciamento_enviado_em": "2026-12-01"}` ends its reminder (docs/guide/rules.md).',
  request: { params: IdParam, body: jsonBody(LogisticaRequest) },
  responses: { 200: jsonResponse(LogisticaSchema, 'The call sheet'), 404: errors[404], 409: errors[409] },
});
