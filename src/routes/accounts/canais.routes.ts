import { requireRole } from '../../middleware/require-role';
import { errors, jsonBody, jsonResponse } from '../openapi';
import { authedRoute } from '../route';
import { CanaisRequest, CanaisSchema } from './canais.schemas';

export const putCanais = authedRoute({
  method: 'put',
  path: '/api/me/canais',
  tags: ['Authentication'],
  allow: requireRole('profissional'),
  summary: "The professional's consent to messages on WhatsApp (docs/decisions.md#d30)",
  description:
    "Opting in normalises the profile's `whatsapp` to E.164 (+55, DDD, number) and records when; only then are invitations (with accept/decline buttons), D-2/D-1 reminders, call-sheet changes and payouts sent there. A profile number that cannot be normalised is 400 VALIDATION_FAILED; no linked profile is 404. Changing the profile's number later withdraws the consent (opt in again). Logged in the activity log. GET /api/me answers the same `canais`.",
  request: { body: jsonBody(CanaisRequest) },
  responses: {
    200: jsonResponse(CanaisSchema, 'The consent as stored'),
    404: errors[404],
    409: errors[409],
  },
});
