import { createRouter } from '../router';
import * as h from './checkin.handlers';
import * as r from './checkin.routes';

/** An event's check-in under /api/agenda/{id} (docs/decisions.md#d27): settings, codes, key, readings, list. */
export const agendaCheckinRoutes = createRouter()
  .openapi(r.getSettings, h.getSettings)
  .openapi(r.putSettings, h.putSettings)
  .openapi(r.eventQr, h.qr)
  .openapi(r.eventKey, h.key)
  .openapi(r.rotateKey, h.rotate)
  .openapi(r.leituras, h.leituras)
  .openapi(r.manual, h.manual)
  .openapi(r.lista, h.lista);

/** /api/presencas: the professional's own check-in, an administrator's review. */
export const presencasRoutes = createRouter().openapi(r.checkin, h.checkin).openapi(r.revisar, h.revisar);

/** Under /api/convites/{id}: the invitee's personal code, an administrator's no-show. */
export const convitesCheckinRoutes = createRouter()
  .openapi(r.personalQr, h.pessoal)
  .openapi(r.falta, h.falta)
  .openapi(r.desfazerFalta, h.desfazerFalta);
