import { setTotal, totalOf } from '../../lib/pagination';
import * as convites from '../../services/teams/convites';
import { foldedHandler, handler, logCtx, pushOf } from '../route';
import * as r from './convites.routes';

export const putEquipe = handler(r.putEquipe, async (c) => {
  const db = c.get('db');
  const user = c.get('user');
  const regiao = c.get('regiao');
  return c.json(
    await convites.setEquipe(db, logCtx(c), user, regiao, c.req.valid('param').id, c.req.valid('json')),
    200,
  );
});

export const invite = handler(r.invite, async (c) => {
  const db = c.get('db');
  const user = c.get('user');
  const regiao = c.get('regiao');
  const id = c.req.valid('param').id;
  return c.json(await convites.invite(db, logCtx(c), user, regiao, id, c.req.valid('json'), pushOf(c)), 201);
});

export const listForEvent = foldedHandler(r.listForEvent, async (c, { read }) => {
  const { id } = c.req.valid('param');
  const [event, rows, counted] = await read((scope) =>
    convites.eventConvitesSelects(c.get('db'), scope, c.get('regiao'), id, c.req.valid('query')),
  );
  const body = convites.eventConvites(event, rows);
  setTotal(c, totalOf(counted, rows.length));
  return c.json(body, 200);
});

export const listMine = foldedHandler(r.listMine, async (c, { read }) => {
  const { status, ...page } = c.req.valid('query');
  const [rows, counted] = await read((scope) => convites.myConvitesSelects(c.get('db'), scope, status, page));
  setTotal(c, totalOf(counted, rows.length));
  return c.json(rows.map(convites.toConviteResponse), 200);
});

// The professional answers its own invitation; an administrator decides an application. The
// caller's check, the write, its notifications and the answer are one batch (a folded write).
export const answer = foldedHandler(r.answer, async (c, { write }) => {
  const { id } = c.req.valid('param');
  const { status } = c.req.valid('json');
  return c.json(await convites.respond(c.get('db'), write, c.get('regiao'), id, status, pushOf(c)), 200);
});

export const cancel = handler(r.cancel, async (c) => {
  await convites.cancel(c.get('db'), logCtx(c), c.get('regiao'), c.req.valid('param').id, pushOf(c));
  return c.body(null, 204);
});

export const confirm = handler(r.confirm, async (c) =>
  c.json(await convites.confirm(c.get('db'), logCtx(c), c.get('user'), c.req.valid('param').id), 200),
);

export const acknowledge = handler(r.acknowledge, async (c) =>
  c.json(await convites.acknowledge(c.get('db'), logCtx(c), c.get('user'), c.req.valid('param').id), 200),
);
