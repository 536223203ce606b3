import { createRouter } from '../router';
import * as h from './logistica.handlers';
import * as r from './logistica.routes';

/** The call sheet under /api/agenda/{id}/logistica (docs/decisions.md#d16). */
export const logisticaRoutes = createRouter().openapi(r.get, h.get).openapi(r.put, h.put).openapi(r.patch, h.patch);
