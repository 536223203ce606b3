import { createRouter } from '../router';
import * as h from './cadastro-fot.handlers';
import * as r from './cadastro-fot.routes';

export const cadastroFotRoutes = createRouter()
  .openapi(r.list, h.list)
  .openapi(r.get, h.get)
  .openapi(r.create, h.create)
  .openapi(r.update, h.update)
  .openapi(r.remove, h.remove);
