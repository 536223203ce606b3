import { createRouter } from '../router';
import * as h from './deslocamentos.handlers';
import * as r from './deslocamentos.routes';

export const deslocamentosRoutes = createRouter()
  .openapi(r.estimativa, h.estimativa)
  .openapi(r.list, h.list)
  .openapi(r.put, h.put);
