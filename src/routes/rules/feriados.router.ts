import { createRouter } from '../router';
import * as h from './feriados.handlers';
import * as r from './feriados.routes';

export const feriadosRoutes = createRouter()
  .openapi(r.list, h.list)
  .openapi(r.create, h.create)
  .openapi(r.remove, h.remove);
