import { setTotal, totalOf } from '../../lib/pagination';
import {
  agendaByIdSelects,
  agendaListSelects,
  createAgenda,
  deleteAgenda,
  joinTeams,
  oneAgenda,
  updateAgenda,
} from '../../services/agenda';
import { foldedHandler, handler, logCtx, pushOf } from '../route';
import * as r from './agenda.routes';

export const list = foldedHandler(r.list, async (c, read) => {
  const { de, ate, fot_id, ...page } = c.req.valid('query');
  const [rows, teams, counted] = await read((scope) =>
    agendaListSelects(c.get('db'), scope, c.get('regiao'), { de, ate, fot_id }, page),
  );
  setTotal(c, totalOf(counted, rows.length));
  return c.json(joinTeams(rows, teams), 200);
});

export const get = foldedHandler(r.get, async (c, read) => {
  const [rows, teams] = await read((scope) =>
    agendaByIdSelects(c.get('db'), scope, c.get('regiao'), c.req.valid('param').id),
  );
  return c.json(oneAgenda(joinTeams(rows, teams)), 200);
});

export const create = handler(r.create, async (c) =>
  c.json(
    await createAgenda(c.get('db'), logCtx(c), c.get('user'), c.get('regiao'), c.req.valid('json'), pushOf(c)),
    201,
  ),
);

export const update = handler(r.update, async (c) => {
  const db = c.get('db');
  const user = c.get('user');
  const regiao = c.get('regiao');
  return c.json(
    await updateAgenda(db, logCtx(c), user, regiao, c.req.valid('param').id, c.req.valid('json'), pushOf(c)),
    200,
  );
});

export const remove = handler(r.remove, async (c) => {
  await deleteAgenda(c.get('db'), logCtx(c), c.get('user'), c.get('regiao'), c.req.valid('param').id, pushOf(c));
  return c.body(null, 204);
});
