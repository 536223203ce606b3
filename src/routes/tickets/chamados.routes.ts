import { listResponse } from '../../lib/pagination';
import { requireAdmin } from '../../middleware/require-role';
import { errors, IdParam, jsonBody, jsonResponse } from '../openapi';
import { authedRoute } from '../route';
import {
  ChamadoDetailSchema,
  ChamadoPatch,
  ChamadoRequest,
  ChamadoSchema,
  ChamadosQuery,
  MensagemRequest,
} from './chamados.schemas';

const tags = ['Support tickets'];

export const create = authedRoute({
  method: 'post',
  path: '/',
  tags,
  regional: true,
  summary: 'Open a support ticket (any active user); the region administrators are notified',
  description: '`agenda_id` and `fot_id` must be visible to the caller (404 otherwise).',
  request: { body: jsonBody(ChamadoRequest) },
  responses: { 201: jsonResponse(ChamadoDetailSchema, 'Opened, status aberto'), 404: errors[404] },
});

export const list = authedRoute({
  method: 'get',
  path: '/',
  tags,
  regional: true,
  summary: "Tickets: the caller's own; administrators every ticket of the region",
  description: 'Newest activity (`updated_at`) first. Filters `status`, `categoria`, `responsavel_id`.',
  request: { query: ChamadosQuery },
  responses: { 200: listResponse(ChamadoSchema, 'Tickets') },
});

export const get = authedRoute({
  method: 'get',
  path: '/{id}',
  tags,
  regional: true,
  summary: 'A ticket with its messages (internal notes only for administrators)',
  request: { params: IdParam },
  responses: { 200: jsonResponse(ChamadoDetailSchema, 'The ticket'), 404: errors[404] },
});

export const patch = authedRoute({
  method: 'patch',
  path: '/{id}',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: 'Assign, set the status or the priority (administrators)',
  description:
    '`responsavel_id` must be an active administrator of the region (400). A `fechado` ticket cannot change: 409 INVALID_STATE.',
  request: { params: IdParam, body: jsonBody(ChamadoPatch) },
  responses: { 200: jsonResponse(ChamadoSchema, 'Changed'), 404: errors[404], 409: errors[409] },
});

export const addMensagem = authedRoute({
  method: 'post',
  path: '/{id}/mensagens',
  tags,
  regional: true,
  summary: 'Add a message (interna: administrators only); notifies the other side',
  description:
    "403 for `interna` from a non-administrator; 409 INVALID_STATE on a `fechado` ticket. A requester's message on `aguardando_solicitante` or `resolvido` reopens it (`aberto`).",
  request: { params: IdParam, body: jsonBody(MensagemRequest) },
  responses: {
    201: jsonResponse(ChamadoDetailSchema, 'The ticket with its messages'),
    404: errors[404],
    409: errors[409],
  },
});
