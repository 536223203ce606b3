import { createRouter } from '../router';
import * as h from './password-reset.handlers';
import * as r from './password-reset.routes';

/** POST /auth/forgot-password and /auth/reset-password (docs/decisions.md#d14). */
export const passwordResetRoutes = createRouter()
  .openapi(r.forgotPassword, h.forgotPassword)
  .openapi(r.resetPassword, h.resetPassword);
