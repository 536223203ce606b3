import {
  and,
  asc,
  count,
  desc,
  eq,
  getTableColumns,
  inArray,
  notInArray,
  sql,
  type Placeholder,
  type SQL,
} from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { Db } from '../../db/client';
import {
  agenda,
  agendaEquipe,
  agendaLogistica,
  convites,
  funcoes,
  notifications,
  profissionais,
  profissionalFuncoes,
  tiposEventos,
  type AuthUser,
  type NotificationRow,
} from '../../db/schema';
import type { Author, AuthoredWrite, GuardShape } from '../../db/authored';
import {
  cachedBatch,
  returned,
  rows,
  run,
  runEach,
  type Placeholders,
  type Ready,
  type Results,
  type Statements,
} from '../../db/cached-batch';
import type { Scope } from '../../db/scope';
import { writeThenRead } from '../../db/write-read';
import { feeOnAccept, feeOnCancel } from '../money/financeiro';
import { ApiError } from '../../lib/errors';
import { isAdmin } from '../../lib/permissions';
import { pageBounds, whenPaged, type Page } from '../../lib/pagination';
import { oneAgenda, readAgenda, visible as agendaVisible } from '../agenda/agenda';
import {
  notifiedPush,
  notifyFromRow,
  prepareNotifications,
  type NewNotification,
  type Push,
} from '../core/notifications';
import { acceptedOverlap } from './time-window';
import { funcoesInRegion, listedProfile } from '../professionals/profissionais';
import {
  created,
  deleted,
  logRowWrite,
  logStatement,
  WRITE_PARAMS,
  writerOf,
  writeValues,
  type LogCtx,
  type LogSource,
} from '../core/activity-log';

/** An invitation's columns but its kept copy of the event's date (db/kept-columns.ts): the joined event's own answers under that name. */
const { dataEvento: _keptDate, ...conviteColumns } = getTableColumns(convites);

/** Invitations with the professional's, function's and event's names: one query. */
export const selectConvites = (db: Db) =>
  db
    .select({
      c: conviteColumns,
      profissionalNome: sql<string>`${profissionais.nome}`.as('profissional_nome'),
      funcaoNome: sql<string>`${funcoes.label}`.as('funcao_nome'),
      regiao: agenda.regiao,
      dataEvento: agenda.dataEvento,
      horario: agenda.horario,
      horarioFim: agenda.horarioFim,
      localEvento: agenda.localEvento,
      tipoEventoNome: sql<string>`${tiposEventos.label}`.as('tipo_evento_nome'),
    })
    .from(convites)
    .innerJoin(profissionais, eq(profissionais.id, convites.profissionalId))
    .innerJoin(funcoes, eq(funcoes.id, convites.funcaoId))
    .innerJoin(agenda, eq(agenda.id, convites.agendaId))
    .innerJoin(tiposEventos, eq(tiposEventos.id, agenda.tipoEventoId));

export const conviteOrder = [asc(agenda.dataEvento), asc(agenda.horario), desc(convites.createdAt), asc(convites.id)];

export type ConviteView = Awaited<ReturnType<typeof selectConvites>>[number];

export function toConviteResponse(v: ConviteView) {
  return {
    id: v.c.id,
    agenda_id: v.c.agendaId,
    profissional_id: v.c.profissionalId,
    profissional_nome: v.profissionalNome,
    funcao_id: v.c.funcaoId,
    funcao_nome: v.funcaoNome,
    status: v.c.status,
    origem: v.c.origem,
    convidado_por: v.c.convidadoPor,
    respondido_em: v.c.respondidoEm,
    confirmado_em: v.c.confirmadoEm,
    ciente_versao: v.c.cienteVersao,
    created_at: v.c.createdAt,
    updated_at: v.c.updatedAt,
    evento: {
      regiao: v.regiao,
      data_evento: v.dataEvento,
      horario: v.horario,
      horario_fim: v.horarioFim,
      local_evento: v.localEvento,
      tipo_evento_nome: v.tipoEventoNome,
    },
  };
}

// The outer row of the guarded UPDATE, named explicitly: inside the subqueries an unqualified
// column would bind to the subquery's own table.
const outer = {
  agendaId: sql.raw('"convites"."agenda_id"'),
  funcaoId: sql.raw('"convites"."funcao_id"'),
  profissionalId: sql.raw('"convites"."profissional_id"'),
};

