import { createRouter } from '../router';
import * as h from './notifications.handlers';
import * as r from './notifications.routes';

// Fixed paths before the /{id} ones.
export const notificationsRoutes = createRouter()
  .openapi(r.list, h.list)
  .openapi(r.unreadCount, h.unreadCount)
  .openapi(r.readAll, h.readAll)
  .openapi(r.addPushToken, h.addPushToken)
  .openapi(r.removePushToken, h.removePushToken)
  .openapi(r.markRead, h.markRead)
  .openapi(r.remove, h.remove);
