import { createRouter } from '../router';
import * as h from './canais.handlers';
import * as r from './canais.routes';

/** PUT /api/me/canais (docs/decisions.md#d30). */
export const canaisRoutes = createRouter().openapi(r.putCanais, h.putCanais);
