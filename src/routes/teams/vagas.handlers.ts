import { setTotal } from '../../lib/pagination';
import * as candidatura from '../../services/teams/candidatura';
import * as vagas from '../../services/teams/vagas';
import { foldedHandler, handler } from '../route';
import * as r from './vagas.routes';

export const list = foldedHandler(r.list, async (c, ctx) => {
  const query = c.req.valid('query');
  const [profile, rows] = await ctx.read((scope) => vagas.vagasSelects(ctx, scope, query));
  const { list, total } = vagas.toVagas(profile, rows);
  setTotal(c, total);
  return c.json(list, 200);
});

export const apply = handler(r.apply, async (c, ctx) =>
  c.json(await candidatura.apply(ctx, c.req.valid('param').id, c.req.valid('json')), 201),
);
