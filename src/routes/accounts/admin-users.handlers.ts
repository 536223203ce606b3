import { setTotal } from '../../lib/pagination';
import * as admin from '../../services/accounts/admin-users';
import { resendAccessInvitation } from '../../services/accounts/password-reset';
import { forgetFeed } from '../operations/calendario.handlers';
import { handler } from '../route';
import * as r from './admin-users.routes';

export const list = handler(r.list, async (c, ctx) => {
  const { users, total } = await admin.listUsers(ctx, c.req.valid('query'));
  setTotal(c, total);
  return c.json(users, 200);
});

export const pending = handler(r.pending, async (c, ctx) => {
  const { users, total } = await admin.pendingUsers(ctx, c.req.valid('query'));
  setTotal(c, total);
  return c.json(users, 200);
});

export const get = handler(r.get, async (c, ctx) => c.json(await admin.getUser(ctx, c.req.valid('param').id), 200));

export const create = handler(r.create, async (c, ctx) => {
  const id = await admin.createUser(ctx, c.req.valid('json'));
  return c.json({ id, message: 'usuário criado' }, 201);
});

export const remove = handler(r.remove, async (c, ctx) => {
  await forgetFeed(c, await admin.deleteUser(ctx, c.req.valid('param').id));
  return c.json({ message: 'usuário excluído' }, 200);
});

export const approve = handler(r.approve, async (c, ctx) => {
  await admin.approveUser(ctx, c.req.valid('param').id);
  return c.json({ message: 'usuário aprovado' }, 200);
});

export const changeRole = handler(r.changeRole, async (c, ctx) => {
  const body = c.req.valid('json');
  await forgetFeed(c, await admin.changeRole(ctx, c.req.valid('param').id, body));
  return c.json({ message: `perfil alterado para ${body.role}` }, 200);
});

export const accessInvitation = handler(r.accessInvitation, async (c, ctx) => {
  ctx.mail([await resendAccessInvitation(ctx, c.req.valid('param').id)]);
  return c.json({ message: 'convite de acesso na fila de envio' }, 202);
});
