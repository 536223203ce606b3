import { createRouter } from '../router';
import * as h from './convites.handlers';
import * as r from './convites.routes';

/** Team and invitation routes under /api/agenda/{id}/... */
export const agendaTeamRoutes = createRouter()
  .openapi(r.putEquipe, h.putEquipe)
  .openapi(r.invite, h.invite)
  .openapi(r.listForEvent, h.listForEvent);

/** The invited professional's side, and cancellation, under /api/convites. */
export const convitesRoutes = createRouter()
  .openapi(r.listMine, h.listMine)
  .openapi(r.answer, h.answer)
  .openapi(r.cancel, h.cancel)
  .openapi(r.confirm, h.confirm)
  .openapi(r.acknowledge, h.acknowledge);
