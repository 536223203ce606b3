import { createRouter } from '../router';
import * as h from './regras.handlers';
import * as r from './regras.routes';

export const regrasRoutes = createRouter()
  .openapi(r.validar, h.validar)
  .openapi(r.list, h.list)
  .openapi(r.get, h.get)
  .openapi(r.create, h.create)
  .openapi(r.update, h.update)
  .openapi(r.remove, h.remove);
