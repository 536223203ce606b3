import { z } from '@hono/zod-openapi';
import { email, senha } from '../../lib/fields';

export const ForgotPasswordRequest = z.object({ email: email() }).openapi('forgotPasswordRequest');

export const ResetPasswordRequest = z
  .object({
    token: z
      .string()
      .min(1)
      .max(200)
      .openapi({ description: 'the `token` of the e-mailed link (/redefinir-senha or /definir-senha)' }),
    nova_senha: senha(),
  })
  .openapi('resetPasswordRequest');
