import { setTotal, totalOf } from '../../lib/pagination';
import {
  createFot,
  deleteFot,
  fotByIdSelect,
  fotListSelects,
  oneFot,
  toFotResponse,
  updateFot,
} from '../../services/records/cadastro-fot';
import { foldedHandler, handler, logCtx } from '../route';
import * as r from './cadastro-fot.routes';

export const list = foldedHandler(r.list, async (c, { read }) => {
  const { empresa_id, ...page } = c.req.valid('query');
  const [rows, counted] = await read((scope) => fotListSelects(c.get('db'), scope, c.get('regiao'), empresa_id, page));
  setTotal(c, totalOf(counted, rows.length));
  return c.json(rows.map(toFotResponse), 200);
});

export const get = foldedHandler(r.get, async (c, { read }) => {
  const [rows] = await read((scope) => [fotByIdSelect(c.get('db'), scope, c.get('regiao'), c.req.valid('param').id)]);
  return c.json(oneFot(rows), 200);
});

export const create = foldedHandler(r.create, async (c, { write }) =>
  c.json(await createFot(c.get('db'), write, c.get('regiao'), c.req.valid('json')), 201),
);

export const update = handler(r.update, async (c) =>
  c.json(await updateFot(c.get('db'), logCtx(c), c.get('regiao'), c.req.valid('param').id, c.req.valid('json')), 200),
);

export const remove = handler(r.remove, async (c) => {
  await deleteFot(c.get('db'), logCtx(c), c.get('regiao'), c.req.valid('param').id);
  return c.body(null, 204);
});
