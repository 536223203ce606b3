import { createRouter } from '../router';
import * as h from './vagas.handlers';
import * as r from './vagas.routes';

/** Job listings and applications (docs/decisions.md#d17), under /api/vagas. */
export const vagasRoutes = createRouter().openapi(r.list, h.list).openapi(r.apply, h.apply);
