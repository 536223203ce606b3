import { and, asc, count, desc, eq, lte, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { Db } from '../../db/client';
import { keptOrCounted } from '../../db/kept-count';
import { withTotal } from '../../db/list-total';
import { generatedId } from '../../db/generated-id';
import { createDb } from '../../db/client';
import { insertWhere } from '../../db/guarded';
import {
  agenda,
  cadastroFot,
  chamadoMensagens,
  chamados,
  logsAtividade,
  users,
  type AuthUser,
  type ChamadoStatus,
} from '../../db/schema';
import { writeThenRead } from '../../db/write-read';
import type { Bindings } from '../../env';
import { ApiError } from '../../lib/errors';
import { pageBounds, type Page } from '../../lib/pagination';
import { isAdmin } from '../../lib/permissions';
import { created, loggedUpdate, logRowWrite, logStatement } from '../core/activity-log';
import type { Ctx } from '../core/context';
import { visible as agendaVisible } from '../agenda/agenda';
import { visible as fotVisible } from '../records/cadastro-fot';
import { prepareNotifications, type NewNotification } from '../core/notifications';
import { regionAdmin } from '../accounts/profile';

/**
 * Support tickets (docs/decisions.md#d22; docs/guide/tickets.md). Who sees a ticket: its
 * requester, and the administrators of its region; anyone else gets 404. Internal messages
 * (`interna`) are selected only for administrators, so no answer to a requester can carry one.
 */

type Caller = Pick<AuthUser, 'id' | 'role'>;

const notFound = () => new ApiError('NOT_FOUND', 'chamado não encontrado');

/** The caller's visibility rule: the region, and its own tickets unless an administrator. */
export const visible = (caller: Caller, regiao: string, ...more: (SQL | undefined)[]) =>
  and(eq(chamados.regiao, regiao), isAdmin(caller.role) ? undefined : eq(chamados.solicitanteId, caller.id), ...more);

const nomeOf = (col: SQLWrapper) => sql<string | null>`(select ${users.nome} from ${users} where ${users.id} = ${col})`;

const selectChamados = (db: Db) =>
  db
    .select({
      c: chamados,
      solicitanteNome: nomeOf(chamados.solicitanteId).as('solicitante_nome'),
      responsavelNome: nomeOf(chamados.responsavelId).as('responsavel_nome'),
    })
    .from(chamados);

type ChamadoView = Awaited<ReturnType<typeof selectChamados>>[number];

export function toChamadoResponse(v: ChamadoView) {
  const c = v.c;
  return {
    id: c.id,
    regiao: c.regiao,
    assunto: c.assunto,
    categoria: c.categoria,
    status: c.status,
    prioridade: c.prioridade,
    solicitante_id: c.solicitanteId,
    solicitante_nome: v.solicitanteNome ?? '',
    responsavel_id: c.responsavelId,
    responsavel_nome: v.responsavelNome,
    agenda_id: c.agendaId,
    fot_id: c.fotId,
    resolvido_em: c.resolvidoEm,
    created_at: c.createdAt,
    updated_at: c.updatedAt,
  };
}

/** A ticket's messages the caller may read (internal ones only for administrators), oldest first. */
const selectMensagens = (db: Db, caller: Caller, chamadoId: string) =>
  db
    .select({
      id: chamadoMensagens.id,
      autorId: chamadoMensagens.autorId,
      autorNome: nomeOf(chamadoMensagens.autorId).as('autor_nome'),
      corpo: chamadoMensagens.corpo,
      interna: chamadoMensagens.interna,
      createdAt: chamadoMensagens.createdAt,
    })
    .from(chamadoMensagens)
    .where(
      and(
        eq(chamadoMensagens.chamadoId, chamadoId),
        isAdmin(caller.role) ? undefined : eq(chamadoMensagens.interna, false),
      ),
    )
    .orderBy(asc(chamadoMensagens.createdAt), asc(chamadoMensagens.id));

type MensagemView = Awaited<ReturnType<typeof selectMensagens>>[number];

const toMensagem = (m: MensagemView) => ({
  id: m.id,
  autor_id: m.autorId,
  autor_nome: m.autorNome,
  corpo: m.corpo,
  interna: m.interna,
  created_at: m.createdAt,
});

function detail(rows: ChamadoView[], mensagens: MensagemView[]) {
  if (!rows[0]) throw notFound();
  return { ...toChamadoResponse(rows[0]), mensagens: mensagens.map(toMensagem) };
}

/** What a read of tickets needs: the session, the caller and the region. */
type ReadCtx = Pick<Ctx, 'db' | 'user' | 'regiao'>;

/** The ticket with its messages, if the caller may see it: one round trip. */
export async function getChamado({ db, user, regiao }: ReadCtx, id: string) {
  const [rows, mensagens] = await db.batch([
    selectChamados(db).where(visible(user, regiao, eq(chamados.id, id))),
    selectMensagens(db, user, id),
  ]);
  return detail(rows, mensagens);
}

export interface ChamadoFilters extends Page {
  status?: ChamadoStatus;
  categoria?: (typeof chamados.$inferSelect)['categoria'];
  responsavel_id?: string;
}

/**
 * A page's total: an administrator's, unfiltered or by status only, from the count kept per region
 * and status (drizzle/0032_list_counts.sql); a requester's own tickets and the other filters count.
 */
const chamadosTotal = ({ db, user, regiao }: ReadCtx, f: ChamadoFilters, where: SQL | undefined) =>
  keptOrCounted(
    db,
    {
      tabela: 'chamados',
      regiao,
      dono: isAdmin(user.role) && !f.categoria && !f.responsavel_id ? (f.status ?? '') : undefined,
    },
    chamados,
    where,
  );

/** A page of the tickets the caller sees, newest activity first, and the total: one round trip. */
export async function listChamados(ctx: ReadCtx, f: ChamadoFilters) {
  const { db, user, regiao } = ctx;
  const where = visible(
    user,
    regiao,
    f.status ? eq(chamados.status, f.status) : undefined,
    f.categoria ? eq(chamados.categoria, f.categoria) : undefined,
    f.responsavel_id ? eq(chamados.responsavelId, f.responsavel_id) : undefined,
  );
  const { limit, offset } = pageBounds(f);
  const { rows, total } = await withTotal(
    db,
    f,
    selectChamados(db).where(where).orderBy(desc(chamados.updatedAt), asc(chamados.id)).limit(limit).offset(offset),
    chamadosTotal(ctx, f, where),
  );
  return { items: rows.map(toChamadoResponse), total };
}

/** Notifications to the region's administrators (all but the actor). */
const adminsOf = (db: Db, regiao: string, exceptId: string) =>
  db
    .select({ id: users.id })
    .from(users)
    .where(and(regionAdmin(regiao), sql`${users.id} <> ${exceptId}`));

export interface NewChamado {
  assunto: string;
  categoria: (typeof chamados.$inferSelect)['categoria'];
  mensagem: string;
  agenda_id?: string;
  fot_id?: string;
}

/**
 * The references of a new ticket, which must be visible to the requester (404 naming the field),
 * and the administrators to notify: one round trip.
 */
async function openChecks({ db, user, regiao }: ReadCtx, body: NewChamado) {
  const [agendaRows, fotRows, admins] = await db.batch([
    db
      .select({ id: agenda.id })
      .from(agenda)
      .where(body.agenda_id ? agendaVisible(user, regiao, eq(agenda.id, body.agenda_id)) : sql`0`),
    db
      .select({ id: cadastroFot.id })
      .from(cadastroFot)
      .where(
        body.fot_id && (isAdmin(user.role) || user.role === 'EVENT_OWNER')
          ? and(...fotVisible(user, regiao), eq(cadastroFot.id, body.fot_id))
          : sql`0`,
      ),
    adminsOf(db, regiao, user.id),
  ]);
  if (body.agenda_id && !agendaRows[0]) throw new ApiError('NOT_FOUND', 'agenda_id: evento não encontrado');
  if (body.fot_id && !fotRows[0]) throw new ApiError('NOT_FOUND', 'fot_id: turma não encontrada');
  return admins;
}

/** Opens a ticket with its first message; the region's administrators are told. */
export async function openChamado(ctx: Ctx, body: NewChamado) {
  const { db, log, user, regiao, push } = ctx;
  const admins = await openChecks(ctx, body);
  const id = crypto.randomUUID();
  const now = new Date().toISOString();
  const row = {
    id,
    regiao,
    solicitanteId: user.id,
    assunto: body.assunto,
    categoria: body.categoria,
    status: 'aberto' as const,
    prioridade: 'normal' as const,
    agendaId: body.agenda_id ?? null,
    fotId: body.fot_id ?? null,
    createdAt: now,
    updatedAt: now,
  };
  const notes: NewNotification[] = admins.map((a) => ({
    userId: a.id,
    tipo: 'chamado_aberto',
    titulo: 'Novo chamado',
    mensagem: `Novo chamado: ${body.assunto}`,
    dados: { chamado_id: id, categoria: body.categoria },
  }));
  const { insert, push: messages } = prepareNotifications(db, notes);
  const [rows, mensagens] = await writeThenRead(
    db,
    [
      db.insert(chamados).values(row),
      db
        .insert(chamadoMensagens)
        .values({ chamadoId: id, autorId: user.id, corpo: body.mensagem, interna: false, createdAt: now }),
      logStatement(db, log, {
        acao: 'chamados.create',
        entidade: 'chamados',
        entidadeId: id,
        regiao,
        dados: created(chamados, row),
      }),
      ...insert,
    ],
    [selectChamados(db).where(eq(chamados.id, id)), selectMensagens(db, user, id)],
  );
  push(messages);
  return detail(rows, mensagens);
}

export interface ChamadoPatch {
  responsavel_id?: string | null;
  status?: ChamadoStatus;
  prioridade?: (typeof chamados.$inferSelect)['prioridade'];
}

/** A ticket as a patch or a message sees it first: its state, its requester, its responsible. */
const selectTarget = ({ db, user, regiao }: ReadCtx, id: string) =>
  db
    .select({
      status: chamados.status,
      solicitanteId: chamados.solicitanteId,
      responsavelId: chamados.responsavelId,
      assunto: chamados.assunto,
    })
    .from(chamados)
    .where(visible(user, regiao, eq(chamados.id, id)));
type Target = Awaited<ReturnType<typeof selectTarget>>[number];

/** The columns a patch sets, at `now`. */
function patchSet(patch: ChamadoPatch, current: Target, now: string) {
  const set: Partial<typeof chamados.$inferInsert> = { updatedAt: now };
  if (patch.responsavel_id !== undefined) set.responsavelId = patch.responsavel_id;
  if (patch.prioridade) set.prioridade = patch.prioridade;
  if (patch.status) {
    set.status = patch.status;
    // resolvido_em marks the start of the 7 days before the automatic close; it keeps the first
    // instant while the ticket stays resolvido.
    if (patch.status !== current.status) set.resolvidoEm = patch.status === 'resolvido' ? now : null;
  }
  return set;
}

/** Who a patch tells: the new responsible (not the actor), the requester when the status changes. */
function patchNotes(patch: ChamadoPatch, { id, current, actorId }: { id: string; current: Target; actorId: string }) {
  const notes: NewNotification[] = [];
  if (patch.responsavel_id && patch.responsavel_id !== actorId)
    notes.push({
      userId: patch.responsavel_id,
      tipo: 'chamado_atribuido',
      titulo: 'Chamado atribuído a você',
      mensagem: `Chamado: ${current.assunto}`,
      dados: { chamado_id: id },
    });
  if (patch.status && patch.status !== current.status && current.solicitanteId !== actorId)
    notes.push({
      userId: current.solicitanteId,
      tipo: 'chamado_atualizado',
      titulo: 'Seu chamado foi atualizado',
      mensagem: `Chamado "${current.assunto}": ${patch.status.replace(/_/g, ' ')}`,
      dados: { chamado_id: id, status: patch.status },
    });
  return notes;
}

/** Guarded: a ticket closed meanwhile (the scheduled job) is not reopened by a write. */
const openTicket = (id: string) => and(eq(chamados.id, id), sql`${chamados.status} <> 'fechado'`);

/**
 * An administrator assigns, sets the status or the priority. A closed ticket stays closed (409
 * INVALID_STATE). The new responsible is told, and the requester when the status changes.
 */
export async function patchChamado(ctx: Ctx, id: string, patch: ChamadoPatch) {
  const { db, user, regiao, push } = ctx;
  const [[current], resp] = await db.batch([
    selectTarget(ctx, id),
    db
      .select({ id: users.id })
      .from(users)
      .where(patch.responsavel_id ? and(eq(users.id, patch.responsavel_id), regionAdmin(regiao)) : sql`0`),
  ]);
  if (!current) throw notFound();
  if (patch.responsavel_id && !resp[0])
    throw new ApiError('VALIDATION_FAILED', 'responsavel_id: deve ser um administrador ativo da região');
  if (current.status === 'fechado') throw new ApiError('INVALID_STATE', 'chamado fechado não pode ser alterado');

  const now = new Date().toISOString();
  const set = patchSet(patch, current, now);
  const happened = sql`exists (select 1 from ${chamados} where ${chamados.id} = ${id} and ${chamados.updatedAt} = ${now})`;
  const { insert, push: messages } = prepareNotifications(db, patchNotes(patch, { id, current, actorId: user.id }), {
    when: happened,
  });
  const [entry, update] = loggedUpdate(
    ctx,
    { table: chamados, where: openTicket(id), set },
    { acao: 'chamados.update', entidade: 'chamados', regiao },
  );
  const [written, ...rest] = await writeThenRead(
    db,
    [entry],
    [update, ...insert, selectChamados(db).where(eq(chamados.id, id))],
  );
  if (written.meta.changes === 0) throw new ApiError('INVALID_STATE', 'chamado fechado não pode ser alterado');
  push(messages);
  const rows = rest.at(-1) as ChamadoView[];
  return toChamadoResponse(rows[0]!);
}

export interface NewMensagem {
  corpo: string;
  interna: boolean;
}

/**
 * Who a message tells, besides its author: for an internal note the responsible; for a requester's
 * message the responsible or, unassigned, the region's administrators; else the requester.
 */
function mensagemRecipients(
  user: AuthUser,
  body: NewMensagem,
  { current, admins }: { current: Target; admins: { id: string }[] },
) {
  const fromRequester = current.solicitanteId === user.id;
  let recipients: string[];
  if (body.interna) recipients = current.responsavelId ? [current.responsavelId] : [];
  else if (fromRequester) recipients = current.responsavelId ? [current.responsavelId] : admins.map((a) => a.id);
  else recipients = [current.solicitanteId];
  return recipients.filter((u) => u !== user.id);
}

/**
 * The statements of a message, in batch order: its log entry and the ticket's guarded update (a
 * requester's public message reopens it), then the message itself, written only if that update
 * found the ticket open.
 */
function mensagemWrites(
  ctx: Ctx,
  m: { id: string; mensagemId: string; now: string; body: NewMensagem; reopen: boolean },
) {
  const { db, log, user, regiao } = ctx;
  const { id, mensagemId, now, body, reopen } = m;
  const reopened = sql`${reopen ? 1 : 0} = 1 and ${chamados.status} in ('aguardando_solicitante', 'resolvido')`;
  const update = db
    .update(chamados)
    .set({
      status: sql`case when ${reopened} then 'aberto' else ${chamados.status} end`,
      resolvidoEm: sql`case when ${reopened} then null else ${chamados.resolvidoEm} end`,
      updatedAt: now,
    })
    .where(openTicket(id));
  // The message exists only if the guarded update found the ticket open (same batch, just before).
  const wasOpen = sql`exists (select 1 from ${chamados} where ${chamados.id} = ${id} and ${chamados.updatedAt} = ${now} and ${chamados.status} <> 'fechado')`;
  const insert = insertWhere(
    db,
    chamadoMensagens,
    { id: mensagemId, chamadoId: id, autorId: user.id, corpo: body.corpo, interna: body.interna, createdAt: now },
    wasOpen,
  );
  return [
    // Before the update, under its guard: written exactly when the message is.
    logRowWrite(
      { db, log },
      { table: chamados, where: openTicket(id) },
      {
        acao: 'chamados.mensagem',
        entidade: 'chamados',
        regiao,
        dados: {
          mensagem_id: { depois: mensagemId },
          interna: { depois: body.interna },
          status: { antes: chamados.status },
        },
      },
    ),
    update,
    insert,
  ];
}

/**
 * A message on a ticket. `interna` only from administrators (403 otherwise). A closed ticket takes
 * none (409 INVALID_STATE). A requester's message on `aguardando_solicitante` or `resolvido` puts
 * the ticket back to `aberto`, in the same guarded statement. The other side is told: the
 * responsible (or, unassigned, the region's administrators) for a requester's message, the
 * requester for an administrator's public one; an internal note tells only the responsible.
 */
export async function addMensagem(ctx: Ctx, id: string, body: NewMensagem) {
  const { db, user, regiao, push } = ctx;
  if (body.interna && !isAdmin(user.role))
    throw new ApiError('FORBIDDEN', 'apenas administradores escrevem notas internas');
  const [[current], admins] = await db.batch([selectTarget(ctx, id), adminsOf(db, regiao, user.id)]);
  if (!current) throw notFound();
  if (current.status === 'fechado') throw new ApiError('INVALID_STATE', 'chamado fechado não aceita mensagens');

  const now = new Date().toISOString();
  const mensagemId = crypto.randomUUID();
  const reopen = current.solicitanteId === user.id && !body.interna;
  const written = sql`exists (select 1 from ${chamadoMensagens} where ${chamadoMensagens.id} = ${mensagemId})`;
  const notes: NewNotification[] = mensagemRecipients(user, body, { current, admins }).map((userId) => ({
    userId,
    tipo: 'chamado_mensagem',
    titulo: body.interna ? 'Nova nota interna' : 'Nova mensagem no chamado',
    // Never the message itself: the text stays in the ticket, where its visibility is enforced.
    mensagem: `Chamado: ${current.assunto}`,
    dados: { chamado_id: id, mensagem_id: mensagemId },
  }));
  const { insert: noteInserts, push: messages } = prepareNotifications(db, notes, { when: written });
  const writes: BatchItem<'sqlite'>[] = [...mensagemWrites(ctx, { id, mensagemId, now, body, reopen }), ...noteInserts];
  const [rows, mensagens, [done]] = await writeThenRead(db, writes, [
    selectChamados(db).where(eq(chamados.id, id)),
    selectMensagens(db, user, id),
    db.select({ n: count() }).from(chamadoMensagens).where(eq(chamadoMensagens.id, mensagemId)),
  ]);
  if (!done?.n) throw new ApiError('INVALID_STATE', 'chamado fechado não aceita mensagens');
  push(messages);
  return detail(rows, mensagens);
}

/** Days a ticket stays `resolvido` before the scheduled job closes it. */
export const FECHAR_APOS_DIAS = 7;

/**
 * Scheduled job `fechar-chamados`: closes every ticket `resolvido` for 7 days, in one set-based
 * batch (an activity-log entry per ticket, written by the same condition just before). Idempotent:
 * a closed ticket no longer matches. Answers the number closed.
 */
export async function fecharChamados(env: Bindings, now: Date) {
  const db = createDb(env.DB);
  const cutoff = new Date(now.getTime() - FECHAR_APOS_DIAS * 86_400_000).toISOString();
  const at = now.toISOString();
  const due = and(eq(chamados.status, 'resolvido'), lte(chamados.resolvidoEm, cutoff));
  // One entry per ticket, the id made in SQL (a bound one would repeat).
  // Columns in table order: seq (null: AUTOINCREMENT), id, created_at, ator_id, ator_role, acao,
  // entidade, entidade_id, regiao, request_id, dados.
  const entries = db.insert(logsAtividade).select(sql`select null, ${generatedId},
      ${at}, null, null, 'chamados.fechar_automatico', 'chamados', ${chamados.id}, ${chamados.regiao}, null,
      json_object('status', json_object('antes', 'resolvido', 'depois', 'fechado'))
    from ${chamados} where ${due}`);
  // The rows it closed, returned: meta.changes would count the kept counts' writes too (drizzle/0032).
  const [, closed] = await db.batch([
    entries,
    db.update(chamados).set({ status: 'fechado', updatedAt: at }).where(due).returning({ id: chamados.id }),
  ]);
  return closed.length;
}
