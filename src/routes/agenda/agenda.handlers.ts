import type { RouteHandler } from '@hono/zod-openapi';
import { eq } from 'drizzle-orm';
import { agenda, cadastroFot, tiposEventos } from '../../db/schema';
import { wireToRow } from '../../db/wire';
import type { AppEnv } from '../../env';
import { ApiError } from '../../lib/errors';
import { agendaVisible } from '../../services/agenda-policy';
import { inBackground } from '../../lib/background';
import {
  agendaExists,
  agendaNotifications,
  agendaRecipients,
  prepareAgendaNotifications,
} from '../../services/agenda-notify';
import { enqueuePush, prepareNotifications } from '../../services/notifications';
import { agendaByIdSelects, agendaListSelects, joinTeams, readAgenda } from '../../services/agenda';
import { authorizedBatch } from '../../middleware/auth';
import { setTotal, totalOf } from '../../lib/pagination';
import { assertRefsInRegion } from '../../services/references';
import type { AgendaInput } from './agenda.schemas';
import type * as r from './agenda.routes';

const notFound = () => new ApiError('NOT_FOUND', 'agenda event not found');

const refs = (b: AgendaInput) => [
  { field: 'fot_id', table: cadastroFot, id: b.fot_id },
  { field: 'tipo_evento_id', table: tiposEventos, id: b.tipo_evento_id },
];

export const list: RouteHandler<typeof r.list, AppEnv> = async (c) => {
  const { db, regiao } = c.var;
  const { de, ate, fot_id, ...page } = c.req.valid('query');
  const [rows, teams, counted] = await authorizedBatch(c, (user) =>
    agendaListSelects(db, user, regiao, { de, ate, fot_id }, page),
  );
  setTotal(c, totalOf(counted, rows.length));
  return c.json(joinTeams(rows, teams), 200);
};

export const get: RouteHandler<typeof r.get, AppEnv> = async (c) => {
  const { db, regiao } = c.var;
  const { id } = c.req.valid('param');
  const [rows, teams] = await authorizedBatch(c, (user) => agendaByIdSelects(db, user, regiao, id));
  const [event] = joinTeams(rows, teams);
  if (!event) throw notFound();
  return c.json(event, 200);
};

export const create: RouteHandler<typeof r.create, AppEnv> = async (c) => {
  const { db, user, regiao } = c.var;
  const body = c.req.valid('json');
  const id = crypto.randomUUID();
  // Who to notify is found in the reference check's query: no round trip of its own (decisions D10).
  const found = await assertRefsInRegion(db, regiao, refs(body), agendaRecipients(user.id, { id, fotId: body.fot_id }));
  const notes = prepareNotifications(
    db,
    agendaNotifications('agenda_criada', { id, dataEvento: body.data_evento }, found),
  );
  const values = { ...wireToRow(agenda, body), id, regiao, userId: user.id } as typeof agenda.$inferInsert;
  const [event] = await readAgenda(db, eq(agenda.id, id), [db.insert(agenda).values(values), ...notes.insert]);
  enqueuePush(c.env.PUSH_QUEUE, inBackground(c), notes.push);
  return c.json(event!, 201);
};

export const update: RouteHandler<typeof r.update, AppEnv> = async (c) => {
  const { db, user, regiao } = c.var;
  const { id } = c.req.valid('param');
  const body = c.req.valid('json');
  const where = agendaVisible(user, regiao, eq(agenda.id, id));
  const found = await assertRefsInRegion(db, regiao, refs(body), agendaRecipients(user.id, { id, fotId: body.fot_id }));
  // Written only if the update finds the event (the guard runs in the batch).
  const notes = prepareNotifications(
    db,
    agendaNotifications('agenda_alterada', { id, dataEvento: body.data_evento }, found),
    { when: agendaExists(where) },
  );
  // id, regiao and user_id are not request fields, so a body cannot move an event.
  const set = { ...wireToRow(agenda, body), updatedAt: new Date().toISOString() };
  const [event] = await readAgenda(db, where, [db.update(agenda).set(set).where(where), ...notes.insert]);
  if (!event) throw notFound();
  enqueuePush(c.env.PUSH_QUEUE, inBackground(c), notes.push);
  return c.json(event, 200);
};

export const remove: RouteHandler<typeof r.remove, AppEnv> = async (c) => {
  const { db, user, regiao } = c.var;
  const { id } = c.req.valid('param');
  const where = agendaVisible(user, regiao, eq(agenda.id, id));
  // Recipients before the delete (it takes the team with it); written only if the delete happens.
  const notes = await prepareAgendaNotifications(db, 'agenda_excluida', user.id, { id }, where);
  const del = db.delete(agenda).where(where);
  const results = await db.batch([...notes.insert, del] as unknown as [typeof del]);
  if ((results.at(-1) as Awaited<typeof del>).meta.changes === 0) throw notFound();
  enqueuePush(c.env.PUSH_QUEUE, inBackground(c), notes.push);
  return c.body(null, 204);
};
