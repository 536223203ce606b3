import { setTotal } from '../../lib/pagination';
import { createFeriado, deleteFeriado, listFeriados } from '../../services/rules/feriados';
import { handler } from '../route';
import * as r from './feriados.routes';

export const list = handler(r.list, async (c, ctx) => {
  const { rows, total } = await listFeriados(ctx, c.req.valid('query'));
  setTotal(c, total);
  return c.json(rows, 200);
});

export const create = handler(r.create, async (c, ctx) => c.json(await createFeriado(ctx, c.req.valid('json')), 201));

export const remove = handler(r.remove, async (c, ctx) => {
  await deleteFeriado(ctx, c.req.valid('param').id);
  return c.body(null, 204);
});
