import { createRouter } from '../router';
import { asRouteHandler } from './catalogs.handlers';
import { catalogCreate, catalogList } from './catalogs.router';
import { tiposEventosConfig } from './tipos-eventos.schemas';
import * as h from './tipos-eventos.handlers';
import * as r from './tipos-eventos.routes';

// `/precos` is registered before the `/{id}` routes so that it is never read as an id.
export const tiposEventosRoutes = createRouter()
  .openapi(r.setPrice, h.setPrice)
  .openapi(r.listPrices, h.listPrices)
  .openapi(...catalogList(tiposEventosConfig, r, h))
  .openapi(...catalogCreate(r, h))
  .openapi(r.update, asRouteHandler(r.update, h.update))
  .openapi(r.remove, asRouteHandler(r.remove, h.remove));
