import { createRouter } from '../router';
import * as h from './whatsapp.handlers';
import * as r from './whatsapp.routes';

/** GET and POST /webhooks/whatsapp (docs/decisions.md#d30). */
export const whatsappWebhookRoutes = createRouter().openapi(r.handshake, h.handshake).openapi(r.receive, h.receive);

/** GET /api/agenda/{id}/whatsapp. */
export const whatsappStatusRoutes = createRouter().openapi(r.eventStatus, h.eventStatus);
