import { errors, jsonResponse, MessageSchema } from '../openapi';
import { publicRoute } from '../route';
import { WebhookHeaders, WebhookQuery } from './webhooks.schemas';

export const mercadoPago = publicRoute({
  method: 'post',
  path: '/mercadopago',
  tags: ['Payment webhooks'],
  summary: "Mercado Pago's payment notifications (signed; no token)",
  description:
    'Verifies `x-signature`: HMAC-SHA256 with MP_WEBHOOK_SECRET over `id:<data.id>;request-id:<x-request-id>;ts:<ts>;` (data.id from the query string, lowercased), compared in constant time, `ts` within 5 minutes; otherwise 401 INVALID_SIGNATURE and nothing happens. A valid notification is recorded once and answered 200 at once; the payment is then read from Mercado Pago by the payment consumer (the body is never trusted, nor read).',
  request: { query: WebhookQuery, headers: WebhookHeaders },
  responses: {
    200: jsonResponse(
      MessageSchema,
      'Received (also a replay, or a notification of another kind: nothing more happens)',
    ),
    401: errors[401],
  },
});
