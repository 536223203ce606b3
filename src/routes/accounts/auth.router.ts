import { createRouter } from '../router';
import * as h from './auth.handlers';
import * as r from './auth.routes';

export const authRoutes = createRouter()
  .openapi(r.register, h.register)
  .openapi(r.login, h.login)
  .openapi(r.refresh, h.refresh)
  .openapi(r.logout, h.logout)
  .openapi(r.getMe, h.getMe)
  .openapi(r.updateMe, h.updateMe)
  // Same handlers: /api/users/me is /api/me under the path older frontends call.
  .openapi(r.getUsersMe, h.getMe)
  .openapi(r.updateUsersMe, h.updateMe);
