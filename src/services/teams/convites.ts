import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { insertWhere } from '../../db/guarded';
import { agenda, agendaLogistica, convites, funcoes, profissionais, type NotificationRow } from '../../db/schema';
import { writeThenRead } from '../../db/write-read';
import { ApiError } from '../../lib/errors';
import { isAdmin } from '../../lib/permissions';
import { unavailableForAgenda } from '../availability/rule';
import { feeOnCancel } from '../money/financeiro';
import { listedProfile } from '../professionals/profissionais';
import { prepareNotifications, type NewNotification } from '../core/notifications';
import type { Ctx } from '../core/context';
import { prepareWhatsapp, quandoSql } from '../core/whatsapp';
import { created, loggedDelete, logRowWrite, logStatement } from '../core/activity-log';
import { releaseStatements } from './acceptance';
import { travelRuleOf } from './time-window';
import {
  conviteNotFound,
  conviteRegiao,
  eventNotFound,
  holdsFuncao,
  managedEvent,
  oneConvite,
  ownConvites,
  selectConvites,
} from './convite-read';

/**
 * Teams and invitations (docs/decisions.md#d11): an administrator invites and withdraws, the invited
 * professional confirms and acknowledges. The rest of the domain, by what it does: the acceptance
 * rule (acceptance.ts), the answer (answer.ts), the reads and lists (convite-read.ts), the team quota
 * (team-quota.ts), the job listings (vagas.ts) and applications (candidatura.ts).
 */

/**
 * An administrator (or the event's agenda_viewer creator) invites a professional of the region for a
 * function it holds. Not onto a window the professional declared unavailable (409
 * PROFESSIONAL_UNAVAILABLE, decided by the insert itself), unless an administrator sends `forcar`:
 * the invitation is then marked `forcado` (its acceptance passes the declaration) and logged so.
 */
export async function invite(
  ctx: Ctx,
  id: string,
  body: { profissional_id: string; funcao_id: string; forcar?: boolean },
) {
  const { db, user, regiao } = ctx;
  const forcar = body.forcar === true;
  if (forcar && !isAdmin(user.role))
    throw new ApiError('FORBIDDEN', 'forcar: só um administrador pode convidar sobre uma indisponibilidade');
  const [[event], [prof]] = await db.batch([
    managedEvent(ctx, user, id),
    db
      .select({ id: profissionais.id, usuarioId: profissionais.usuarioId, holds: holdsFuncao(body.funcao_id) })
      .from(profissionais)
      // A pending account's profile cannot be invited (listedProfile): 404 as if absent.
      .where(and(eq(profissionais.id, body.profissional_id), eq(profissionais.regiao, regiao), listedProfile)),
  ]);
  if (!event) throw eventNotFound();
  if (!prof) throw new ApiError('NOT_FOUND', `profissional_id: profissional não encontrado na região ${regiao}`);
  if (!prof.holds) throw new ApiError('VALIDATION_FAILED', 'funcao_id: o profissional não exerce esta função');
  const conviteId = crypto.randomUUID();
  const inv = invitationWrites(ctx, {
    conviteId,
    agendaId: id,
    dataEvento: event.dataEvento,
    profissional: prof,
    funcaoId: body.funcao_id,
    forcar,
  });
  const [view] = await writeThenRead(db, inv.writes, [selectConvites(db).where(eq(convites.id, conviteId))]);
  if (!view[0])
    throw new ApiError(
      'PROFESSIONAL_UNAVAILABLE',
      'o profissional declarou-se indisponível no horário deste evento (um administrador pode convidar com "forcar": true)',
    );
  inv.after();
  return oneConvite(view);
}

/** One invitation to write (docs/decisions.md#d11). */
export interface NewInvitation {
  conviteId: string;
  agendaId: string;
  dataEvento: string;
  profissional: { id: string; usuarioId: string | null };
  funcaoId: string;
  /** An administrator's invitation over a declared unavailability (D24): marked `forcado`, logged so. */
  forcar?: boolean;
  /** Why the ranking chose it (docs/decisions.md#d29): the batch invitation's snapshot. */
  rankingSnapshot?: Record<string, unknown>;
  /**
   * For a batch of many (services/ranking/lote.ts): the insert writes only while this holds too and
   * writes nothing over an existing invitation of the event, so one refused item never fails the
   * others. Without it, a second invitation fails the batch (409 CONFLICT).
   */
  guard?: SQL;
}

