import { createRouter } from '../router';
import * as h from './agenda-regras.handlers';
import * as r from './agenda-regras.routes';

export const agendaRegrasRoutes = createRouter()
  .openapi(r.avaliar, h.avaliar)
  .openapi(r.credenciamento, h.credenciamento);
