import { IMPORT_TIPOS } from '../../db/schema';
import { createRouter } from '../router';
import * as h from './importacoes.handlers';
import * as r from './importacoes.routes';

/** Mounted at /api: its paths span /api/importacoes and /api/exportacoes. */
const templates = createRouter();
r.templates.forEach((route, i) => templates.openapi(route, h.template(IMPORT_TIPOS[i]!)));

export const importacoesRoutes = createRouter()
  .route('/', templates)
  .openapi(r.create, h.create)
  .openapi(r.get, h.get)
  .openapi(r.errorsCsv, h.errorsCsv)
  .openapi(r.apply, h.apply)
  .openapi(r.exportCsv, h.exportCsv);
