import { candidatos as ranking } from '../../services/ranking/candidatos';
import { lote as batch } from '../../services/ranking/lote';
import * as pesos from '../../services/ranking/pesos';
import { handler } from '../route';
import * as r from './ranking.routes';

export const candidatos = handler(r.candidatos, async (c, ctx) =>
  c.json(await ranking(ctx, c.req.valid('param').id, c.req.valid('query')), 200),
);

export const lote = handler(r.lote, async (c, ctx) =>
  c.json(await batch(ctx, c.req.valid('param').id, c.req.valid('json')), 200),
);

export const getPesos = handler(r.getPesos, async (c, ctx) => c.json(await pesos.getPesos(ctx), 200));

export const putPesos = handler(r.putPesos, async (c, ctx) =>
  c.json(await pesos.putPesos(ctx, c.req.valid('json')), 200),
);
