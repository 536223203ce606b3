import { createRouter } from '../router';
import * as h from './calendario.handlers';
import * as r from './calendario.routes';

/** The caller's feed under /api/me/calendario (docs/decisions.md#d16). */
export const calendarioRoutes = createRouter()
  .openapi(r.get, h.get)
  .openapi(r.rotate, h.rotate)
  .openapi(r.disable, h.disable);

/** The public feed under /ical: documented through the registry, served by a plain route (see calendario.routes.ts). */
export const icalRoutes = createRouter();
// The registry would print `middleware` into the document: only the OpenAPI part goes in.
const { middleware: _unused, ...feedDoc } = r.feed;
icalRoutes.openAPIRegistry.registerPath(feedDoc);
// Its middleware (the edge cache, middleware/cached.ts) runs as on any route.
icalRoutes.get('/:token.ics', r.feedCache, h.feed);
