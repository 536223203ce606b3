import { logisticaSelect, oneLogistica, putLogistica } from '../../services/operations/logistica';
import { foldedHandler, handler } from '../route';
import * as r from './logistica.routes';

export const get = foldedHandler(r.get, async (c, ctx) => {
  const [rows] = await ctx.read((scope) => [logisticaSelect(ctx, scope, c.req.valid('param').id)]);
  return c.json(oneLogistica(rows), 200);
});

export const put = handler(r.put, async (c, ctx) =>
  c.json(await putLogistica(ctx, c.req.valid('param').id, c.req.valid('json')), 200),
);

export const patch = handler(r.patch, async (c, ctx) =>
  c.json(await putLogistica(ctx, c.req.valid('param').id, c.req.valid('json')), 200),
);
