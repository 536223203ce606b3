import { createRouter } from '../router';
import * as h from './chamados.handlers';
import * as r from './chamados.routes';

/** Support tickets under /api/chamados (docs/decisions.md#d22). */
export const chamadosRoutes = createRouter()
  .openapi(r.create, h.create)
  .openapi(r.list, h.list)
  .openapi(r.get, h.get)
  .openapi(r.patch, h.patch)
  .openapi(r.addMensagem, h.addMensagem);
