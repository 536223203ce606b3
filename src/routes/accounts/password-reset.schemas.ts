import { z } from '@hono/zod-openapi';
import { email, senha } from '../../lib/fields';

export const ForgotPasswordRequest = z.object({ email: email() }).openapi('forgotPasswordRequest');

export const ResetPasswordRequest = z
  .object({
    // base64url: anything else cannot be a token (and control characters are refused like everywhere).
    token: z
      .string()
      .min(1)
      .max(200)
      .regex(/^[A-Za-z0-9_-]+$/)
      .openapi({
        pattern: '^[A-Za-z0-9_-]+$',
        description: 'the `token` of the e-mailed link (/redefinir-senha or /definir-senha), base64url',
      }),
    nova_senha: senha(),
  })
  .openapi('resetPasswordRequest');