/** The function's quota of the event is not yet filled (no quota set = no limit). */
export const quotaOpenFor = (agendaId: SQL, funcaoId: SQL) => sql`(
  not exists (select 1 from agenda_equipe e where e.agenda_id = ${agendaId} and e.funcao_id = ${funcaoId})
  or (select count(*) from convites c2 where c2.agenda_id = ${agendaId} and c2.funcao_id = ${funcaoId} and c2.status = 'aceito')
     < (select e.quantidade from agenda_equipe e where e.agenda_id = ${agendaId} and e.funcao_id = ${funcaoId})
)`;

/** The outer invitation's function still has a place. */
export const quotaOpen = quotaOpenFor(outer.agendaId, outer.funcaoId);

/** The outer invitation's professional is accepted on no other event whose time window overlaps (services/teams/time-window.ts). */
export const notDoubleBooked = sql`not ${acceptedOverlap(outer.profissionalId, outer.agendaId)}`;

/** An invitation's region, for its entries: its event's. */
const conviteRegiao = sql`(select ${agenda.regiao} from ${agenda} where ${agenda.id} = ${convites.agendaId})`;

/** Why an acceptance of the invitation `id` would be refused, as a read to batch BEFORE the guarded statement. */
const reasonRead = (db: Db, id: string) =>
  db
    .select({ quotaOpen: sql<number>`${quotaOpen}`, free: sql<number>`${notDoubleBooked}` })
    .from(convites)
    .where(eq(convites.id, id));

type Reason = { quotaOpen: number; free: number } | undefined;

/**
 * Why a refused acceptance was refused, read after it (one more round trip, on that path only: the
 * accepted path does not pay for the rule twice). The state it reads is the one that refused it or a
 * later one; when the rule now holds, the caller answers that the invitation changed meanwhile.
 */
const refusalReason = async (db: Db, id: string): Promise<Reason> => (await reasonRead(db, id))[0];

/** The 409 of a refused acceptance, from the reason read in its batch; undefined when it was not refused by the rule. */
export function refusal(r: Reason) {
  if (r && !r.free)
    return new ApiError('DOUBLE_BOOKED', 'o profissional já está aceito em outro evento em horário sobreposto');
  if (r && !r.quotaOpen) return new ApiError('QUOTA_FULL', 'a cota desta função no evento já está preenchida');
  return undefined;
}

/**
 * THE way an invitation becomes `aceito`: every path goes through here (the professional's accept,
 * an application accepted at once, an administrator's approval of `solicitado`, the waiting-list
 * promotion). One guarded UPDATE: the row chosen by `where`, in one of the `from` statuses, while the
 * function's quota is open and the professional is not double-booked (time window). SQLite runs
 * writes one at a time, so of N racing for the last place exactly one UPDATE sees the quota open.
 * Anything else that must happen exactly when an invitation becomes `aceito` (for instance a fee
 * entry) belongs in the writes returned here, guarded by the same condition, before the update.
 * Answers the writes to put in the caller's batch, by name in batch order: the activity-log entry,
 * the guarded `update` (its `changes` say whether it accepted), then its fee.
 */
export function acceptStatements(
  db: Db,
  log: LogSource,
  o: {
    where: SQL;
    from: ConviteStatus[];
    /** This request's instant (a placeholder's SQL in a cached batch). */
    now: string | SQL;
    acao: string;
    set?: Partial<typeof convites.$inferInsert>;
    /** The invitation this accepts, as the batch finds it after the update (an id, or SQL). */
    conviteId: string | SQL | Placeholder;
    /** Its fee's id (a placeholder in a cached batch). */
    feeId?: string | Placeholder;
  },
) {
  const guard = and(o.where, inArray(convites.status, o.from), quotaOpen, notDoubleBooked)!;
  return {
    guard,
    writes: {
      // Before the guarded update, under the same guard: written exactly when the acceptance is.
      log: logRowWrite(db, log, convites, guard, {
        acao: o.acao,
        entidade: 'convites',
        regiao: conviteRegiao,
        dados: { status: { antes: convites.status, depois: 'aceito' } },
      }),
      update: db
        .update(convites)
        .set({ status: 'aceito', respondidoEm: o.now, updatedAt: o.now, ...o.set })
        .where(guard),
      // Its fee (docs/decisions.md#d18-finance), only if THIS acceptance happened (respondido_em = now).
      ...feeOnAccept(db, log, o.conviteId, o.now, o.feeId),
    },
  };
}

/**
 * THE statements to add to any batch in which an accepted invitation of (event, function) stops
 * being accepted (the professional declines, an administrator cancels): the oldest `espera`
 * invitation of that function whose professional would not be double-booked becomes `aceito`
 * through acceptStatements, and is notified. The choice is made by SQL inside the batch, so two
 * releases at once promote two different people. `notified` (to put after the writes) inserts the
 * promoted professional's notification and returns it, for the push message. The event and function may be SQL
 * read from the released invitation in the batch (null: nothing was released, nobody is promoted).
 */
