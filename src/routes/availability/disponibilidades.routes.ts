import { z } from '@hono/zod-openapi';
import { ADMIN_ROLES } from '../../db/schema';
import { requireAdmin, requireRole } from '../../middleware/require-role';
import { errors, IdParam, jsonBody, jsonResponse } from '../openapi';
import { authedRoute } from '../route';
import {
  DisponibilidadeRequest,
  DisponibilidadeSchema,
  DisponibilidadesQuery,
  ProfDispParams,
  ProfIdParam,
  ResumoQuery,
  ResumoSchema,
} from './disponibilidades.schemas';

const tags = ['Availability'];
const professional = requireRole('profissional');

const createDescription =
  'Whole days, or `hora_inicio`-`hora_fim` of each day; `dias_semana` repeats it weekly inside the range (at most 120 days). Past days are locked: `data_inicio` before today (São Paulo) is 409 INVALID_STATE. `indisponivel` over a day or hours on which the professional is accepted on an event is 409 HAS_ASSIGNMENT naming the events (cancel the participation first). `motivo` is read only by the professional and administrators.';
const removeDescription =
  'One not started is deleted; one under way ends yesterday (past days are locked and stay); one wholly past is 409 INVALID_STATE.';

export const listMine = authedRoute({
  method: 'get',
  path: '/me/disponibilidades',
  tags,
  allow: professional,
  summary: "The caller's own availability declarations (a professional with a profile)",
  request: { query: DisponibilidadesQuery },
  responses: { 200: jsonResponse(z.array(DisponibilidadeSchema), 'Declarations, by first day'), 404: errors[404] },
});

export const createMine = authedRoute({
  method: 'post',
  path: '/me/disponibilidades',
  tags,
  allow: professional,
  summary: 'Declare when the caller cannot (indisponivel) or prefers to (preferencial) work',
  description: createDescription,
  request: { body: jsonBody(DisponibilidadeRequest) },
  responses: {
    201: jsonResponse(DisponibilidadeSchema, 'Declared (origem profissional)'),
    404: errors[404],
    409: errors[409],
  },
});

export const removeMine = authedRoute({
  method: 'delete',
  path: '/me/disponibilidades/{id}',
  tags,
  allow: professional,
  summary: "Remove one of the caller's declarations",
  description: removeDescription,
  request: { params: IdParam },
  responses: { 204: { description: 'Removed (or ended yesterday)' }, 404: errors[404], 409: errors[409] },
});

export const listOf = authedRoute({
  method: 'get',
  path: '/{id}/disponibilidades',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: "A professional's availability declarations (administrators)",
  request: { params: ProfIdParam, query: DisponibilidadesQuery },
  responses: { 200: jsonResponse(z.array(DisponibilidadeSchema), 'Declarations, by first day'), 404: errors[404] },
});

export const createFor = authedRoute({
  method: 'post',
  path: '/{id}/disponibilidades',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: 'Declare for a professional of the region (administrators; origem admin)',
  description: createDescription,
  request: { params: ProfIdParam, body: jsonBody(DisponibilidadeRequest) },
  responses: { 201: jsonResponse(DisponibilidadeSchema, 'Declared'), 404: errors[404], 409: errors[409] },
});

export const removeFor = authedRoute({
  method: 'delete',
  path: '/{id}/disponibilidades/{disp_id}',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: "Remove a professional's declaration (administrators)",
  description: removeDescription,
  request: { params: ProfDispParams },
  responses: { 204: { description: 'Removed (or ended yesterday)' }, 404: errors[404], 409: errors[409] },
});

export const resumo = authedRoute({
  method: 'get',
  path: '/resumo',
  tags,
  allow: requireRole(...ADMIN_ROLES, 'agenda_viewer'),
  regional: true,
  summary: 'Per function, how many holders are unavailable, preferential or silent on a date (planners)',
  description:
    'Holders: the active professionals of the region holding the function. A holder unavailable at any hour of the day counts as `indisponiveis`; one with a `preferencial` (and no `indisponivel`) as `preferenciais`; the rest as `sem_declaracao`. No names and no `motivo`.',
  request: { query: ResumoQuery },
  responses: { 200: jsonResponse(z.array(ResumoSchema), 'One row per function, by name') },
});
