import { citiesSelect, estimate, matrixSelect, pairSelect, saveMatrix } from '../../services/places/deslocamentos';
import { foldedHandler, handler } from '../route';
import * as r from './deslocamentos.routes';

export const list = foldedHandler(r.list, async (c, ctx) => {
  const [rows] = await ctx.read(() => [matrixSelect(ctx)]);
  return c.json(rows, 200);
});

export const put = handler(r.put, async (c, ctx) => c.json(await saveMatrix(ctx, c.req.valid('json').itens), 200));

export const estimativa = foldedHandler(r.estimativa, async (c, ctx) => {
  const q = c.req.valid('query');
  const [found, matrix] = await ctx.read(() => [
    citiesSelect(ctx, [q.origem, q.destino]),
    pairSelect(ctx, q.origem, q.destino),
  ]);
  return c.json(estimate(found, matrix, q, ctx.config.DESLOCAMENTO_MESMA_CIDADE_MIN), 200);
});
