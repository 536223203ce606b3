import { createRouter } from '../router';
import * as h from './importacoes.handlers';
import * as r from './importacoes.routes';

/** Mounted at /api: its paths span /api/importacoes and /api/exportacoes. */
export const importacoesRoutes = createRouter()
  .openapi(r.template, h.template)
  .openapi(r.create, h.create)
  .openapi(r.get, h.get)
  .openapi(r.errorsCsv, h.errorsCsv)
  .openapi(r.apply, h.apply)
  .openapi(r.exportCsv, h.exportCsv);
