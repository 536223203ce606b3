import { allowAgenda } from '../../middleware/require-role';
import { listResponse } from '../../lib/pagination';
import { errors, IdParam, jsonBody, jsonResponse } from '../openapi';
import { AgendaListQuery, AgendaSchema, CreateAgendaRequest, UpdateAgendaRequest } from './agenda.schemas';
import { authedRoute } from '../route';

const tags = ['Agenda'];
const who =
  "Administrators: every event of the region. agenda_viewer: the events it created. EVENT_OWNER: events of its company's FOT records (read only). profissional: events whose team it is on (read only). RESEARCHER: 403.";

export const list = authedRoute({
  method: 'get',
  path: '/',
  tags,
  allow: allowAgenda('read'),
  fold: true,
  regional: true,
  summary: "Agenda events in date and time order, filtered by the caller's role",
  description: who,
  request: { query: AgendaListQuery },
  responses: { 200: listResponse(AgendaSchema, 'Agenda events') },
});

export const get = authedRoute({
  method: 'get',
  path: '/{id}',
  tags,
  allow: allowAgenda('read'),
  fold: true,
  regional: true,
  summary: 'One agenda event (404 when the caller may not see it)',
  description: who,
  request: { params: IdParam },
  responses: { 200: jsonResponse(AgendaSchema, 'The event'), 404: errors[404] },
});

export const create = authedRoute({
  method: 'post',
  path: '/',
  tags,
  allow: allowAgenda('create'),
  regional: true,
  summary: 'Create an agenda event (administrators, agenda_viewer)',
  description: 'The FOT record and the event type must exist in the region. The caller is stored as user_id.',
  request: { body: jsonBody(CreateAgendaRequest) },
  responses: { 201: jsonResponse(AgendaSchema, 'Created'), 404: errors[404], 409: errors[409] },
});

export const update = authedRoute({
  method: 'put',
  path: '/{id}',
  tags,
  allow: allowAgenda('update'),
  regional: true,
  summary: 'Change the fields sent (administrators; agenda_viewer its own events)',
  request: { params: IdParam, body: jsonBody(UpdateAgendaRequest) },
  responses: { 200: jsonResponse(AgendaSchema, 'Updated'), 404: errors[404], 409: errors[409] },
});

export const remove = authedRoute({
  method: 'delete',
  path: '/{id}',
  tags,
  allow: allowAgenda('delete'),
  regional: true,
  summary: 'Delete an agenda event (administrators; agenda_viewer its own events)',
  request: { params: IdParam },
  responses: { 204: { description: 'Deleted' }, 404: errors[404] },
});
