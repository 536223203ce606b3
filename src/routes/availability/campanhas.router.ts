import { createRouter } from '../router';
import * as h from './campanhas.handlers';
import * as r from './campanhas.routes';

/** The season poll under /api/campanhas-disponibilidade (docs/decisions.md#d24). */
export const campanhasRoutes = createRouter()
  .openapi(r.create, h.create)
  .openapi(r.list, h.list)
  .openapi(r.get, h.get)
  .openapi(r.answer, h.answer)
  .openapi(r.resultado, h.resultado)
  .openapi(r.encerrar, h.encerrar);
