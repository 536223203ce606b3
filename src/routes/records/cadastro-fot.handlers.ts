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
import { foldedHandler, handler } from '../route';
import * as r from './cadastro-fot.routes';

export const list = foldedHandler(r.list, async (c, ctx) => {
  const [rows, counted] = await ctx.read((scope) => fotListSelects(ctx, scope, c.req.valid('query')));
  setTotal(c, totalOf(counted, rows.length));
  return c.json(rows.map(toFotResponse), 200);
});

export const get = foldedHandler(r.get, async (c, ctx) => {
  const [rows] = await ctx.read((scope) => [fotByIdSelect(ctx, scope, c.req.valid('param').id)]);
  return c.json(oneFot(rows), 200);
});

export const create = foldedHandler(r.create, async (c, ctx) => c.json(await createFot(ctx, c.req.valid('json')), 201));

export const update = handler(r.update, async (c, ctx) =>
  c.json(await updateFot(ctx, c.req.valid('param').id, c.req.valid('json')), 200),
);

export const remove = handler(r.remove, async (c, ctx) => {
  await deleteFot(ctx, c.req.valid('param').id);
  return c.body(null, 204);
});
