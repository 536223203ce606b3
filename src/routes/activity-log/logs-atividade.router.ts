import { createRouter } from '../router';
import * as h from './logs-atividade.handlers';
import * as r from './logs-atividade.routes';

// The fixed path before any parameterised one.
export const logsAtividadeRoutes = createRouter().openapi(r.verify, h.verify).openapi(r.list, h.list);
