import { createRouter } from '../router';
import * as h from './cidades.handlers';
import * as r from './cidades.routes';

export const cidadesRoutes = createRouter().openapi(r.list, h.list);
