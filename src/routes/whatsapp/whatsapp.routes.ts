import { z } from '@hono/zod-openapi';
import { allowAgenda } from '../../middleware/require-role';
import { errors, IdParam, jsonResponse, MessageSchema } from '../openapi';
import { authedRoute, publicRoute } from '../route';
import { HandshakeQuery, SignatureHeaders, WhatsappStatusSchema } from './whatsapp.schemas';

const tags = ['WhatsApp'];

export const handshake = publicRoute({
  method: 'get',
  path: '/whatsapp',
  tags,
  summary: "Meta's webhook subscription handshake (no token)",
  description:
    'Answers `hub.challenge` as text when `hub.mode` is `subscribe` and `hub.verify_token` equals WHATSAPP_VERIFY_TOKEN (compared in constant time); 403 FORBIDDEN otherwise, and while WHATSAPP_VERIFY_TOKEN is unset.',
  request: { query: HandshakeQuery },
  responses: {
    200: { description: 'The challenge', content: { 'text/plain': { schema: z.string() } } },
    403: errors[403],
  },
});

export const receive = publicRoute({
  method: 'post',
  path: '/whatsapp',
  tags,
  summary: "Meta's WhatsApp deliveries: statuses and button replies (signed; no token)",
  description:
    "The body is the Cloud API's `whatsapp_business_account` delivery, read raw: `X-Hub-Signature-256` must be `sha256=` + the HMAC-SHA256 of the exact bytes with WHATSAPP_APP_SECRET, compared in constant time; otherwise 401 INVALID_SIGNATURE and nothing happens. Statuses (`delivered`, `read`, `failed`) move the sent message's row forward. A quick reply `aceitar:<token>` / `recusar:<token>` (template `button` or interactive `button_reply`) whose token is the invitation's, from the professional's consented number, answers the invitation exactly as PATCH /api/convites/{id} (quota, overlap and state rules, notifications, fee, activity log) and the professional gets a text with the outcome; each inbound message id once, each token once. Everything else (and a reply that fails a check) is acknowledged with 200 and ignored.",
  request: { headers: SignatureHeaders },
  responses: {
    200: jsonResponse(MessageSchema, 'Received (also a replay, or something ignored)'),
    401: errors[401],
  },
});

export const eventStatus = authedRoute({
  method: 'get',
  path: '/{id}/whatsapp',
  tags,
  allow: allowAgenda('update'),
  regional: true,
  summary: "Delivery and read status of the event's WhatsApp invitations",
  description:
    'One item per invitation sent on WhatsApp (professionals who did not consent have none), in invitation order: the message status (`enviado`, `entregue`, `lido`, `falhou`, or not yet sent) with its times, and whether it was answered with its buttons. For those who manage the event (404 otherwise).',
  request: { params: IdParam },
  responses: { 200: jsonResponse(z.array(WhatsappStatusSchema), 'Per invitation'), 404: errors[404] },
});