export function releaseStatements(
  db: Db,
  log: LogSource,
  agendaId: string | SQL,
  funcaoId: string | SQL,
  now: string | SQL,
  /** This promotion's marker and its fee's id (placeholders in a cached batch). */
  ids: { promocaoId: string | Placeholder; feeId?: string | Placeholder } = { promocaoId: crypto.randomUUID() },
) {
  const { promocaoId } = ids;
  const next = sql`(select w.id from convites w
    where w.agenda_id = ${agendaId} and w.funcao_id = ${funcaoId} and w.status = 'espera'
      and not ${acceptedOverlap(sql.raw('w.profissional_id'), sql.raw('w.agenda_id'))}
    order by w.created_at, w.id limit 1)`;
  const { writes } = acceptStatements(db, log, {
    where: sql`${convites.id} = ${next}`,
    from: ['espera'],
    now,
    acao: 'convites.promote',
    set: { promocaoId: promocaoId as string },
    conviteId: sql`(select ${convites.id} from ${convites} where ${convites.promocaoId} = ${promocaoId})`,
    feeId: ids.feeId,
  });
  // The notification of whoever was promoted, found by this promotion's own id; its push messages
  // come from the rows the insert returns (`notified`, the caller puts it in the batch after `writes`).
  const notes = notifyFromRow(
    db,
    {
      to: [profissionais.usuarioId],
      tipo: 'convite_promovido',
      titulo: 'Vaga confirmada',
      mensagem: sql`${'Abriu uma vaga e você saiu da lista de espera: sua participação no evento está confirmada.'}`,
      dados: sql`json_object('convite_id', ${convites.id}, 'agenda_id', ${convites.agendaId})`,
    },
    {
      from: sql`from ${convites} join ${profissionais} on ${profissionais.id} = ${convites.profissionalId}`,
      where: eq(convites.promocaoId, promocaoId),
      now,
    },
  );
  return { writes, notified: notes.insert, push: notes.push };
}

// Teams and invitations (docs/decisions.md#d11): the writes, their notifications and visibility.

const EQUIPE_ROWS_PER_STATEMENT = 14;

const eventNotFound = () => new ApiError('NOT_FOUND', 'evento não encontrado');
const conviteNotFound = () => new ApiError('NOT_FOUND', 'convite não encontrado');

/** The event, if the caller may manage it (administrators, or its agenda_viewer creator). */
const managedEvent = (db: Db, scope: Scope, regiao: string, id: string) =>
  db
    .select({ id: agenda.id, userId: agenda.userId, dataEvento: agenda.dataEvento })
    .from(agenda)
    .where(agendaVisible(scope, regiao, eq(agenda.id, id)));

/** Invitations of the professional profile linked to this user: a professional's visibility rule. */
const ownConvites = (usuario: string | Placeholder) =>
  sql`${convites.profissionalId} in (select ${profissionais.id} from ${profissionais} where ${profissionais.usuarioId} = ${usuario})`;

const oneConvite = (rows: ConviteView[]) => {
  if (!rows[0]) throw conviteNotFound();
  return toConviteResponse(rows[0]);
};

export interface EquipeInput {
  funcao_id: string;
  quantidade: number;
  publicar?: boolean;
  requer_aprovacao?: boolean;
}

