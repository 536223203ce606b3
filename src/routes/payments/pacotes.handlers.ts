import { setTotal } from '../../lib/pagination';
import * as pacotes from '../../services/payments/pacotes';
import { handler } from '../route';
import * as r from './pacotes.routes';

export const list = handler(r.list, async (c, ctx) => {
  const { rows, total } = await pacotes.listPacotes(ctx, c.req.valid('query'));
  setTotal(c, total);
  return c.json(rows, 200);
});

export const get = handler(r.get, async (c, ctx) => c.json(await pacotes.getPacote(ctx, c.req.valid('param').id), 200));

export const create = handler(r.create, async (c, ctx) =>
  c.json(await pacotes.createPacote(ctx, c.req.valid('json')), 201),
);

export const update = handler(r.update, async (c, ctx) =>
  c.json(await pacotes.updatePacote(ctx, c.req.valid('param').id, c.req.valid('json')), 200),
);

export const remove = handler(r.remove, async (c, ctx) => {
  await pacotes.deletePacote(ctx, c.req.valid('param').id);
  return c.body(null, 204);
});
