import { requestPasswordReset, resetPassword as reset } from '../../services/accounts/password-reset';
import { handler } from '../route';
import * as r from './password-reset.routes';

export const forgotPassword = handler(r.forgotPassword, async (c, ctx) => {
  const outboxId = await requestPasswordReset(ctx, c.req.valid('json').email);
  // Enqueued after the answer is built, in the background: the answer's timing does not depend on it.
  if (outboxId) ctx.mail([outboxId]);
  return c.json({ message: 'se o endereço tiver uma conta, um link para redefinir a senha está a caminho' }, 202);
});

export const resetPassword = handler(r.resetPassword, async (c, ctx) => {
  const { token, nova_senha } = c.req.valid('json');
  ctx.mail([await reset(ctx, { token, novaSenha: nova_senha })]);
  return c.json({ message: 'senha alterada: entre com a nova senha' }, 200);
});
