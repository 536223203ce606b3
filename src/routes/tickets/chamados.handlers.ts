import { setTotal } from '../../lib/pagination';
import * as chamados from '../../services/tickets/chamados';
import { handler, logCtx, pushOf } from '../route';
import * as r from './chamados.routes';

export const create = handler(r.create, async (c) => {
  const db = c.get('db');
  const user = c.get('user');
  const regiao = c.get('regiao');
  return c.json(await chamados.openChamado(db, logCtx(c), user, regiao, c.req.valid('json'), pushOf(c)), 201);
});

export const list = handler(r.list, async (c) => {
  const db = c.get('db');
  const user = c.get('user');
  const regiao = c.get('regiao');
  const { items, total } = await chamados.listChamados(db, user, regiao, c.req.valid('query'));
  setTotal(c, total);
  return c.json(items, 200);
});

export const get = handler(r.get, async (c) => {
  const db = c.get('db');
  const user = c.get('user');
  const regiao = c.get('regiao');
  return c.json(await chamados.getChamado(db, user, regiao, c.req.valid('param').id), 200);
});

export const patch = handler(r.patch, async (c) => {
  const db = c.get('db');
  const user = c.get('user');
  const regiao = c.get('regiao');
  const id = c.req.valid('param').id;
  return c.json(await chamados.patchChamado(db, logCtx(c), user, regiao, id, c.req.valid('json'), pushOf(c)), 200);
});

export const addMensagem = handler(r.addMensagem, async (c) => {
  const db = c.get('db');
  const user = c.get('user');
  const regiao = c.get('regiao');
  const id = c.req.valid('param').id;
  return c.json(await chamados.addMensagem(db, logCtx(c), user, regiao, id, c.req.valid('json'), pushOf(c)), 201);
});
