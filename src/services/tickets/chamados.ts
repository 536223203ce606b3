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
import { changed, created, logRowWrite, logStatement, type LogCtx } from '../core/activity-log';
import { visible as agendaVisible } from '../agenda/agenda';
import { visible as fotVisible } from '../records/cadastro-fot';
import { prepareNotifications, type NewNotification, type Push } from '../core/notifications';
import { regionAdmin } from '../accounts/profile';

/**
 * Support tickets (docs/decisions-2 D22; docs/guide/tickets.md). Who sees a ticket: its
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

/** The ticket with its messages, if the caller may see it: one round trip. */
export async function getChamado(db: Db, caller: Caller, regiao: string, id: string) {
  const [rows, mensagens] = await db.batch([
    selectChamados(db).where(visible(caller, regiao, eq(chamados.id, id))),
    selectMensagens(db, caller, id),
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
const chamadosTotal = (db: Db, caller: Caller, regiao: string, f: ChamadoFilters, where: SQL | undefined) =>
  keptOrCounted(
    db,
    {
      tabela: 'chamados',
      regiao,
      dono: isAdmin(caller.role) && !f.categoria && !f.responsavel_id ? (f.status ?? '') : undefined,
    },
    chamados,
    where,
  );

/** A page of the tickets the caller sees, newest activity first, and the total: one round trip. */
export async function listChamados(db: Db, caller: Caller, regiao: string, f: ChamadoFilters) {
  const where = visible(
    caller,
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
    chamadosTotal(db, caller, regiao, f, where),
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

/** Opens a ticket with its first message; the region's administrators are told. */
export async function openChamado(db: Db, log: LogCtx, user: AuthUser, regiao: string, body: NewChamado, push: Push) {
  // The references must be visible to the requester; the administrators to notify, in the same round trip.
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

/**
 * An administrator assigns, sets the status or the priority. A closed ticket stays closed (409
 * INVALID_STATE). The new responsible is told, and the requester when the status changes.
 */
export async function patchChamado(
  db: Db,
  log: LogCtx,
  user: AuthUser,
  regiao: string,
  id: string,
  patch: ChamadoPatch,
  push: Push,
) {
  const [[current], resp] = await db.batch([
    db
      .select({ status: chamados.status, solicitanteId: chamados.solicitanteId, assunto: chamados.assunto })
      .from(chamados)
      .where(visible(user, regiao, eq(chamados.id, id))),
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
  const set: Partial<typeof chamados.$inferInsert> = { updatedAt: now };
  if (patch.responsavel_id !== undefined) set.responsavelId = patch.responsavel_id;
  if (patch.prioridade) set.prioridade = patch.prioridade;
  if (patch.status) {
    set.status = patch.status;
    // resolvido_em marks the start of the 7 days before the automatic close; it keeps the first
    // instant while the ticket stays resolvido.
    if (patch.status !== current.status) set.resolvidoEm = patch.status === 'resolvido' ? now : null;
  }
  // Guarded: a ticket closed meanwhile (the scheduled job) is not reopened by this write.
  const where = and(eq(chamados.id, id), sql`${chamados.status} <> 'fechado'`);
  const happened = sql`exists (select 1 from ${chamados} where ${chamados.id} = ${id} and ${chamados.updatedAt} = ${now})`;
  const notes: NewNotification[] = [];
  if (patch.responsavel_id && patch.responsavel_id !== user.id)
    notes.push({
      userId: patch.responsavel_id,
      tipo: 'chamado_atribuido',
      titulo: 'Chamado atribuído a você',
      mensagem: `Chamado: ${current.assunto}`,
      dados: { chamado_id: id },
    });
  if (patch.status && patch.status !== current.status && current.solicitanteId !== user.id)
    notes.push({
      userId: current.solicitanteId,
      tipo: 'chamado_atualizado',
      titulo: 'Seu chamado foi atualizado',
      mensagem: `Chamado "${current.assunto}": ${patch.status.replace(/_/g, ' ')}`,
      dados: { chamado_id: id, status: patch.status },
    });
  const { insert, push: messages } = prepareNotifications(db, notes, { when: happened });
  const entry = logRowWrite(db, log, chamados, where, {
    acao: 'chamados.update',
    entidade: 'chamados',
    regiao,
    dados: changed(chamados, { ...set, updatedAt: undefined }),
  });
  const [written, ...rest] = await writeThenRead(
    db,
    [entry],
    [db.update(chamados).set(set).where(where), ...insert, selectChamados(db).where(eq(chamados.id, id))],
  );
  if (written.meta.changes === 0) throw new ApiError('INVALID_STATE', 'chamado fechado não pode ser alterado');
  push(messages);
  const rows = rest.at(-1) as ChamadoView[];
  return toChamadoResponse(rows[0]!);
}

/**
 * A message on a ticket. `interna` only from administrators (403 otherwise). A closed ticket takes
 * none (409 INVALID_STATE). A requester's message on `aguardando_solicitante` or `resolvido` puts
 * the ticket back to `aberto`, in the same guarded statement. The other side is told: the
 * responsible (or, unassigned, the region's administrators) for a requester's message, the
 * requester for an administrator's public one; an internal note tells only the responsible.
 */
export async function addMensagem(
  db: Db,
  log: LogCtx,
  user: AuthUser,
  regiao: string,
  id: string,
  body: { corpo: string; interna: boolean },
  push: Push,
) {
  if (body.interna && !isAdmin(user.role))
    throw new ApiError('FORBIDDEN', 'apenas administradores escrevem notas internas');
  const [[current], admins] = await db.batch([
    db
      .select({
        status: chamados.status,
        solicitanteId: chamados.solicitanteId,
        responsavelId: chamados.responsavelId,
        assunto: chamados.assunto,
      })
      .from(chamados)
      .where(visible(user, regiao, eq(chamados.id, id))),
    adminsOf(db, regiao, user.id),
  ]);
  if (!current) throw notFound();
  if (current.status === 'fechado') throw new ApiError('INVALID_STATE', 'chamado fechado não aceita mensagens');

  const fromRequester = current.solicitanteId === user.id;
  const now = new Date().toISOString();
  const mensagemId = crypto.randomUUID();
  const reopen = fromRequester && !body.interna;
  const newStatus = sql`case when ${reopen ? 1 : 0} = 1 and ${chamados.status} in ('aguardando_solicitante', 'resolvido') then 'aberto' else ${chamados.status} end`;
  const update = db
    .update(chamados)
    .set({
      status: newStatus,
      resolvidoEm: sql`case when ${reopen ? 1 : 0} = 1 and ${chamados.status} in ('aguardando_solicitante', 'resolvido') then null else ${chamados.resolvidoEm} end`,
      updatedAt: now,
    })
    .where(and(eq(chamados.id, id), sql`${chamados.status} <> 'fechado'`));
  // The message exists only if the guarded update found the ticket open (same batch, just before).
  const wasOpen = sql`exists (select 1 from ${chamados} where ${chamados.id} = ${id} and ${chamados.updatedAt} = ${now} and ${chamados.status} <> 'fechado')`;
  const insert = insertWhere(
    db,
    chamadoMensagens,
    { id: mensagemId, chamadoId: id, autorId: user.id, corpo: body.corpo, interna: body.interna, createdAt: now },
    wasOpen,
  );
  const written = sql`exists (select 1 from ${chamadoMensagens} where ${chamadoMensagens.id} = ${mensagemId})`;

  let recipients: string[];
  if (body.interna) recipients = current.responsavelId ? [current.responsavelId] : [];
  else if (fromRequester) recipients = current.responsavelId ? [current.responsavelId] : admins.map((a) => a.id);
  else recipients = [current.solicitanteId];
  const notes: NewNotification[] = recipients
    .filter((u) => u !== user.id)
    .map((userId) => ({
      userId,
      tipo: 'chamado_mensagem',
      titulo: body.interna ? 'Nova nota interna' : 'Nova mensagem no chamado',
      // Never the message itself: the text stays in the ticket, where its visibility is enforced.
      mensagem: `Chamado: ${current.assunto}`,
      dados: { chamado_id: id, mensagem_id: mensagemId },
    }));
  const { insert: noteInserts, push: messages } = prepareNotifications(db, notes, { when: written });
  const writes: BatchItem<'sqlite'>[] = [
    // Before the update, under its guard: written exactly when the message is.
    logRowWrite(db, log, chamados, and(eq(chamados.id, id), sql`${chamados.status} <> 'fechado'`), {
      acao: 'chamados.mensagem',
      entidade: 'chamados',
      regiao,
      dados: {
        mensagem_id: { depois: mensagemId },
        interna: { depois: body.interna },
        status: { antes: chamados.status },
      },
    }),
    update,
    insert,
    ...noteInserts,
  ];
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
