import type { RouteHandler } from '@hono/zod-openapi';
import { and, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { agenda, agendaEquipe, convites, profissionais, profissionalFuncoes } from '../../db/schema';
import type { AppEnv } from '../../env';
import { authorizedBatch, type Scope } from '../../middleware/auth';
import { inBackground } from '../../lib/background';
import { ApiError } from '../../lib/errors';
import { pageBounds, setTotal, type Page } from '../../lib/pagination';
import { readAgenda } from '../../services/agenda';
import { agendaVisible } from '../../services/agenda-policy';
import {
  acceptStatement,
  conviteOrder,
  refusalReason,
  selectConvites,
  toConviteResponse,
} from '../../services/convites';
import { enqueuePush, prepareNotifications, type NewNotification } from '../../services/notifications';
import { funcoesInRegion } from '../../services/profissionais';
import type * as r from './convites.routes';

const EQUIPE_ROWS_PER_STATEMENT = 20;

const eventNotFound = () => new ApiError('NOT_FOUND', 'agenda event not found');
const conviteNotFound = () => new ApiError('NOT_FOUND', 'invitation not found');

/** The event, if the caller may manage it (decisions D11: administrators, or its agenda_viewer creator). */
const managedEvent = (c: { var: AppEnv['Variables'] }, id: string, user: Scope = c.var.user) =>
  c.var.db
    .select({ id: agenda.id, userId: agenda.userId, dataEvento: agenda.dataEvento })
    .from(agenda)
    .where(agendaVisible(user, c.var.regiao, eq(agenda.id, id)));

/** Invitations of the professional profile linked to this user. */
const ownConvites = (user: Scope) =>
  sql`${convites.profissionalId} in (select ${profissionais.id} from ${profissionais} where ${profissionais.usuarioId} = ${user.id})`;

export const putEquipe: RouteHandler<typeof r.putEquipe, AppEnv> = async (c) => {
  const { db, regiao } = c.var;
  const { id } = c.req.valid('param');
  const items = c.req.valid('json');
  const ids = items.map((i) => i.funcao_id);
  const [[event], found] = await db.batch([managedEvent(c, id), funcoesInRegion(db, regiao, ids)]);
  if (!event) throw eventNotFound();
  const missing = ids.find((f) => !found.some((x) => x.id === f));
  if (missing) throw new ApiError('NOT_FOUND', `funcao_id: function ${missing} not found in region ${regiao}`);
  const writes: BatchItem<'sqlite'>[] = [db.delete(agendaEquipe).where(eq(agendaEquipe.agendaId, id))];
  // D1 binds at most 100 parameters per statement and a team row binds 5: at most 20 rows per insert.
  for (let i = 0; i < items.length; i += EQUIPE_ROWS_PER_STATEMENT) {
    const chunk = items.slice(i, i + EQUIPE_ROWS_PER_STATEMENT);
    writes.push(
      db
        .insert(agendaEquipe)
        .values(chunk.map((item) => ({ agendaId: id, funcaoId: item.funcao_id, quantidade: item.quantidade }))),
    );
  }
  const [view] = await readAgenda(db, eq(agenda.id, id), writes);
  return c.json(view!, 200);
};

export const invite: RouteHandler<typeof r.invite, AppEnv> = async (c) => {
  const { db, user, regiao } = c.var;
  const { id } = c.req.valid('param');
  const body = c.req.valid('json');
  const [[event], [prof]] = await db.batch([
    managedEvent(c, id),
    db
      .select({
        id: profissionais.id,
        usuarioId: profissionais.usuarioId,
        holds: sql<number>`exists (select 1 from ${profissionalFuncoes} where ${profissionalFuncoes.profissionalId} = ${profissionais.id} and ${profissionalFuncoes.funcaoId} = ${body.funcao_id})`,
      })
      .from(profissionais)
      .where(and(eq(profissionais.id, body.profissional_id), eq(profissionais.regiao, regiao))),
  ]);
  if (!event) throw eventNotFound();
  if (!prof) throw new ApiError('NOT_FOUND', `profissional_id: not found in region ${regiao}`);
  if (!prof.holds) throw new ApiError('VALIDATION_FAILED', 'funcao_id: the professional does not hold this function');
  const conviteId = crypto.randomUUID();
  const notes: NewNotification[] = prof.usuarioId
    ? [
        {
          userId: prof.usuarioId,
          tipo: 'convite_recebido',
          titulo: 'Novo convite',
          mensagem: `Você foi convidado para um evento em ${event.dataEvento}.`,
          dados: { convite_id: conviteId, agenda_id: id },
        },
      ]
    : [];
  const { insert, push } = prepareNotifications(db, notes);
  const view = selectConvites(db).where(eq(convites.id, conviteId));
  const results = await db.batch([
    db.insert(convites).values({
      id: conviteId,
      agendaId: id,
      profissionalId: prof.id,
      funcaoId: body.funcao_id,
      convidadoPor: user.id,
    }),
    ...insert,
    view,
  ] as unknown as [typeof view]);
  enqueuePush(c.env.PUSH_QUEUE, inBackground(c), push);
  return c.json(toConviteResponse((results.at(-1) as Awaited<typeof view>)[0]!), 201);
};

/** A page of invitations matching `where` and their total (the queries, to batch). */
function pageOfConvites(c: { var: AppEnv['Variables'] }, where: SQL | undefined, page: Page) {
  const { limit, offset } = pageBounds(page);
  return [
    selectConvites(c.var.db)
      .where(where)
      .orderBy(...conviteOrder)
      .limit(limit)
      .offset(offset),
    c.var.db.select({ n: count() }).from(convites).innerJoin(agenda, eq(agenda.id, convites.agendaId)).where(where),
  ] as const;
}

export const listForEvent: RouteHandler<typeof r.listForEvent, AppEnv> = async (c) => {
  const { id } = c.req.valid('param');
  const query = c.req.valid('query');
  const [[event], page, [n]] = await authorizedBatch(c, (user) => [
    managedEvent(c, id, user),
    ...pageOfConvites(c, eq(convites.agendaId, id), query),
  ]);
  if (!event) throw eventNotFound();
  setTotal(c, n?.n ?? 0);
  return c.json(page.map(toConviteResponse), 200);
};

export const listMine: RouteHandler<typeof r.listMine, AppEnv> = async (c) => {
  const { status, ...page } = c.req.valid('query');
  const [list, [n]] = await authorizedBatch(c, (user) =>
    pageOfConvites(c, and(ownConvites(user), status ? eq(convites.status, status) : undefined), page),
  );
  setTotal(c, n?.n ?? 0);
  return c.json(list.map(toConviteResponse), 200);
};

export const answer: RouteHandler<typeof r.answer, AppEnv> = async (c) => {
  const { db, user } = c.var;
  const { id } = c.req.valid('param');
  const { status } = c.req.valid('json');
  const [current] = await db
    .select({
      status: convites.status,
      convidadoPor: convites.convidadoPor,
      agendaId: convites.agendaId,
      creator: agenda.userId,
      dataEvento: agenda.dataEvento,
    })
    .from(convites)
    .innerJoin(agenda, eq(agenda.id, convites.agendaId))
    .where(and(eq(convites.id, id), ownConvites(user)));
  if (!current) throw conviteNotFound();
  const view = selectConvites(db).where(eq(convites.id, id));
  if (current.status === status) return c.json(toConviteResponse((await view)[0]!), 200);

  const now = new Date().toISOString();
  const recipients = [...new Set([current.convidadoPor, current.creator])].filter(
    (u): u is string => !!u && u !== user.id,
  );
  const notes: NewNotification[] = recipients.map((userId) => ({
    userId,
    tipo: 'convite_respondido',
    titulo: status === 'aceito' ? 'Convite aceito' : 'Convite recusado',
    mensagem: `Um profissional ${status === 'aceito' ? 'aceitou' : 'recusou'} o convite para o evento de ${current.dataEvento}.`,
    dados: { convite_id: id, agenda_id: current.agendaId, status },
  }));
  const write =
    status === 'aceito'
      ? acceptStatement(db, id, now)
      : db
          .update(convites)
          .set({ status: 'recusado', respondidoEm: now, updatedAt: now })
          .where(and(eq(convites.id, id), inArray(convites.status, ['pendente', 'aceito'])));
  // Notifications are written only if this very answer was (the acceptance may be refused).
  const { insert, push } = prepareNotifications(db, notes, {
    when: sql`exists (select 1 from ${convites} where ${convites.id} = ${id} and ${convites.status} = ${status} and ${convites.respondidoEm} = ${now})`,
  });
  const results = await db.batch([write, ...insert, view] as unknown as [typeof write, typeof view]);
  if ((results[0] as { meta: { changes: number } }).meta.changes === 0) {
    const reason = status === 'aceito' ? await refusalReason(db, id) : undefined;
    if (reason === 'QUOTA_FULL') throw new ApiError('QUOTA_FULL', 'the team quota of this function is already filled');
    if (reason === 'DOUBLE_BOOKED')
      throw new ApiError('DOUBLE_BOOKED', 'you already accepted another event on this date');
    throw new ApiError('CONFLICT', 'the invitation changed meanwhile: read it again');
  }
  enqueuePush(c.env.PUSH_QUEUE, inBackground(c), push);
  return c.json(toConviteResponse((results.at(-1) as Awaited<typeof view>)[0]!), 200);
};

export const cancel: RouteHandler<typeof r.cancel, AppEnv> = async (c) => {
  const { db, regiao } = c.var;
  const { id } = c.req.valid('param');
  const [current] = await db
    .select({ usuarioId: profissionais.usuarioId, agendaId: convites.agendaId, dataEvento: agenda.dataEvento })
    .from(convites)
    .innerJoin(agenda, eq(agenda.id, convites.agendaId))
    .innerJoin(profissionais, eq(profissionais.id, convites.profissionalId))
    .where(and(eq(convites.id, id), eq(agenda.regiao, regiao)));
  if (!current) throw conviteNotFound();
  const notes: NewNotification[] = current.usuarioId
    ? [
        {
          userId: current.usuarioId,
          tipo: 'convite_cancelado',
          titulo: 'Convite cancelado',
          mensagem: `Seu convite para o evento de ${current.dataEvento} foi cancelado.`,
          dados: { convite_id: id, agenda_id: current.agendaId },
        },
      ]
    : [];
  const { insert, push } = prepareNotifications(db, notes);
  await db.batch([db.delete(convites).where(eq(convites.id, id)), ...insert]);
  enqueuePush(c.env.PUSH_QUEUE, inBackground(c), push);
  return c.body(null, 204);
};
