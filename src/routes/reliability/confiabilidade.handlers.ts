import { setTotal } from '../../lib/pagination';
import {
  createContestacao,
  decideContestacao,
  getConfiabilidade,
  listContestacoes as listAll,
  regioesAgregados,
} from '../../services/reliability/confiabilidade';
import { handler } from '../route';
import * as r from './confiabilidade.routes';

export const mine = handler(r.mine, async (c, ctx) => c.json(await getConfiabilidade(ctx, { me: true }), 200));

export const contest = handler(r.contest, async (c, ctx) =>
  c.json(await createContestacao(ctx, c.req.valid('json')), 201),
);

export const of = handler(r.of, async (c, ctx) =>
  c.json(await getConfiabilidade(ctx, { id: c.req.valid('param').id }), 200),
);

export const listContestacoes = handler(r.listContestacoes, async (c, ctx) => {
  const { items, total } = await listAll(ctx, c.req.valid('query'));
  setTotal(c, total);
  return c.json(items, 200);
});

export const decide = handler(r.decide, async (c, ctx) =>
  c.json(await decideContestacao(ctx, c.req.valid('param').id, c.req.valid('json')), 200),
);

export const regioes = handler(r.regioes, async (c, ctx) => c.json(await regioesAgregados(ctx), 200));