/** Replaces the event's quota per function, and answers the event with its team. */
export async function setEquipe(db: Db, log: LogCtx, user: AuthUser, regiao: string, id: string, items: EquipeInput[]) {
  const ids = items.map((i) => i.funcao_id);
  const [[event], found] = await db.batch([managedEvent(db, user, regiao, id), funcoesInRegion(db, regiao, ids)]);
  if (!event) throw eventNotFound();
  const missing = ids.find((f) => !found.some((x) => x.id === f));
  if (missing) throw new ApiError('NOT_FOUND', `funcao_id: função ${missing} não encontrada na região ${regiao}`);
  // The quota as it was, read by the entry's own statement before the delete.
  const antes = sql`json((select json_group_array(json_object('funcao_id', ${agendaEquipe.funcaoId}, 'quantidade', ${agendaEquipe.quantidade}, 'publicar', json(iif(${agendaEquipe.publicar}, 'true', 'false')), 'requer_aprovacao', json(iif(${agendaEquipe.requerAprovacao}, 'true', 'false')))) from ${agendaEquipe} where ${agendaEquipe.agendaId} = ${id}))`;
  const writes: BatchItem<'sqlite'>[] = [
    logStatement(db, log, {
      acao: 'agenda.equipe',
      entidade: 'agenda',
      entidadeId: id,
      regiao,
      dados: { equipe: { antes, depois: items } },
    }),
    // The functions the new team leaves out go; the others are updated in place (below), so their
    // kept counts (drizzle/0018, 0027) stand and only a new function's row counts its invitations.
    db
      .delete(agendaEquipe)
      .where(and(eq(agendaEquipe.agendaId, id), ids.length ? notInArray(agendaEquipe.funcaoId, ids) : undefined)),
  ];
  const now = new Date().toISOString();
  // D1 binds at most 100 parameters per statement and a team row binds 7: at most 14 rows per insert.
  for (let i = 0; i < items.length; i += EQUIPE_ROWS_PER_STATEMENT) {
    const chunk = items.slice(i, i + EQUIPE_ROWS_PER_STATEMENT);
    writes.push(
      db
        .insert(agendaEquipe)
        .values(
          chunk.map((item) => ({
            agendaId: id,
            funcaoId: item.funcao_id,
            quantidade: item.quantidade,
            publicar: item.publicar ?? false,
            requerAprovacao: item.requer_aprovacao ?? false,
            createdAt: now,
            updatedAt: now,
          })),
        )
        .onConflictDoUpdate({
          target: [agendaEquipe.agendaId, agendaEquipe.funcaoId],
          set: {
            quantidade: sql`excluded.${sql.identifier('quantidade')}`,
            publicar: sql`excluded.${sql.identifier('publicar')}`,
            requerAprovacao: sql`excluded.${sql.identifier('requer_aprovacao')}`,
            updatedAt: sql`excluded.${sql.identifier('updated_at')}`,
          },
        }),
    );
  }
  return oneAgenda(await readAgenda(db, eq(agenda.id, id), writes));
}

export async function invite(
  db: Db,
  log: LogCtx,
  user: AuthUser,
  regiao: string,
  id: string,
  body: { profissional_id: string; funcao_id: string },
  push: Push,
) {
  const [[event], [prof]] = await db.batch([
    managedEvent(db, user, regiao, id),
    db
      .select({
        id: profissionais.id,
        usuarioId: profissionais.usuarioId,
        holds: sql<number>`exists (select 1 from ${profissionalFuncoes} where ${profissionalFuncoes.profissionalId} = ${profissionais.id} and ${profissionalFuncoes.funcaoId} = ${body.funcao_id})`,
      })
      .from(profissionais)
      // A pending account's profile cannot be invited (listedProfile): 404 as if absent.
      .where(and(eq(profissionais.id, body.profissional_id), eq(profissionais.regiao, regiao), listedProfile)),
  ]);
  if (!event) throw eventNotFound();
  if (!prof) throw new ApiError('NOT_FOUND', `profissional_id: profissional não encontrado na região ${regiao}`);
  if (!prof.holds) throw new ApiError('VALIDATION_FAILED', 'funcao_id: o profissional não exerce esta função');
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
  const { insert, push: messages } = prepareNotifications(db, notes);
  const row = { id: conviteId, agendaId: id, profissionalId: prof.id, funcaoId: body.funcao_id, convidadoPor: user.id };
  const [view] = await writeThenRead(
    db,
    [
      db.insert(convites).values(row),
      logStatement(db, log, {
        acao: 'convites.create',
        entidade: 'convites',
        entidadeId: conviteId,
        regiao,
        dados: created(convites, row),
      }),
      ...insert,
    ],
    [selectConvites(db).where(eq(convites.id, conviteId))],
  );
  push(messages);
  return oneConvite(view);
}

/**
 * A page of invitations matching `where` and, when paged, their total (the queries, to batch). A
 * whole list is its own total (totalOf; docs/api-conventions.md, "Offset lists").
 */
function pageOfConvites(db: Db, where: SQL | undefined, page: Page) {
  const { limit, offset } = pageBounds(page);
  return [
    selectConvites(db)
      .where(where)
      .orderBy(...conviteOrder)
      .limit(limit)
      .offset(offset),
    ...whenPaged(
      page,
      db.select({ n: count() }).from(convites).innerJoin(agenda, eq(agenda.id, convites.agendaId)).where(where),
    ),
  ] as const;
}

/** An event's invitations (for those who manage it): the event, the page, its total when paged. */
export const eventConvitesSelects = (db: Db, scope: Scope, regiao: string, id: string, page: Page) =>
  [managedEvent(db, scope, regiao, id), ...pageOfConvites(db, eq(convites.agendaId, id), page)] as const;

export function eventConvites(event: unknown[], rows: ConviteView[]) {
  if (!event[0]) throw eventNotFound();
  return rows.map(toConviteResponse);
}

