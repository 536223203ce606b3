import { createRouter } from '../router';
import * as h from './profissionais.handlers';
import * as r from './profissionais.routes';

export const profissionaisRoutes = createRouter()
  .openapi(r.list, h.list)
  .openapi(r.contagem, h.contagem)
  .openapi(r.get, h.get)
  .openapi(r.create, h.create)
  .openapi(r.update, h.update)
  .openapi(r.remove, h.remove);

/** A professional's own client ratings, under /api/me (docs/decisions.md#d21). */
export const meAvaliacoesRoutes = createRouter().openapi(r.minhasAvaliacoes, h.minhasAvaliacoes);