/**
 * THE statements of an invitation, for the caller's batch, in order: the row, its activity-log entry,
 * the professional's notification and its WhatsApp message (docs/decisions.md#d30, if it opted in).
 * The row is a guarded insert: not over a declared unavailability (D24) unless `forcar`, and not
 * unless `guard` holds. Each effect is guarded by the row's existence, so an insert that wrote
 * nothing has none. `after()` hands the push and WhatsApp messages to their queues once the batch has run.
 */
export function invitationWrites(
  ctx: Pick<Ctx, 'db' | 'log' | 'user' | 'regiao' | 'config' | 'push' | 'whatsapp'>,
  inv: NewInvitation,
) {
  const { db, log, user, regiao } = ctx;
  const { conviteId, agendaId, profissional: prof } = inv;
  const forcar = inv.forcar === true;
  // Everything the invitation produces is written only if its guarded insert was.
  const invited = sql`exists (select 1 from ${convites} where ${convites.id} = ${conviteId})`;
  const notes: NewNotification[] = prof.usuarioId
    ? [
        {
          userId: prof.usuarioId,
          tipo: 'convite_recebido',
          titulo: 'Novo convite',
          mensagem: `Você foi convidado para um evento em ${inv.dataEvento}.`,
          dados: { convite_id: conviteId, agenda_id: agendaId },
        },
      ]
    : [];
  const { insert, push: messages } = prepareNotifications(db, notes, { when: invited });
  // The WhatsApp invitation with its quick replies (docs/decisions.md#d30), if the professional opted in.
  const wa = prepareWhatsapp(
    db,
    ctx.config,
    {
      tipo: 'convite_evento',
      chave: `convite_evento:${conviteId}`,
      profissionalId: prof.id,
      conviteId,
      agendaId,
      dados: sql`(select json_object('nome', p.nome, 'quando', ${quandoSql()}, 'funcao', ${funcoes.label})
        from ${agenda}, ${profissionais} p, ${funcoes}
        where ${agenda.id} = ${agendaId} and p.id = ${prof.id} and ${funcoes.id} = ${inv.funcaoId})`,
      when: invited,
    },
    new Date(),
  );
  const row = {
    id: conviteId,
    agendaId,
    profissionalId: prof.id,
    funcaoId: inv.funcaoId,
    convidadoPor: user.id,
    ...(forcar ? { forcado: true } : {}),
  };
  const stored = inv.rankingSnapshot ? { ...row, rankingSnapshot: inv.rankingSnapshot } : row;
  const unavailable = unavailableForAgenda(sql`${prof.id}`, sql`${agendaId}`);
  const available = forcar ? sql`1` : sql`not ${unavailable}`;
  const score = inv.rankingSnapshot?.score;
  return {
    writes: [
      inv.guard
        ? insertWhere(db, convites, stored, sql`${available} and ${inv.guard}`).onConflictDoNothing()
        : insertWhere(db, convites, stored, available),
      logStatement(db, log, {
        acao: 'convites.create',
        entidade: 'convites',
        entidadeId: conviteId,
        regiao,
        dados: {
          ...created(convites, row),
          // What the administrator forced: whether the professional had declared itself unavailable then.
          ...(forcar ? { indisponivel: { depois: sql`json(iif(${unavailable}, 'true', 'false'))` } } : {}),
          // The snapshot stays on the invitation; the entry names its score.
          ...(score !== undefined ? { ranking_score: { depois: score } } : {}),
        },
        when: invited,
      }),
      ...insert,
      ...(wa ? [wa.insert] : []),
    ] as [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]],
    /** Hands the messages to their queues (call after the batch). */
    after: () => {
      ctx.push(messages);
      if (wa) ctx.whatsapp([wa.id]);
    },
  };
}