/** The caller's own invitations, optionally of one status: the page and its total when paged. */
export const myConvitesSelects = (db: Db, scope: Scope, status: ConviteStatus | undefined, page: Page) =>
  pageOfConvites(db, and(ownConvites(scope.id), status ? eq(convites.status, status) : undefined), page);

type ConviteStatus = (typeof convites.$inferSelect)['status'];

/** Invitation `id` of an event of the region, with its event and professional (the one read of cancel). */
const targetSelect = (db: Db, id: string, regiao: string) =>
  db
    .select({
      agendaId: convites.agendaId,
      funcaoId: convites.funcaoId,
      dataEvento: agenda.dataEvento,
      usuarioId: profissionais.usuarioId,
    })
    .from(convites)
    .innerJoin(agenda, eq(agenda.id, convites.agendaId))
    .innerJoin(profissionais, eq(profissionais.id, convites.profissionalId))
    .where(and(eq(convites.id, id), eq(agenda.regiao, regiao)));

type Answer = 'aceito' | 'recusado';

/**
 * How one caller's `PATCH /api/convites/{id}` is written and answered: its statements, by name (the
 * guarded `update`, its log entry, fee, notifications, promotion, the `view` read back last) and,
 * from their results, the answer or the refusal.
 */
interface AnswerPlan {
  statements: Statements;
  settle(results: Results<Statements>, db: Db, push: Push): Promise<ReturnType<typeof toConviteResponse>>;
}
/** Every answer's batch: a guarded `update`, whose changes prove the author (db/authored.ts), and the invitation read back as `view`. */
type AnswerStatements = Statements & { update: Ready<{ changes: number }>; view: Ready<ConviteView[]> };
const answerPlan = <B extends AnswerStatements>(
  statements: B,
  settle: (results: Results<B>, db: Db, push: Push) => Promise<ReturnType<typeof toConviteResponse>>,
): AnswerPlan => ({ statements, settle: settle as AnswerPlan['settle'] });

/**
 * The invitation `id` with its event (and `more` joins), answered `status` by THIS request (its own
 * row carries the marker): the row its notifications are written from (notifyFromRow).
 */
const answeredRow = (id: string | Placeholder, status: Answer, now: string | SQL, more: SQL = sql``) => ({
  from: sql`from ${convites} join ${agenda} on ${agenda.id} = ${convites.agendaId} ${more}`,
  where: and(eq(convites.id, id), eq(convites.status, status), eq(convites.respondidoEm, now))!,
});

const dadosOf = (status: Answer) =>
  sql`json_object('convite_id', ${convites.id}, 'agenda_id', ${convites.agendaId}, 'status', ${status})`;

/**
 * `PATCH /api/convites/{id}` in ONE round trip (a folded write, db/authored.ts): the caller's check,
 * the guarded update, its log entry, fee, notifications (written by SQL from the invitation) and
 * the read-back are one batch; nothing is read before it. A professional answers its own invitation
 * (professionalPlan, a cached batch), an administrator decides an application of the region
 * (decidePlan), by the role the batch is built for. A refusal is explained from the invitation as
 * the same batch read it; only a refusal by the acceptance rule (quota, time window) costs a second
 * round trip (refusalReason).
 */
export async function respond(db: Db, write: AuthoredWrite, regiao: string, id: string, status: Answer, push: Push) {
  const now = new Date().toISOString();
  // The plan of the batch that answered (a token whose role changed is built again for the stored user).
  let plan!: AnswerPlan;
  const results = await write(
    (author) => {
      plan = isAdmin(author.scope.role)
        ? decidePlan(db, author, regiao, id, status, now)
        : professionalPlan(db, author, id, status, now);
      return plan.statements;
    },
    (results) => (results as Results<AnswerStatements>).update.changes > 0,
  );
  return plan.settle(results, db, push);
}

/** The invitation the batch read back (none: not the caller's, 404). */
function viewOf(results: { view: ConviteView[] }) {
  const [view] = results.view;
  if (!view) throw conviteNotFound();
  return view;
}

/**
 * The professional's answers, each a batch built once per author check (db/cached-batch.ts): the
 * hot write of a professional's day, whose statements drizzle would otherwise build on every
 * request. Every value of the request is a placeholder: the author check's and the log entries'
 * (WRITE_PARAMS), the invitation, the time, the caller (`usuario`) and the answer's new ids.
 */
const ANSWER_PARAMS = [...WRITE_PARAMS, 'id', 'now', 'usuario', 'fee_id'] as const;
type AnswerShape = { author: GuardShape };

