import { createRoute } from '@hono/zod-openapi';
import { auth } from '../../middleware/auth';
import { region } from '../../middleware/region';
import { requireAdmin, requireRole } from '../../middleware/require-role';
import { allowAgenda } from '../../services/agenda-policy';
import { listResponse, PageQuery } from '../../lib/pagination';
import { bearer, errors, IdParam, jsonBody, jsonResponse, protectedErrors, RegionHeader } from '../../lib/validation';
import { AgendaSchema } from '../agenda/agenda.schemas';
import { AnswerRequest, ConviteSchema, EquipeRequest, InviteRequest, MyConvitesQuery } from './convites.schemas';

const tags = ['Teams and invitations'];
const base = { ...protectedErrors, 404: errors[404] };
const eventManagers = [auth(), allowAgenda('update'), region];
const eventManagersRead = [auth({ fold: true }), allowAgenda('update'), region];

export const putEquipe = createRoute({
  method: 'put',
  path: '/{id}/equipe',
  tags,
  security: bearer,
  middleware: eventManagers,
  summary: 'Set the team quota per function of an event (administrators; agenda_viewer its own events)',
  request: { headers: RegionHeader, params: IdParam, body: jsonBody(EquipeRequest) },
  responses: { 200: jsonResponse(AgendaSchema, 'The event with its team'), 413: errors[413], ...base },
});

export const invite = createRoute({
  method: 'post',
  path: '/{id}/convites',
  tags,
  security: bearer,
  middleware: eventManagers,
  summary: 'Invite a professional who holds the function (notifies them)',
  description: '400 when the professional does not hold the function; 409 CONFLICT when already invited to this event.',
  request: { headers: RegionHeader, params: IdParam, body: jsonBody(InviteRequest) },
  responses: { 201: jsonResponse(ConviteSchema, 'Invited'), 409: errors[409], 413: errors[413], ...base },
});

export const listForEvent = createRoute({
  method: 'get',
  path: '/{id}/convites',
  tags,
  security: bearer,
  middleware: eventManagersRead,
  summary: "An event's invitations with their status",
  request: { headers: RegionHeader, params: IdParam, query: PageQuery },
  responses: { 200: listResponse(ConviteSchema, 'Invitations'), ...base },
});

export const listMine = createRoute({
  method: 'get',
  path: '/',
  tags,
  security: bearer,
  middleware: [auth({ fold: true }), requireRole('profissional')],
  summary: "The caller's own invitations (as a professional, every region), by event date",
  request: { query: MyConvitesQuery },
  responses: { 200: listResponse(ConviteSchema, 'Invitations'), ...base },
});

export const answer = createRoute({
  method: 'patch',
  path: '/{id}',
  tags,
  security: bearer,
  middleware: [auth(), requireRole('profissional')],
  summary: 'Accept or decline an invitation (the invited professional)',
  description:
    "Accepting is refused with 409 QUOTA_FULL when the function's quota is filled and 409 DOUBLE_BOOKED when already on another event that date; it is one guarded statement, so the quota holds under concurrency. Declining (also after accepting) frees the place.",
  request: { params: IdParam, body: jsonBody(AnswerRequest) },
  responses: { 200: jsonResponse(ConviteSchema, 'Answered'), 409: errors[409], 413: errors[413], ...base },
});

export const cancel = createRoute({
  method: 'delete',
  path: '/{id}',
  tags,
  security: bearer,
  middleware: [auth(), requireAdmin, region],
  summary: 'Cancel an invitation (administrators); frees the place and notifies the professional',
  request: { headers: RegionHeader, params: IdParam },
  responses: { 204: { description: 'Cancelled' }, ...base },
});
