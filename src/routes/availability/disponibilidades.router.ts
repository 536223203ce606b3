import { createRouter } from '../router';
import * as h from './disponibilidades.handlers';
import * as r from './disponibilidades.routes';

/**
 * Availability declarations under /api/profissionais (docs/decisions.md#d24): the caller's own
 * (`/me/...`, declared first: `me` is not an id) and any professional's for administrators.
 */
export const disponibilidadesRoutes = createRouter()
  .openapi(r.listMine, h.listMine)
  .openapi(r.createMine, h.createMine)
  .openapi(r.removeMine, h.removeMine)
  .openapi(r.listOf, h.listOf)
  .openapi(r.createFor, h.createFor)
  .openapi(r.removeFor, h.removeFor);

/** /api/disponibilidades: the planners' summary. */
export const disponibilidadesResumoRoutes = createRouter().openapi(r.resumo, h.resumo);