/**
 * What every answer of the professional writes and reads besides its update: the invitation as its
 * own (`mine`, under the author check), the notification of the inviter and the event's creator
 * (once each, never the professional itself), and the read-back (the professional the view joins
 * is the caller's).
 */
function answerParts(db: Db, s: AnswerShape, p: Placeholders<(typeof ANSWER_PARAMS)[number]>, status: Answer) {
  const { guard, log } = writerOf(db, s.author, p);
  const now = sql`${p.now}`;
  const verb = status === 'aceito' ? 'aceitou' : 'recusou';
  const notes = notifyFromRow(
    db,
    {
      to: [convites.convidadoPor, agenda.userId],
      tipo: 'convite_respondido',
      titulo: status === 'aceito' ? 'Convite aceito' : 'Convite recusado',
      mensagem: sql`${`Um profissional ${verb} o convite para o evento de `} || ${agenda.dataEvento} || '.'`,
      dados: dadosOf(status),
    },
    { ...answeredRow(p.id, status, now), except: p.usuario, now },
  );
  return {
    log,
    now,
    mine: and(eq(convites.id, p.id), ownConvites(p.usuario), guard)!,
    notes: returned(notifications, notes.insert),
    view: rows(selectConvites(db).where(and(eq(convites.id, p.id), eq(profissionais.usuarioId, p.usuario)))),
  };
}

/**
 * The professional's acceptance: the guarded update with its log entry and fee (acceptStatements),
 * the notification, the read-back last. A declined application stays declined: only an invitation
 * can be accepted again.
 */
export const acceptBatch = cachedBatch({
  params: ANSWER_PARAMS,
  build: (db, s: AnswerShape, p) => {
    const a = answerParts(db, s, p, 'aceito');
    const accept = acceptStatements(db, a.log, {
      where: and(a.mine, sql`(${convites.status} = 'pendente' or ${convites.origem} = 'convite')`)!,
      from: ['pendente', 'recusado'],
      now: a.now,
      acao: 'convites.accept',
      conviteId: p.id,
      feeId: p.fee_id,
    });
    return { ...runEach(accept.writes), notes: a.notes, view: a.view };
  },
});

/**
 * The professional declines (or withdraws an application): its log entry, its fee cancelled if it
 * was accepted, the guarded update, the notification, the waiting list's promotion
 * (releaseStatements, its fee and notification), the read-back last.
 */
export const declineBatch = cachedBatch({
  params: [...ANSWER_PARAMS, 'promocao_id'],
  build: (db, s: AnswerShape, p) => {
    const status = 'recusado';
    const a = answerParts(db, s, p, status);
    const where = and(a.mine, inArray(convites.status, ['pendente', 'aceito', 'solicitado', 'espera']))!;
    // Its fee, if accepted and still previsto, is cancelled before the decline (docs/decisions.md#d18-finance).
    const cancelled = feeOnCancel(
      db,
      a.log,
      p.id,
      sql`exists (select 1 from ${convites} where ${where} and ${convites.status} = 'aceito')`,
      a.now,
    );
    // The place it frees: the invitation's event and function, read by SQL from its row only if THIS
    // decline happened (its marker), else null and nobody is promoted.
    const released = (col: string) =>
      sql`(select x.${sql.raw(col)} from ${convites} x where x.id = ${p.id} and x.status = ${status} and x.respondido_em = ${a.now})`;
    const release = releaseStatements(db, a.log, released('agenda_id'), released('funcao_id'), a.now, {
      promocaoId: p.promocao_id,
      feeId: p.fee_id,
    });
    return {
      log: run(
        logRowWrite(db, a.log, convites, where, {
          acao: 'convites.decline',
          entidade: 'convites',
          regiao: conviteRegiao,
          dados: { status: { antes: convites.status, depois: status } },
        }),
      ),
      ...runEach(cancelled, 'cancelled'),
      // Declining withdraws a presence confirmed before (D16): a later acceptance must confirm again.
      update: run(
        db.update(convites).set({ status, respondidoEm: a.now, updatedAt: a.now, confirmadoEm: null }).where(where),
      ),
      notes: a.notes,
      ...runEach(release.writes, 'promoted'),
      promotedNotes: returned(notifications, release.notified),
      view: a.view,
    };
  },
});

/**
 * The invited professional accepts or refuses; the inviter and the event's creator are told. It may
 * accept a `pendente` invitation, or again one it declined itself (`recusado` of origin `convite`);
 * it may decline a `pendente`, `aceito`, `solicitado` or `espera` one (withdrawing an application).
 * Answering the status it already has changes nothing (the invitation is answered as it is). A
 * decline frees its place: the waiting list is promoted in the same batch (releaseStatements).
 */
