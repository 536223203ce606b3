import { createRouter } from '../router';
import * as h from './webhooks.handlers';
import * as r from './webhooks.routes';

/** Outside services calling us: /webhooks/*. */
export const webhooksRoutes = createRouter().openapi(r.mercadoPago, h.mercadoPago);
