import { and, eq, inArray, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { Db } from '../../db/client';
import { ADMIN_ROLES, agenda, agendaEquipe, convites, profissionais, users } from '../../db/schema';
import { insertWhere } from '../../db/guarded';
import { saoPauloDate } from '../../lib/dates';
import { ApiError, mapDbError } from '../../lib/errors';
import { acceptStatements, quotaOpenFor, refusal, type Reason } from './acceptance';
import { holdsFuncao, selectConvites, toConviteResponse, type ConviteView } from './convite-read';
import { prepareNotifications, type NewNotification } from '../core/notifications';
import { listedProfile } from '../professionals/profissionais';
import { unavailableForAgenda } from '../availability/rule';
import { acceptedOverlap, travelConflictOf, travelRuleOf, type TravelRule } from './time-window';
import { logRowWrite } from '../core/activity-log';
import type { Ctx } from '../core/context';
import { noProfile } from './vagas';

// Applying to a job listing (docs/decisions.md#d17): the checks, the guarded application or its
// immediate acceptance, the administrators' notice.

/** What an application is checked against: the caller's profile, the event's published function, the administrators to tell. */
function applicationReads({ db, user }: Pick<Ctx, 'db' | 'user'>, agendaId: string, funcaoId: string) {
  return db.batch([
    db
      .select({ id: profissionais.id, regiao: profissionais.regiao, holds: holdsFuncao(funcaoId) })
      .from(profissionais)
      .where(and(eq(profissionais.usuarioId, user.id), listedProfile)),
    db
      .select({
        regiao: agenda.regiao,
        dataEvento: agenda.dataEvento,
        creator: agenda.userId,
        publicar: agendaEquipe.publicar,
        requerAprovacao: agendaEquipe.requerAprovacao,
      })
      .from(agenda)
      .leftJoin(agendaEquipe, and(eq(agendaEquipe.agendaId, agenda.id), eq(agendaEquipe.funcaoId, funcaoId)))
      .where(eq(agenda.id, agendaId)),
    db
      .select({ id: users.id })
      .from(users)
      .where(and(inArray(users.role, [...ADMIN_ROLES]), eq(users.ativo, true))),
  ]);
}

type Read = Awaited<ReturnType<typeof applicationReads>>;
type Profile = Read[0][number];
type Vaga = Read[1][number];

/** The application, as the checks left it: who applies, where, for which function, at what instant. */
interface Application {
  id: string;
  agendaId: string;
  funcaoId: string;
  prof: Profile;
  vaga: Vaga;
  listaEspera: boolean;
  stamp: string;
  rule: TravelRule;
}

/** The caller may apply: it has a profile, the event is of its region, the function published and its own, the event not past. */
function checkApplication(prof: Profile | undefined, vaga: Vaga | undefined, now: Date) {
  if (!prof) throw noProfile();
  if (!vaga || vaga.regiao !== prof.regiao) throw new ApiError('NOT_FOUND', 'evento não encontrado na sua região');
  if (!vaga.publicar) throw new ApiError('NOT_FOUND', 'funcao_id: esta função não está publicada neste evento');
  if (!prof.holds) throw new ApiError('VALIDATION_FAILED', 'funcao_id: você não exerce esta função');
  if (vaga.dataEvento < saoPauloDate(now)) throw new ApiError('INVALID_STATE', 'o evento já aconteceu');
  return { prof, vaga };
}

/**
 * Why the place would be refused (declared unavailability, time window, travel, quota), read first
 * in the batch: an application refused without a waiting list leaves no row to explain it.
 */
const reasonOf = (db: Db, a: Application) =>
  db
    .select({
      quotaOpen: sql<number>`${quotaOpenFor(sql`${a.agendaId}`, sql`${a.funcaoId}`)}`,
      free: sql<number>`not ${acceptedOverlap(sql`${a.prof.id}`, sql`${a.agendaId}`)}`,
      available: sql<number>`not ${unavailableForAgenda(sql`${a.prof.id}`, sql`${a.agendaId}`)}`,
      travel: sql<string | null>`${travelConflictOf(sql`${a.prof.id}`, sql`${a.agendaId}`, a.rule)}`,
    })
    .from(agenda)
    .where(eq(agenda.id, a.agendaId));

/**
 * The application's writes: inserted as `solicitado` unless the caller declared itself unavailable
 * during the event (decided by the insert itself, D24); without approval the acceptance follows
 * (acceptStatements), or the waiting list when the quota is full and it was asked, or nothing stays.
 */
function applicationWrites(db: Db, log: Ctx['log'], a: Application): BatchItem<'sqlite'>[] {
  const byId = eq(convites.id, a.id);
  const insert = insertWhere(
    db,
    convites,
    {
      id: a.id,
      agendaId: a.agendaId,
      profissionalId: a.prof.id,
      funcaoId: a.funcaoId,
      status: 'solicitado',
      origem: 'candidatura',
      createdAt: a.stamp,
      updatedAt: a.stamp,
    },
    sql`not ${unavailableForAgenda(sql`${a.prof.id}`, sql`${a.agendaId}`)}`,
  );
  if (a.vaga.requerAprovacao) return [insert];
  const accept = acceptStatements(db, log, {
    where: byId,
    from: ['solicitado'],
    now: a.stamp,
    acao: 'convites.accept',
    conviteId: a.id,
    rule: a.rule,
  });
  const quotaFull = sql`not ${quotaOpenFor(sql`${a.agendaId}`, sql`${a.funcaoId}`)}`;
  return [
    insert,
    ...Object.values(accept.writes),
    ...(a.listaEspera
      ? [
          db
            .update(convites)
            .set({ status: 'espera' })
            .where(and(byId, eq(convites.status, 'solicitado'), quotaFull)),
        ]
      : []),
    // Refused (and not waiting): nothing stays.
    db.delete(convites).where(and(byId, eq(convites.status, 'solicitado'))),
  ];
}

/** The entry of the application as it ended (`solicitado`, `aceito` or `espera`), if it stayed. */
const applicationEntry = (db: Db, log: Ctx['log'], a: Application) =>
  logRowWrite(
    { db, log },
    { table: convites, where: eq(convites.id, a.id) },
    {
      acao: 'convites.apply',
      entidade: 'convites',
      regiao: a.vaga.regiao,
      dados: {
        agenda_id: { depois: a.agendaId },
        profissional_id: { depois: a.prof.id },
        funcao_id: { depois: a.funcaoId },
        origem: { depois: 'candidatura' },
        status: { depois: convites.status },
      },
    },
  );

/** The event's creator and the administrators are told (never the caller), if the application stayed. */
function applicationNotes(db: Db, a: Application & { caller: string; admins: { id: string }[] }) {
  const recipients = [...new Set([a.vaga.creator, ...a.admins.map((x) => x.id)])].filter(
    (u): u is string => !!u && u !== a.caller,
  );
  const texto = a.vaga.requerAprovacao ? 'pediu aprovação para' : 'se candidatou';
  const notes: NewNotification[] = recipients.map((userId) => ({
    userId,
    tipo: 'candidatura_recebida',
    titulo: 'Nova candidatura',
    mensagem: `Um profissional ${texto} uma vaga no evento de ${a.vaga.dataEvento}.`,
    dados: { convite_id: a.id, agenda_id: a.agendaId, funcao_id: a.funcaoId },
  }));
  return prepareNotifications(db, notes, {
    when: sql`exists (select 1 from ${convites} where ${convites.id} = ${a.id})`,
  });
}

/**
 * A professional applies to a published function of an event (D17). Without approval it is
 * `aceito` at once through acceptStatements (the same guarded rule as every acceptance); when the
 * place is refused for a full quota and `lista_espera` is asked, it is `espera`; with approval it is
 * `solicitado`. ONE batch: the insert (the unique (event, professional) key makes a second
 * application 409 ALREADY_APPLIED), the acceptance, the fallbacks, the entry and the notifications.
 */
export async function apply(
  ctx: Pick<Ctx, 'db' | 'log' | 'user' | 'push' | 'config'>,
  agendaId: string,
  body: { funcao_id: string; lista_espera?: boolean },
) {
  const { db, log, user, push } = ctx;
  const now = new Date();
  const [[prof], [vaga], admins] = await applicationReads(ctx, agendaId, body.funcao_id);
  const a: Application = {
    ...checkApplication(prof, vaga, now),
    id: crypto.randomUUID(),
    agendaId,
    funcaoId: body.funcao_id,
    listaEspera: !!body.lista_espera,
    stamp: now.toISOString(),
    rule: travelRuleOf(ctx.config),
  };
  const notified = applicationNotes(db, { ...a, caller: user.id, admins });
  let results: unknown[];
  try {
    results = await db.batch([
      reasonOf(db, a),
      ...applicationWrites(db, log, a),
      applicationEntry(db, log, a),
      ...notified.insert,
      selectConvites(db).where(eq(convites.id, a.id)),
    ] as [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]]);
  } catch (err) {
    if (mapDbError(err)?.code === 'CONFLICT')
      throw new ApiError('ALREADY_APPLIED', 'você já tem um convite ou candidatura para este evento');
    throw err;
  }
  const [view] = results.at(-1) as ConviteView[];
  if (!view) {
    const why = (results[0] as NonNullable<Reason>[])[0];
    throw refusal(why) ?? new ApiError('CONFLICT', 'a vaga mudou enquanto isso: tente de novo');
  }
  push(notified.push);
  return toConviteResponse(view);
}