function professionalPlan(db: Db, author: Author, id: string, status: Answer, now: string): AnswerPlan {
  const shape = { author: author.cached.shape };
  const values = { id, now, usuario: author.scope.id, fee_id: crypto.randomUUID() };
  if (status === 'aceito')
    return answerPlan(acceptBatch.bind(db, shape, writeValues(author, values)), async (results, db, push) => {
      const view = viewOf(results);
      if (results.update.changes > 0) {
        push(notifiedPush(results.notes));
        return toConviteResponse(view);
      }
      const { status: state, origem } = view.c;
      if (state === 'aceito') return toConviteResponse(view);
      if (state === 'solicitado' || state === 'espera')
        throw new ApiError(
          'INVALID_STATE',
          'esta candidatura aguarda o administrador ou uma vaga: não pode ser aceita',
        );
      if (state === 'recusado' && origem === 'candidatura')
        throw new ApiError('INVALID_STATE', 'uma candidatura recusada não pode ser aceita: candidate-se a outra vaga');
      throw (
        refusal(await refusalReason(db, id)) ??
        new ApiError('CONFLICT', 'o convite mudou enquanto isso: leia-o de novo')
      );
    });

  const statements = declineBatch.bind(db, shape, writeValues(author, { ...values, promocao_id: crypto.randomUUID() }));
  return answerPlan(statements, async (results, _db, push) => {
    const view = viewOf(results);
    if (results.update.changes > 0) {
      push([...notifiedPush(results.notes), ...notifiedPush(results.promotedNotes)]);
      return toConviteResponse(view);
    }
    if (view.c.status === status) return toConviteResponse(view);
    throw new ApiError('CONFLICT', 'o convite mudou enquanto isso: leia-o de novo');
  });
}

/**
 * An administrator of the event's region decides an application waiting for approval
 * (`solicitado`): `aceito` through the same guarded rule as every acceptance, or `recusado`.
 * Any other state is 409 INVALID_STATE. The professional is told.
 */
function decidePlan(db: Db, author: Author, regiao: string, id: string, status: Answer, now: string): AnswerPlan {
  const inRegion = and(eq(convites.id, id), sql`${conviteRegiao} = ${regiao}`, author.guard)!;
  const aprovada = status === 'aceito';
  const notes = notifyFromRow(
    db,
    {
      to: [profissionais.usuarioId],
      tipo: aprovada ? 'candidatura_aprovada' : 'candidatura_recusada',
      titulo: aprovada ? 'Candidatura aprovada' : 'Candidatura recusada',
      mensagem: sql`'Sua candidatura para o evento de ' || ${agenda.dataEvento} || ${` foi ${aprovada ? 'aprovada' : 'recusada'}.`}`,
      dados: dadosOf(status),
    },
    answeredRow(id, status, now, sql`join ${profissionais} on ${profissionais.id} = ${convites.profissionalId}`),
  );
  const pending = and(inRegion, eq(convites.status, 'solicitado'));
  const writes = aprovada
    ? runEach(
        acceptStatements(db, author.log, {
          where: inRegion,
          from: ['solicitado'],
          now,
          acao: 'convites.approve',
          conviteId: id,
        }).writes,
      )
    : {
        log: run(
          logRowWrite(db, author.log, convites, pending, {
            acao: 'convites.reject',
            entidade: 'convites',
            regiao,
            dados: { status: { antes: convites.status, depois: 'recusado' } },
          }),
        ),
        update: run(db.update(convites).set({ status: 'recusado', respondidoEm: now, updatedAt: now }).where(pending)),
      };
  const statements = {
    ...writes,
    notes: returned(notifications, notes.insert),
    view: rows(selectConvites(db).where(and(eq(convites.id, id), eq(agenda.regiao, regiao)))),
  };
  return answerPlan(statements, async (results, db, push) => {
    const view = viewOf(results);
    if (results.update.changes > 0) {
      push(notes.push(results.notes));
      return toConviteResponse(view);
    }
    if (view.c.status !== 'solicitado')
      throw new ApiError(
        'INVALID_STATE',
        `só uma candidatura em "solicitado" é decidida pelo administrador (está "${view.c.status}")`,
      );
    throw (
      (aprovada ? refusal(await refusalReason(db, id)) : undefined) ??
      new ApiError('INVALID_STATE', 'a candidatura mudou enquanto isso: leia-a de novo')
    );
  });
}

