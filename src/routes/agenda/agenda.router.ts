import { createRouter } from '../router';
import * as h from './agenda.handlers';
import * as r from './agenda.routes';

export const agendaRoutes = createRouter()
  .openapi(r.list, h.list)
  .openapi(r.get, h.get)
  .openapi(r.create, h.create)
  .openapi(r.update, h.update)
  .openapi(r.remove, h.remove);
