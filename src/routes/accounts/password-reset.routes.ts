import { errors, jsonBody, jsonResponse, MessageSchema } from '../openapi';
import { publicRoute } from '../route';
import { ForgotPasswordRequest, ResetPasswordRequest } from './password-reset.schemas';

const tags = ['Authentication'];

export const forgotPassword = publicRoute({
  method: 'post',
  path: '/auth/forgot-password',
  tags,
  summary: 'E-mail a password reset link (same answer whatever the address)',
  description:
    'For an existing account, e-mails `${APP_URL}/redefinir-senha?token=<token>` (valid RESET_TOKEN_TTL_SECONDS, default 30 minutes, single use; a new request voids the older links). At most 3 such e-mails per address per hour: further requests get the same answer and send nothing. The answer and the work done are the same for an unknown address.',
  request: { body: jsonBody(ForgotPasswordRequest) },
  responses: {
    202: jsonResponse(MessageSchema, 'Accepted (whether or not the address has an account)'),
    400: errors[400],
    413: errors[413],
    500: errors[500],
  },
});

export const resetPassword = publicRoute({
  method: 'post',
  path: '/auth/reset-password',
  tags,
  summary: 'Set a new password with a reset or invitation token',
  description:
    'Redeems the token of a /redefinir-senha or /definir-senha link: the new password, the token spent and every refresh token of the user revoked, at once; a "senha alterada" e-mail follows. No session is started: log in with the new password (a pending account is still refused until approved). Unknown, used, voided or expired token: 400 INVALID_RESET_TOKEN.',
  request: { body: jsonBody(ResetPasswordRequest) },
  responses: {
    200: jsonResponse(MessageSchema, 'Password changed'),
    400: errors[400],
    413: errors[413],
    500: errors[500],
  },
});