/** An administrator withdraws an invitation; the professional is told, and the waiting list promoted. */
export async function cancel(db: Db, log: LogCtx, regiao: string, id: string, push: Push) {
  const [current] = await targetSelect(db, id, regiao);
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
  const { insert, push: messages } = prepareNotifications(db, notes, {
    when: sql`exists (select 1 from ${convites} where ${convites.id} = ${id})`,
  });
  const entry = logRowWrite(db, log, convites, eq(convites.id, id), {
    acao: 'convites.cancel',
    entidade: 'convites',
    regiao,
    dados: deleted(convites),
  });
  const release = releaseStatements(db, log, current.agendaId, current.funcaoId, new Date().toISOString());
  // Its fee, if still previsto, is cancelled before the invitation goes (docs/decisions.md#d18-finance).
  const fee = feeOnCancel(db, log, id);
  const [gone, ...rest] = await writeThenRead(
    db,
    [...insert, entry, ...Object.values(fee)],
    [db.delete(convites).where(eq(convites.id, id)), ...Object.values(release.writes), release.notified],
  );
  if (gone.meta.changes === 0) throw conviteNotFound();
  push([...messages, ...release.push(rest.at(-1) as NotificationRow[])]);
}

// Confirmation and call-sheet acknowledgement (docs/decisions-2 D16): the invited professional only.

const notAccepted = () => new ApiError('INVALID_STATE', 'o convite não está aceito');

/** Why a guarded confirmation/acknowledgement touched nothing: 404 when not the caller's, else its state. */
async function stateRefusal(db: Db, user: AuthUser, id: string, needsSheet: boolean): Promise<never> {
  const [row] = await db
    .select({
      status: convites.status,
      sheet: sql<
        number | null
      >`(select ${agendaLogistica.versao} from ${agendaLogistica} where ${agendaLogistica.agendaId} = ${convites.agendaId})`,
    })
    .from(convites)
    .where(and(eq(convites.id, id), ownConvites(user.id)));
  if (!row) throw conviteNotFound();
  if (row.status !== 'aceito') throw notAccepted();
  if (needsSheet && row.sheet === null)
    throw new ApiError('INVALID_STATE', 'o evento ainda não tem ficha de logística');
  throw new ApiError('CONFLICT', 'o convite mudou enquanto era salvo: tente de novo');
}

/**
 * Confirms presence: only an accepted invitation. Idempotent: the first confirmation's time is kept
 * (one guarded UPDATE; the entry is written the first time only).
 */
export async function confirm(db: Db, log: LogCtx, user: AuthUser, id: string) {
  const now = new Date().toISOString();
  const where = and(eq(convites.id, id), ownConvites(user.id), eq(convites.status, 'aceito'));
  const entry = logRowWrite(db, log, convites, and(where, sql`${convites.confirmadoEm} is null`), {
    acao: 'convites.confirm',
    entidade: 'convites',
    regiao: conviteRegiao,
    dados: { confirmado_em: { antes: null, depois: now } },
  });
  const [written, view] = await writeThenRead(
    db,
    [entry],
    [
      db
        .update(convites)
        .set({ confirmadoEm: sql`coalesce(${convites.confirmadoEm}, ${now})`, updatedAt: now })
        .where(where),
      selectConvites(db).where(eq(convites.id, id)),
    ],
  );
  if (written.meta.changes === 0) return stateRefusal(db, user, id, false);
  return oneConvite(view);
}

/** The current call-sheet version of the invitation's event (null: no sheet). */
const currentVersao = sql`(select ${agendaLogistica.versao} from ${agendaLogistica} where ${agendaLogistica.agendaId} = ${convites.agendaId})`;

/**
 * Acknowledges the event's call sheet as it is now: `ciente_versao` = its `versao`. Only an
 * accepted invitation of an event that has a sheet (409 INVALID_STATE otherwise).
 */
export async function acknowledge(db: Db, log: LogCtx, user: AuthUser, id: string) {
  const now = new Date().toISOString();
  const where = and(
    eq(convites.id, id),
    ownConvites(user.id),
    eq(convites.status, 'aceito'),
    sql`${currentVersao} is not null`,
  );
  const entry = logRowWrite(db, log, convites, and(where, sql`${convites.cienteVersao} is not ${currentVersao}`), {
    acao: 'convites.acknowledge',
    entidade: 'convites',
    regiao: conviteRegiao,
    dados: { ciente_versao: { antes: convites.cienteVersao, depois: currentVersao } },
  });
  const [written, view] = await writeThenRead(
    db,
    [entry],
    [
      db.update(convites).set({ cienteVersao: currentVersao, updatedAt: now }).where(where),
      selectConvites(db).where(eq(convites.id, id)),
    ],
  );
  if (written.meta.changes === 0) return stateRefusal(db, user, id, true);
  return oneConvite(view);
}
