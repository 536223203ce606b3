import { createRouter } from '../router';
import * as h from './confiabilidade.handlers';
import * as r from './confiabilidade.routes';

/**
 * The reliability score under /api/profissionais (docs/decisions.md#d28): the caller's own
 * (`/me/...`, declared first: `me` is not an id) and any professional's for administrators.
 */
export const confiabilidadeProfRoutes = createRouter()
  .openapi(r.mine, h.mine)
  .openapi(r.contest, h.contest)
  .openapi(r.of, h.of);

/** /api/confiabilidade: the contests' queue and answer, and the research aggregates. */
export const confiabilidadeRoutes = createRouter()
  .openapi(r.listContestacoes, h.listContestacoes)
  .openapi(r.decide, h.decide)
  .openapi(r.regioes, h.regioes);
