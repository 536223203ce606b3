import { createRouter } from '../router';
import { asRouteHandler } from './catalogs.handlers';
import { catalogCreate, catalogList } from './catalogs.router';
import { instituicoesConfig } from './instituicoes.schemas';
import * as h from './instituicoes.handlers';
import * as r from './instituicoes.routes';

// `/vincular` is registered before the `/{id}` routes.
export const instituicoesRoutes = createRouter()
  .openapi(r.vincular, h.vincular)
  .openapi(...catalogList(instituicoesConfig, r, h))
  .openapi(...catalogCreate(r, h))
  .openapi(r.update, asRouteHandler(r.update, h.update))
  .openapi(r.remove, asRouteHandler(r.remove, h.remove));
