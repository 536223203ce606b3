import { createRouter } from '../router';
import * as h from './pacotes.handlers';
import * as r from './pacotes.routes';

export const pacotesRoutes = createRouter()
  .openapi(r.list, h.list)
  .openapi(r.get, h.get)
  .openapi(r.create, h.create)
  .openapi(r.update, h.update)
  .openapi(r.remove, h.remove);
