import { createRouter } from '../router';
import * as h from './regras-aplicar.handlers';
import * as r from './regras-aplicar.routes';

/** POST /api/agenda/{id}/regras/aplicar (docs/decisions.md#d25). */
export const regrasAplicarRoutes = createRouter().openapi(r.aplicar, h.aplicar);
