import { setTotal } from '../../lib/pagination';
import * as admin from '../../services/accounts/admin-users';
import { resendAccessInvitation } from '../../services/accounts/password-reset';
import { forgetFeed } from '../operations/calendario.handlers';
import { handler, logCtx, mailOf, pushOf } from '../route';
import * as r from './admin-users.routes';

export const list = handler(r.list, async (c) => {
  const { users, total } = await admin.listUsers(c.get('db'), c.req.valid('query'));
  setTotal(c, total);
  return c.json(users, 200);
});

export const pending = handler(r.pending, async (c) => {
  const { users, total } = await admin.pendingUsers(c.get('db'), c.req.valid('query'));
  setTotal(c, total);
  return c.json(users, 200);
});

export const get = handler(r.get, async (c) => c.json(await admin.getUser(c.get('db'), c.req.valid('param').id), 200));

export const create = handler(r.create, async (c) => {
  const id = await admin.createUser(c.get('db'), logCtx(c), c.get('user'), c.get('regiao'), c.req.valid('json'));
  return c.json({ id, message: 'usuário criado' }, 201);
});

export const remove = handler(r.remove, async (c) => {
  await forgetFeed(c, await admin.deleteUser(c.get('db'), logCtx(c), c.get('user'), c.req.valid('param').id));
  return c.json({ message: 'usuário excluído' }, 200);
});

export const approve = handler(r.approve, async (c) => {
  await admin.approveUser(c.get('db'), logCtx(c), c.get('user'), c.req.valid('param').id, pushOf(c));
  return c.json({ message: 'usuário aprovado' }, 200);
});

export const changeRole = handler(r.changeRole, async (c) => {
  const body = c.req.valid('json');
  const { role } = body;
  const id = c.req.valid('param').id;
  const feed = await admin.changeRole(c.get('db'), logCtx(c), c.get('user'), c.get('regiao'), id, body, pushOf(c));
  await forgetFeed(c, feed);
  return c.json({ message: `perfil alterado para ${role}` }, 200);
});

export const accessInvitation = handler(r.accessInvitation, async (c) => {
  const db = c.get('db');
  const config = c.get('config');
  const id = c.req.valid('param').id;
  const outboxId = await resendAccessInvitation(db, config, c.get('user'), id, new Date(), logCtx(c));
  mailOf(c)([outboxId]);
  return c.json({ message: 'convite de acesso na fila de envio' }, 202);
});
