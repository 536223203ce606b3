import { setTotal, totalOf } from '../../lib/pagination';
import { respond } from '../../services/teams/answer';
import * as convites from '../../services/teams/convites';
import * as listas from '../../services/teams/convite-read';
import { setEquipe } from '../../services/teams/team-quota';
import { foldedHandler, handler } from '../route';
import * as r from './convites.routes';

export const putEquipe = handler(r.putEquipe, async (c, ctx) =>
  c.json(await setEquipe(ctx, c.req.valid('param').id, c.req.valid('json')), 200),
);

export const invite = handler(r.invite, async (c, ctx) =>
  c.json(await convites.invite(ctx, c.req.valid('param').id, c.req.valid('json')), 201),
);

export const listForEvent = foldedHandler(r.listForEvent, async (c, ctx) => {
  const query = { ...c.req.valid('query'), id: c.req.valid('param').id };
  const [event, rows, counted] = await ctx.read((scope) => listas.eventConvitesSelects(ctx, scope, query));
  const body = listas.eventConvites(event, rows);
  setTotal(c, totalOf(counted, rows.length));
  return c.json(body, 200);
});

export const listMine = foldedHandler(r.listMine, async (c, ctx) => {
  const query = c.req.valid('query');
  const [rows, counted] = await ctx.read((scope) => listas.myConvitesSelects(ctx, scope, query));
  setTotal(c, totalOf(counted, rows.length));
  return c.json(rows.map(listas.toConviteResponse), 200);
});

// The professional answers its own invitation; an administrator decides an application. The
// caller's check, the write, its notifications and the answer are one batch (a folded write).
export const answer = foldedHandler(r.answer, async (c, ctx) =>
  c.json(await respond(ctx, c.req.valid('param').id, c.req.valid('json')), 200),
);

export const cancel = handler(r.cancel, async (c, ctx) => {
  await convites.cancel(ctx, c.req.valid('param').id);
  return c.body(null, 204);
});

export const confirm = handler(r.confirm, async (c, ctx) =>
  c.json(await convites.confirm(ctx, c.req.valid('param').id), 200),
);

export const acknowledge = handler(r.acknowledge, async (c, ctx) =>
  c.json(await convites.acknowledge(ctx, c.req.valid('param').id), 200),
);