/** Invitation `id` of an event of the region, with its event and professional (the one read of cancel). */
const targetSelect = ({ db, regiao }: Pick<Ctx, 'db' | 'regiao'>, id: string) =>
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

/** An administrator withdraws an invitation; the professional is told, and the waiting list promoted. */
export async function cancel(ctx: Pick<Ctx, 'db' | 'log' | 'regiao' | 'push' | 'config'>, id: string) {
  const { db, log, regiao, push } = ctx;
  const [current] = await targetSelect(ctx, id);
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
  const [entry, remove] = loggedDelete(
    { db, log },
    { table: convites, where: eq(convites.id, id) },
    { acao: 'convites.cancel', entidade: 'convites', regiao },
  );
  const release = releaseStatements(db, log, {
    agendaId: current.agendaId,
    funcaoId: current.funcaoId,
    now: new Date().toISOString(),
    rule: travelRuleOf(ctx.config),
  });
  // Its fee, if still previsto, is cancelled before the invitation goes (docs/decisions.md#d18-finance).
  const fee = feeOnCancel({ db, log }, id);
  const [gone, ...rest] = await writeThenRead(
    db,
    [...insert, entry, ...Object.values(fee)],
    [remove, ...Object.values(release.writes), release.notified],
  );
  if (gone.meta.changes === 0) throw conviteNotFound();
  push([...messages, ...release.push(rest.at(-1) as NotificationRow[])]);
}

// Confirmation and call-sheet acknowledgement (docs/decisions.md#d16): the invited professional only.

const notAccepted = () => new ApiError('INVALID_STATE', 'o convite não está aceito');

/** Why a guarded confirmation/acknowledgement touched nothing: 404 when not the caller's, else its state. */
async function stateRefusal({ db, user }: Pick<Ctx, 'db' | 'user'>, id: string, needsSheet: boolean): Promise<never> {
  const [row] = await db
    .select({ status: convites.status, sheet: sql<number | null>`${currentVersao}` })
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
export async function confirm(ctx: Pick<Ctx, 'db' | 'log' | 'user'>, id: string) {
  const { db, log, user } = ctx;
  const now = new Date().toISOString();
  const where = and(eq(convites.id, id), ownConvites(user.id), eq(convites.status, 'aceito'));
  const entry = logRowWrite(
    { db, log },
    { table: convites, where: and(where, sql`${convites.confirmadoEm} is null`) },
    {
      acao: 'convites.confirm',
      entidade: 'convites',
      regiao: conviteRegiao,
      dados: { confirmado_em: { antes: null, depois: now } },
    },
  );
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
  if (written.meta.changes === 0) return stateRefusal(ctx, id, false);
  return oneConvite(view);
}

/** The current call-sheet version of the invitation's event (null: no sheet). */
const currentVersao = sql`(select ${agendaLogistica.versao} from ${agendaLogistica} where ${agendaLogistica.agendaId} = ${convites.agendaId})`;

/**
 * Acknowledges the event's call sheet as it is now: `ciente_versao` = its `versao`. Only an
 * accepted invitation of an event that has a sheet (409 INVALID_STATE otherwise).
 */
export async function acknowledge(ctx: Pick<Ctx, 'db' | 'log' | 'user'>, id: string) {
  const { db, log, user } = ctx;
  const now = new Date().toISOString();
  const where = and(
    eq(convites.id, id),
    ownConvites(user.id),
    eq(convites.status, 'aceito'),
    sql`${currentVersao} is not null`,
  );
  const entry = logRowWrite(
    { db, log },
    { table: convites, where: and(where, sql`${convites.cienteVersao} is not ${currentVersao}`) },
    {
      acao: 'convites.acknowledge',
      entidade: 'convites',
      regiao: conviteRegiao,
      dados: { ciente_versao: { antes: convites.cienteVersao, depois: currentVersao } },
    },
  );
  const [written, view] = await writeThenRead(
    db,
    [entry],
    [
      db.update(convites).set({ cienteVersao: currentVersao, updatedAt: now }).where(where),
      selectConvites(db).where(eq(convites.id, id)),
    ],
  );
  if (written.meta.changes === 0) return stateRefusal(ctx, id, true);
  return oneConvite(view);
}
