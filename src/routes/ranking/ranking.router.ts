import { createRouter } from '../router';
import * as h from './ranking.handlers';
import * as r from './ranking.routes';

/** The ranking and the batch invitation, under /api/agenda/{id}/... */
export const agendaRankingRoutes = createRouter().openapi(r.candidatos, h.candidatos).openapi(r.lote, h.lote);

/** The region's weights, under /api/ranking. */
export const rankingRoutes = createRouter().openapi(r.getPesos, h.getPesos).openapi(r.putPesos, h.putPesos);
