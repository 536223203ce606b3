import { ADMIN_ROLES } from '../../db/schema';
import { requireAdmin, requireRole } from '../../middleware/require-role';
import { errors, IdParam, jsonBody, jsonResponse } from '../openapi';
import { authedRoute } from '../route';
import {
  CheckinSettingsRequest,
  CheckinSettingsSchema,
  EventKeySchema,
  EventQrSchema,
  FaltaRequest,
  FaltaSchema,
  LeiturasRequest,
  LeiturasSchema,
  ListaSchema,
  ManualRequest,
  PersonalQrSchema,
  PresencaRequest,
  PresencaSchema,
  RevisaoRequest,
} from './checkin.schemas';

// QR check-in and check-out (docs/decisions.md#d27; docs/guide/checkin.md).
const tags = ['Check-in'];
/** Who may run an event's check-in: administrators, its agenda_viewer creator, its coordinator (checked in the service). */
const staff = requireRole(...ADMIN_ROLES, 'agenda_viewer', 'profissional');
const planners = requireRole(...ADMIN_ROLES, 'agenda_viewer');
const staffNote =
  " For administrators, the event's agenda_viewer creator and its coordinator (a professional whose `aceito` invitation an administrator named); 404 for anyone else.";

export const getSettings = authedRoute({
  method: 'get',
  path: '/{id}/checkin',
  tags,
  allow: staff,
  regional: true,
  summary: "An event's check-in settings, coordinator and window",
  description: `Without a PUT an event has the defaults (raio 300 m, opens 90 min before the call time or the start, entries close 60 min after the start, location not required).${staffNote}`,
  request: { params: IdParam },
  responses: { 200: jsonResponse(CheckinSettingsSchema, 'The settings'), 404: errors[404] },
});

export const putSettings = authedRoute({
  method: 'put',
  path: '/{id}/checkin',
  tags,
  allow: planners,
  regional: true,
  summary: "Change an event's check-in settings or coordinator (administrators; the creator its settings)",
  description:
    'Changes the fields sent (logged `agenda_checkin.update`). `coordenador_convite_id` only administrators (403 otherwise): an `aceito` invitation of the event (404 unknown on the event, 409 INVALID_STATE not accepted); null removes the coordinator.',
  request: { params: IdParam, body: jsonBody(CheckinSettingsRequest) },
  responses: {
    200: jsonResponse(CheckinSettingsSchema, 'The settings'),
    404: errors[404],
    409: errors[409],
  },
});

export const eventQr = authedRoute({
  method: 'get',
  path: '/{id}/checkin/qr',
  tags,
  allow: staff,
  regional: true,
  summary: "The event's rotating check-in code (for the screen at the door)",
  description: `A new code every 15 s; the current and the previous one are accepted. 503 CONFIG_MISSING without CHECKIN_SECRET.${staffNote}`,
  request: { params: IdParam },
  responses: { 200: jsonResponse(EventQrSchema, 'The current code'), 404: errors[404], 503: errors[503] },
});

export const eventKey = authedRoute({
  method: 'get',
  path: '/{id}/checkin/chave',
  tags,
  allow: planners,
  regional: true,
  summary: 'The event key for a display device that draws the codes offline (administrators, the creator)',
  description: `From 24 h before the window opens until exits close (409 CHECKIN_WINDOW_CLOSED otherwise). Who took it is logged (\`agenda_checkin.chave\`, never the key). Rotating the key retires it. 503 CONFIG_MISSING without CHECKIN_SECRET. Never given to a professional, the coordinator included (it would let its holder draw the event\'s codes anywhere); 404 for anyone but administrators and the event\'s creator.`,
  request: { params: IdParam },
  responses: {
    200: jsonResponse(EventKeySchema, 'The key of the current version'),
    404: errors[404],
    409: errors[409],
    503: errors[503],
  },
});

export const rotateKey = authedRoute({
  method: 'post',
  path: '/{id}/checkin/chave/rotacionar',
  tags,
  allow: planners,
  regional: true,
  summary: 'Rotate the event key (administrators, the creator)',
  description:
    'Bumps `chave_versao`: every code and display key of the old version stops working at once (logged `agenda_checkin.rotacionar`).',
  request: { params: IdParam },
  responses: { 200: jsonResponse(CheckinSettingsSchema, 'The settings, with the new version'), 404: errors[404] },
});

export const leituras = authedRoute({
  method: 'post',
  path: '/{id}/presencas/leituras',
  tags,
  allow: staff,
  regional: true,
  summary: 'Personal codes read by the coordinator, live or an offline batch (up to 100)',
  description: `Each code answered on its own: \`registrada\`, \`ja_registrada\` (its existing record) or \`recusada\` (\`code\`, \`erro\`), with the invitee's name, function and avatar for the face check. A code read more than 2 min after it was issued is \`offline\` and dated by its issue step (never the device's clock); older than 12 h, refused. 503 CONFIG_MISSING without CHECKIN_SECRET.${staffNote}`,
  request: { params: IdParam, body: jsonBody(LeiturasRequest) },
  responses: { 200: jsonResponse(LeiturasSchema, 'One result per code, in order'), 404: errors[404], 503: errors[503] },
});

