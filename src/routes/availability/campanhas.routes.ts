import { z } from '@hono/zod-openapi';
import { ADMIN_ROLES } from '../../db/schema';
import { requireAdmin, requireRole } from '../../middleware/require-role';
import { errors, IdParam, jsonBody, jsonResponse } from '../openapi';
import { authedRoute } from '../route';
import {
  CampanhaDetalheSchema,
  CampanhaRequest,
  CampanhaSchema,
  RespostasRequest,
  RespostasSchema,
  ResultadoSchema,
} from './campanhas.schemas';

const tags = ['Availability'];
const readers = requireRole(...ADMIN_ROLES, 'profissional');

export const create = authedRoute({
  method: 'post',
  path: '/',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: 'Ask the season poll (administrators): every active holder of the functions in the region is notified',
  description:
    '`de`..`ate` at most 120 days; `prazo` (the last day answers are taken, São Paulo) between today and `ate`. Functions of another region: 404.',
  request: { body: jsonBody(CampanhaRequest) },
  responses: { 201: jsonResponse(CampanhaSchema, 'Asked'), 404: errors[404] },
});

export const list = authedRoute({
  method: 'get',
  path: '/',
  tags,
  allow: readers,
  regional: true,
  summary: "The region's season polls (a professional: those asking it), latest deadline first",
  responses: { 200: jsonResponse(z.array(CampanhaSchema), 'Season polls') },
});

export const get = authedRoute({
  method: 'get',
  path: '/{id}',
  tags,
  allow: readers,
  regional: true,
  summary: "A season poll with the caller's own answer",
  request: { params: IdParam },
  responses: { 200: jsonResponse(CampanhaDetalheSchema, 'The poll'), 404: errors[404] },
});

export const answer = authedRoute({
  method: 'put',
  path: '/{id}/respostas',
  tags,
  allow: requireRole('profissional'),
  regional: true,
  summary: "Answer the poll (a holder of one of its functions): replaces the caller's answer",
  description:
    'Each date of the poll at most once: `sim`, `nao` or `talvez`; a date left out is unanswered. A `nao` (today on) becomes an `indisponivel` declaration with `origem: campanha`, replacing those of the previous answer; a `nao` on a day with an accepted invitation is 409 HAS_ASSIGNMENT. After `prazo` or a close: 409 INVALID_STATE, and nothing is written.',
  request: { params: IdParam, body: jsonBody(RespostasRequest) },
  responses: { 200: jsonResponse(RespostasSchema, 'Answered'), 404: errors[404], 409: errors[409] },
});

export const resultado = authedRoute({
  method: 'get',
  path: '/{id}/resultado',
  tags,
  allow: requireRole(...ADMIN_ROLES, 'agenda_viewer'),
  regional: true,
  summary: "Per date x function: the active holders' sim, talvez, nao and the silent (planners)",
  request: { params: IdParam },
  responses: { 200: jsonResponse(ResultadoSchema, 'The table, by date and function name'), 404: errors[404] },
});

export const encerrar = authedRoute({
  method: 'post',
  path: '/{id}/encerrar',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: 'Close the poll before its deadline (administrators); closing again changes nothing',
  request: { params: IdParam },
  responses: { 200: jsonResponse(CampanhaSchema, 'Closed'), 404: errors[404] },
});
