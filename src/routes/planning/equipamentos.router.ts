import { createRouter } from '../router';
import * as h from './equipamentos.handlers';
import * as r from './equipamentos.routes';

/** /api/equipamentos: the stock the planner counts (docs/decisions.md#d26). */
export const equipamentosRoutes = createRouter().openapi(r.list, h.list).openapi(r.put, h.put);
