import { createRouter } from '../router';
import * as h from './pesquisas.handlers';
import * as r from './pesquisas.routes';

/** Surveys under /api/pesquisas (docs/decisions.md#d21): RESEARCHER and administrators. */
export const pesquisasRoutes = createRouter()
  .openapi(r.list, h.list)
  .openapi(r.create, h.create)
  .openapi(r.get, h.get)
  .openapi(r.update, h.update)
  .openapi(r.remove, h.remove)
  .openapi(r.envios, h.envios)
  .openapi(r.resultados, h.resultados)
  .openapi(r.csv, h.csv);

/** The public answer routes of an e-mailed link, under /p/pesquisas. */
export const publicPesquisasRoutes = createRouter()
  .openapi(r.publicGet, h.publicGet)
  .openapi(r.publicAnswer, h.publicAnswer);
