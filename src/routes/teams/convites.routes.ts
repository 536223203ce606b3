import { ADMIN_ROLES } from '../../db/schema';
import { requireAdmin, requireRole } from '../../middleware/require-role';
import { allowAgenda } from '../../middleware/require-role';
import { listResponse, PageQuery } from '../../lib/pagination';
import { errors, IdParam, jsonBody, jsonResponse } from '../openapi';
import { AgendaSchema } from '../agenda/agenda.schemas';
import { AnswerRequest, ConviteSchema, EquipeRequest, InviteRequest, MyConvitesQuery } from './convites.schemas';
import { authedRoute } from '../route';

const tags = ['Teams and invitations'];
const base = { 404: errors[404] };

export const putEquipe = authedRoute({
  method: 'put',
  path: '/{id}/equipe',
  tags,
  allow: allowAgenda('update'),
  regional: true,
  summary: 'Set the team quota per function of an event (administrators; agenda_viewer its own events)',
  description:
    "A function above the cap of an institution's rule in force (docs/decisions.md#d25) is 409 EXCEEDS_INSTITUTION_LIMIT unless its item carries `forcar: true` (logged).",
  request: { params: IdParam, body: jsonBody(EquipeRequest) },
  responses: { 200: jsonResponse(AgendaSchema, 'The event with its team'), ...base, 409: errors[409] },
});

export const invite = authedRoute({
  method: 'post',
  path: '/{id}/convites',
  tags,
  allow: allowAgenda('update'),
  regional: true,
  summary: 'Invite a professional who holds the function (notifies them)',
  description:
    "400 when the professional does not hold the function; 409 CONFLICT when already invited to this event; 409 PROFESSIONAL_UNAVAILABLE when the professional declared itself unavailable during the event's window (docs/decisions.md#d24), unless an administrator sends `forcar: true` (logged; an agenda_viewer sending it: 403).",
  request: { params: IdParam, body: jsonBody(InviteRequest) },
  responses: { 201: jsonResponse(ConviteSchema, 'Invited'), 409: errors[409], ...base },
});

export const listForEvent = authedRoute({
  method: 'get',
  path: '/{id}/convites',
  tags,
  allow: allowAgenda('update'),
  fold: true,
  regional: true,
  summary: "An event's invitations with their status",
  request: { params: IdParam, query: PageQuery },
  responses: { 200: listResponse(ConviteSchema, 'Invitations'), ...base },
});

export const listMine = authedRoute({
  method: 'get',
  path: '/',
  tags,
  allow: requireRole('profissional'),
  fold: true,
  summary: "The caller's own invitations (as a professional, every region), by event date",
  request: { query: MyConvitesQuery },
  responses: { 200: listResponse(ConviteSchema, 'Invitations'), ...base },
});

export const answer = authedRoute({
  method: 'patch',
  path: '/{id}',
  tags,
  allow: requireRole('profissional', ...ADMIN_ROLES),
  regional: true,
  fold: true,
  summary:
    'Accept or decline an invitation (the invited professional); approve or refuse an application (administrators)',
  description:
    "A professional answers its own invitation: `aceito` from `pendente` (or again after declining an invitation), `recusado` from `pendente`, `aceito`, `solicitado` or `espera`; accepting a `solicitado`/`espera` application is 409 INVALID_STATE. An administrator of the event's region (x-regiao) decides an application in `solicitado` (anything else: 409 INVALID_STATE). Accepting is refused with 409 PROFESSIONAL_UNAVAILABLE when the professional declared itself unavailable during the event's window (unless an administrator invited it with `forcar`), 409 DOUBLE_BOOKED when it is accepted on another event whose time window overlaps, 409 TRAVEL_CONFLICT (`conflito_com`, `folga_min`, `deslocamento_min`) when another accepted event of the day before, the same day or the day after leaves less than the travel between the two places plus MARGEM_DESLOCAMENTO_MIN (an unknown city: no travel rule), and 409 QUOTA_FULL when the function's quota is filled; it is one guarded statement, so the rules hold under concurrency. An administrator's approval with `forcar: true` passes a travel conflict and a declared unavailability (never an overlap or a full quota) and its log entry says what it passed; `forcar` from a professional is 403. A decline frees the place: the oldest waiting-list (`espera`) professional who could take it (not double-booked, no travel conflict, not unavailable) is accepted in the same batch and notified.",
  request: { params: IdParam, body: jsonBody(AnswerRequest) },
  responses: { 200: jsonResponse(ConviteSchema, 'Answered'), 409: errors.acceptance409, ...base },
});

export const cancel = authedRoute({
  method: 'delete',
  path: '/{id}',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: 'Cancel an invitation (administrators); frees the place and notifies the professional',
  description:
    'The oldest waiting-list (`espera`) professional of that function who could take the place (not double-booked, no travel conflict, not declared unavailable) is accepted in the same batch and notified.',
  request: { params: IdParam },
  responses: { 204: { description: 'Cancelled' }, ...base },
});

export const confirm = authedRoute({
  method: 'patch',
  path: '/{id}/confirmacao',
  tags,
  allow: requireRole('profissional'),
  summary: 'Confirm presence at the event (the invited professional; only an accepted invitation)',
  description:
    'Idempotent: a second call keeps the first confirmado_em. 409 INVALID_STATE when the invitation is not aceito. Declining the invitation later clears the confirmation.',
  request: { params: IdParam },
  responses: { 200: jsonResponse(ConviteSchema, 'Confirmed'), 409: errors[409], ...base },
});

export const acknowledge = authedRoute({
  method: 'patch',
  path: '/{id}/ciente',
  tags,
  allow: requireRole('profissional'),
  summary: "Acknowledge the event's current call sheet (sets ciente_versao to its versao)",
  description:
    '409 INVALID_STATE when the invitation is not aceito or the event has no call sheet yet. Calling again after a change acknowledges the new versao.',
  request: { params: IdParam },
  responses: { 200: jsonResponse(ConviteSchema, 'Acknowledged'), 409: errors[409], ...base },
});
