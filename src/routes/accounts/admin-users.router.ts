import { createRouter } from '../router';
import * as h from './admin-users.handlers';
import * as r from './admin-users.routes';

export const adminUsersRoutes = createRouter()
  .openapi(r.list, h.list)
  .openapi(r.pending, h.pending)
  .openapi(r.get, h.get)
  .openapi(r.create, h.create)
  .openapi(r.remove, h.remove)
  .openapi(r.approve, h.approve)
  .openapi(r.changeRole, h.changeRole)
  .openapi(r.accessInvitation, h.accessInvitation);
