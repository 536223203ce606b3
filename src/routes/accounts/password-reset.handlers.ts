import { requestPasswordReset, resetPassword as reset } from '../../services/accounts/password-reset';
import { handler, logCtx, mailOf } from '../route';
import * as r from './password-reset.routes';

export const forgotPassword = handler(r.forgotPassword, async (c) => {
  const outboxId = await requestPasswordReset(
    c.get('db'),
    c.get('config'),
    c.req.valid('json').email,
    new Date(),
    logCtx(c),
  );
  // Enqueued after the answer is built, in the background: the answer's timing does not depend on it.
  if (outboxId) mailOf(c)([outboxId]);
  return c.json({ message: 'se o endereço tiver uma conta, um link para redefinir a senha está a caminho' }, 202);
});

export const resetPassword = handler(r.resetPassword, async (c) => {
  const { token, nova_senha } = c.req.valid('json');
  const outboxId = await reset(c.get('db'), c.get('config'), token, nova_senha, new Date(), logCtx(c));
  mailOf(c)([outboxId]);
  return c.json({ message: 'senha alterada: entre com a nova senha' }, 200);
});
