import { setTotal, totalOf } from '../../lib/pagination';
import {
  contagemSelect,
  createProfissional,
  deleteProfissional,
  profissionaisList,
  profissionaisListSelects,
  profissionalByIdSelects,
  profissionalOne,
  updateProfissional,
} from '../../services/professionals/profissionais';
import { minhasAvaliacoes as minhas } from '../../services/professionals/avaliacoes';
import { forgetFeed } from '../operations/calendario.handlers';
import { foldedHandler, handler, logCtx, mailOf, pushOf } from '../route';
import * as r from './profissionais.routes';

export const list = foldedHandler(r.list, async (c, { read }) => {
  const [profiles, counted] = await read((scope) =>
    profissionaisListSelects(c.get('db'), scope, c.get('regiao'), c.req.valid('query')),
  );
  setTotal(c, totalOf(counted, profiles.length));
  return c.json(profissionaisList(profiles), 200);
});

export const contagem = foldedHandler(r.contagem, async (c, { read }) => {
  const [rows] = await read(() => [contagemSelect(c.get('db'), c.get('regiao'))]);
  return c.json(rows, 200);
});

export const get = foldedHandler(r.get, async (c, { read }) => {
  const [profiles] = await read((scope) =>
    profissionalByIdSelects(c.get('db'), scope, c.get('regiao'), c.req.valid('param').id),
  );
  return c.json(profissionalOne(profiles), 200);
});

export const create = handler(r.create, async (c) => {
  const db = c.get('db');
  const user = c.get('user');
  const regiao = c.get('regiao');
  const config = c.get('config');
  const mail = { config, send: mailOf(c), now: new Date() };
  return c.json(await createProfissional(db, logCtx(c), user, regiao, c.req.valid('json'), mail), 201);
});

export const update = handler(r.update, async (c) => {
  const db = c.get('db');
  const user = c.get('user');
  const regiao = c.get('regiao');
  const notices = { config: c.get('config'), send: mailOf(c), push: pushOf(c), now: new Date() };
  return c.json(
    await updateProfissional(db, logCtx(c), user, regiao, c.req.valid('param').id, c.req.valid('json'), notices),
    200,
  );
});

export const remove = handler(r.remove, async (c) => {
  const id = c.req.valid('param').id;
  await forgetFeed(c, await deleteProfissional(c.get('db'), logCtx(c), c.get('user'), c.get('regiao'), id));
  return c.json({ message: 'profissional excluído' }, 200);
});

export const minhasAvaliacoes = handler(r.minhasAvaliacoes, async (c) =>
  c.json(await minhas(c.get('db'), c.get('user').id), 200),
);
