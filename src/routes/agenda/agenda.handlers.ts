import { setTotal, totalOf } from '../../lib/pagination';
import {
  agendaByIdSelects,
  agendaListSelects,
  createAgenda,
  deleteAgenda,
  joinTeams,
  oneAgenda,
  updateAgenda,
} from '../../services/agenda/agenda';
import { foldedHandler, handler } from '../route';
import * as r from './agenda.routes';

export const list = foldedHandler(r.list, async (c, ctx) => {
  const query = c.req.valid('query');
  const [rows, teams, counted] = await ctx.read((scope) => agendaListSelects(ctx, scope, query));
  setTotal(c, totalOf(counted, rows.length));
  return c.json(joinTeams(rows, teams), 200);
});

export const get = foldedHandler(r.get, async (c, ctx) => {
  const [rows, teams] = await ctx.read((scope) => agendaByIdSelects(ctx, scope, c.req.valid('param').id));
  return c.json(oneAgenda(joinTeams(rows, teams)), 200);
});

export const create = handler(r.create, async (c, ctx) => c.json(await createAgenda(ctx, c.req.valid('json')), 201));

export const update = handler(r.update, async (c, ctx) =>
  c.json(await updateAgenda(ctx, c.req.valid('param').id, c.req.valid('json')), 200),
);

export const remove = handler(r.remove, async (c, ctx) => {
  await deleteAgenda(ctx, c.req.valid('param').id);
  return c.body(null, 204);
});
