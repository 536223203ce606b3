import { createRouter } from '../router';
import * as h from './planejamento.handlers';
import * as r from './planejamento.routes';

/** /api/planejamento: the season planner (docs/decisions.md#d26). */
export const planejamentoRoutes = createRouter().openapi(r.capacidade, h.capacidade).openapi(r.simulacao, h.simulacao);
