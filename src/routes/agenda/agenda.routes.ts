import { createRoute } from '@hono/zod-openapi';
import { auth } from '../../middleware/auth';
import { region } from '../../middleware/region';
import { allowAgenda } from '../../services/agenda-policy';
import { listResponse } from '../../lib/pagination';
import { bearer, errors, IdParam, jsonBody, jsonResponse, protectedErrors, RegionHeader } from '../../lib/validation';
import { AgendaListQuery, AgendaSchema, CreateAgendaRequest, UpdateAgendaRequest } from './agenda.schemas';

const tags = ['Agenda'];
const who =
  "Administrators: every event of the region. agenda_viewer: the events it created. EVENT_OWNER: events of its company's FOT records (read only). profissional: events whose team it is on (read only). RESEARCHER: 403.";

export const list = createRoute({
  method: 'get',
  path: '/',
  tags,
  security: bearer,
  middleware: [auth({ fold: true }), allowAgenda('read'), region],
  summary: "Agenda events in date and time order, filtered by the caller's role",
  description: who,
  request: { headers: RegionHeader, query: AgendaListQuery },
  responses: { 200: listResponse(AgendaSchema, 'Agenda events'), ...protectedErrors },
});

export const get = createRoute({
  method: 'get',
  path: '/{id}',
  tags,
  security: bearer,
  middleware: [auth({ fold: true }), allowAgenda('read'), region],
  summary: 'One agenda event (404 when the caller may not see it)',
  description: who,
  request: { headers: RegionHeader, params: IdParam },
  responses: { 200: jsonResponse(AgendaSchema, 'The event'), 404: errors[404], ...protectedErrors },
});

export const create = createRoute({
  method: 'post',
  path: '/',
  tags,
  security: bearer,
  middleware: [auth(), allowAgenda('create'), region],
  summary: 'Create an agenda event (administrators, agenda_viewer)',
  description: 'The FOT record and the event type must exist in the region. The caller is stored as user_id.',
  request: { headers: RegionHeader, body: jsonBody(CreateAgendaRequest) },
  responses: { 201: jsonResponse(AgendaSchema, 'Created'), 404: errors[404], 413: errors[413], ...protectedErrors },
});

export const update = createRoute({
  method: 'put',
  path: '/{id}',
  tags,
  security: bearer,
  middleware: [auth(), allowAgenda('update'), region],
  summary: 'Change the fields sent (administrators; agenda_viewer its own events)',
  request: { headers: RegionHeader, params: IdParam, body: jsonBody(UpdateAgendaRequest) },
  responses: { 200: jsonResponse(AgendaSchema, 'Updated'), 404: errors[404], 413: errors[413], ...protectedErrors },
});

export const remove = createRoute({
  method: 'delete',
  path: '/{id}',
  tags,
  security: bearer,
  middleware: [auth(), allowAgenda('delete'), region],
  summary: 'Delete an agenda event (administrators; agenda_viewer its own events)',
  request: { headers: RegionHeader, params: IdParam },
  responses: { 204: { description: 'Deleted' }, 404: errors[404], ...protectedErrors },
});