export const manual = authedRoute({
  method: 'post',
  path: '/{id}/presencas/manual',
  tags,
  allow: requireRole(...ADMIN_ROLES, 'profissional'),
  regional: true,
  summary: 'Record an arrival or departure by hand (administrators, the coordinator)',
  description:
    'An `aceito` invitation of the event, at a `momento` inside the window and not in the future (logged `presencas.manual`). The same record again answers 200; another record of the same invitation and tipo is 409 CONFLICT (an administrator corrects it through the review).',
  request: { params: IdParam, body: jsonBody(ManualRequest) },
  responses: {
    201: jsonResponse(PresencaSchema, 'Recorded'),
    200: jsonResponse(PresencaSchema, 'Already recorded so (a retry)'),
    404: errors[404],
    409: errors[409],
  },
});

export const lista = authedRoute({
  method: 'get',
  path: '/{id}/presencas',
  tags,
  allow: requireRole(...ADMIN_ROLES, 'agenda_viewer', 'profissional', 'EVENT_OWNER'),
  regional: true,
  summary: "The event's attendance list",
  description:
    "The accepted team with arrival, departure, `atraso_min` (minutes after the call time, or the start), `situacao` and any no-show, by function and name. The company's EVENT_OWNER gets names, function and arrived or not only (`PresencaEquipeResumo`). Staff: administrators, the creator, the coordinator; 404 for anyone else.",
  request: { params: IdParam },
  responses: { 200: jsonResponse(ListaSchema, 'The team'), 404: errors[404] },
});

export const checkin = authedRoute({
  method: 'post',
  path: '/',
  tags,
  allow: requireRole('profissional'),
  summary: "A professional's check-in or check-out with the event's code",
  description:
    "The code's event must be one the caller is `aceito` on (404 otherwise). 409 INVALID_TOKEN: not the current or previous 15 s step, another key version, tampered; 409 CHECKIN_WINDOW_CLOSED outside the window (server's clock); 409 OUTSIDE_GEOFENCE when the event requires location and the position is outside (`raio_checkin_m` plus up to 150 m of the reported accuracy). Outside without that requirement, or position unknown where it is required: recorded with `situacao: revisar`. The same invitation and tipo again answers 200 with the existing record.",
  request: { body: jsonBody(PresencaRequest) },
  responses: {
    201: jsonResponse(PresencaSchema, 'Recorded'),
    200: jsonResponse(PresencaSchema, 'Already recorded: the existing record'),
    404: errors[404],
    409: errors[409],
    503: errors[503],
  },
});

export const revisar = authedRoute({
  method: 'patch',
  path: '/{id}',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: 'Decide a presence under review (administrators)',
  description: '`ok` or `invalida` (an invalid entrada does not count as an arrival). Logged `presencas.revisar`.',
  request: { params: IdParam, body: jsonBody(RevisaoRequest) },
  responses: { 200: jsonResponse(PresencaSchema, 'The presence'), 404: errors[404] },
});

export const personalQr = authedRoute({
  method: 'get',
  path: '/{id}/checkin/qr',
  tags,
  allow: requireRole('profissional'),
  summary: "The invitee's own check-in code, for the coordinator to scan",
  description:
    "The caller's `aceito` invitation (404 otherwise; 409 INVALID_STATE not accepted), from the day before the event until exits close (409 CHECKIN_WINDOW_CLOSED). Fetch it again whenever online: a code read more than 2 min after it was issued is dated by its issue time and marked offline; after 12 h it is refused. 503 CONFIG_MISSING without CHECKIN_SECRET.",
  request: { params: IdParam },
  responses: {
    200: jsonResponse(PersonalQrSchema, 'The code'),
    404: errors[404],
    409: errors[409],
    503: errors[503],
  },
});

export const falta = authedRoute({
  method: 'post',
  path: '/{id}/falta',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: 'Record a no-show (administrators)',
  description:
    'The only way a no-show is recorded (the job only flags `provavel`). An `aceito` invitation of an event of the region that has started and has no valid entrada (409 INVALID_STATE otherwise). The professional is notified (`falta_registrada`); logged `faltas.confirmar`. Already confirmed: 200 with the record.',
  request: { params: IdParam, body: { required: false, content: { 'application/json': { schema: FaltaRequest } } } },
  responses: {
    201: jsonResponse(FaltaSchema, 'Recorded'),
    200: jsonResponse(FaltaSchema, 'Already recorded'),
    404: errors[404],
    409: errors[409],
  },
});

export const desfazerFalta = authedRoute({
  method: 'delete',
  path: '/{id}/falta',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: 'Undo a confirmed no-show (administrators)',
  description:
    "For an office that confirmed the wrong person. The `confirmada` record of an invitation of an event of the region goes back to `provavel` (confirmation cleared, `motivo` the undo's), its reliability row is excused (`abonado`, the kept score recomputed; a contest still open on it is closed as `abonada`), the professional is notified (`falta_desfeita`); logged `faltas.desfazer`, all in one batch. 404 for an invitation not in the region or without a no-show record; 409 INVALID_STATE when the record is not `confirmada` (only flagged, or undone already: a repeated undo changes nothing). A later `POST` may confirm it again, with a new reliability row.",
  request: { params: IdParam, body: { required: false, content: { 'application/json': { schema: FaltaRequest } } } },
  responses: {
    200: jsonResponse(FaltaSchema, 'Undone: the record after the undo'),
    404: errors[404],
    409: errors[409],
  },
});
