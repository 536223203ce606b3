import { createRouter } from '../router';
import * as h from './pedidos.handlers';
import * as r from './pedidos.routes';

export const pedidosRoutes = createRouter()
  .openapi(r.create, h.create)
  .openapi(r.list, h.list)
  .openapi(r.get, h.get)
  .openapi(r.cancel, h.cancel);
