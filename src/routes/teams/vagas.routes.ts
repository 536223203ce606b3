import { requireRole } from '../../middleware/require-role';
import { listResponse } from '../../lib/pagination';
import { errors, IdParam, jsonBody, jsonResponse } from '../openapi';
import { ConviteSchema } from './convites.schemas';
import { CandidaturaRequest, VagaSchema, VagasQuery } from './vagas.schemas';
import { authedRoute } from '../route';

const tags = ['Job listings'];

export const list = authedRoute({
  method: 'get',
  path: '/',
  tags,
  allow: requireRole('profissional'),
  fold: true,
  summary: 'Open places the caller may apply to (a professional with a profile)',
  description:
    "Events of the profile's region from today (America/Sao_Paulo) on, per published function the professional holds with places left, excluding events where it already has an invitation and events whose time window meets one of its `indisponivel` declarations (docs/decisions.md#d24); ordered by date and time. Each says whether accepting would meet an overlap (`conflito_horario`) or a travel conflict (`conflito_deslocamento`). 404 without a professional profile. No client, contract or cost data.",
  request: { query: VagasQuery },
  responses: { 200: listResponse(VagaSchema, 'Job listings'), 404: errors[404] },
});

export const apply = authedRoute({
  method: 'post',
  path: '/{id}/candidaturas',
  tags,
  allow: requireRole('profissional'),
  summary: 'Apply to a published function of an event',
  description:
    "The path's id is the agenda event's (`agenda_id`). Creates an invitation with origem `candidatura`. Without approval it is `aceito` at once through the same guarded rule as accepting (409 QUOTA_FULL, 409 DOUBLE_BOOKED, 409 TRAVEL_CONFLICT with its fields); with `lista_espera: true` a full function puts it in `espera` (promoted when a place frees). When the function requires approval it is `solicitado` until an administrator decides with PATCH /api/convites/{id}. 404: event not in the profile's region, or function not published on it; 400: function not held; 409 ALREADY_APPLIED: already invited or applied to this event; 409 PROFESSIONAL_UNAVAILABLE: the caller declared itself unavailable during the event's window (whether or not approval is required; decided by the insert itself); 409 INVALID_STATE: the event is past.",
  request: { params: IdParam, body: jsonBody(CandidaturaRequest) },
  responses: {
    201: jsonResponse(ConviteSchema, 'Application created'),
    404: errors[404],
    409: errors.acceptance409,
  },
});
