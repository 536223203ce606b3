import { and, eq, inArray, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { convites, profissionais } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { feeOnAccept } from '../money/financeiro';
import { notifyFromRow } from '../core/notifications';
import { logRowWrite, type Change, type LogSource } from '../core/activity-log';
import { unavailableForAgenda } from '../availability/rule';
import { conviteRegiao, type ConviteStatus } from './convite-read';
import { acceptedOverlap, acceptedTravelConflict, travelConflictOf, type TravelRule } from './time-window';

/**
 * The acceptance rule (docs/decisions.md#d11, #d17): the one guarded way an invitation becomes
 * `aceito`, why one was refused, and the waiting list's promotion when a place is freed.
 */

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

/** The outer invitation's professional can travel to and from its other accepted events of those days (D23). */
export const notTravelConflict = (rule: TravelRule) =>
  sql`not ${acceptedTravelConflict(outer.profissionalId, outer.agendaId, rule)}`;

/**
 * The outer invitation's professional has declared no unavailability meeting its event
 * (services/availability/rule.ts), or an administrator invited it over one (`forcado`, D24).
 */
export const availableFor = (c: { forcado: SQL; profissionalId: SQL; agendaId: SQL }) =>
  sql`(${c.forcado} = 1 or not ${unavailableForAgenda(c.profissionalId, c.agendaId)})`;
const available = availableFor({ forcado: sql.raw('"convites"."forcado"'), ...outer });

/** Why an acceptance of the invitation `id` would be refused, as a read to batch BEFORE the guarded statement. */
const reasonRead = (db: Db, id: string, rule: TravelRule) =>
  db
    .select({
      quotaOpen: sql<number>`${quotaOpen}`,
      free: sql<number>`${notDoubleBooked}`,
      available: sql<number>`${available}`,
      travel: sql<string | null>`${travelConflictOf(outer.profissionalId, outer.agendaId, rule)}`,
    })
    .from(convites)
    .where(eq(convites.id, id));

export type Reason = { quotaOpen: number; free: number; available: number; travel: string | null } | undefined;

/**
 * Why a refused acceptance was refused, read after it (one more round trip, on that path only: the
 * accepted path does not pay for the rule twice). The state it reads is the one that refused it or a
 * later one; when the rule now holds, the caller answers that the invitation changed meanwhile.
 */
export const refusalReason = async (db: Db, id: string, rule: TravelRule): Promise<Reason> =>
  (await reasonRead(db, id, rule))[0];

/** TRAVEL_CONFLICT's fields (docs/decisions.md#d11): the other event, the minutes between the two, the travel. */
export interface TravelConflict {
  conflito_com: string;
  folga_min: number;
  deslocamento_min: number;
}

/** 409 TRAVEL_CONFLICT, its body carrying the conflict's fields. */
export const travelConflictError = (t: TravelConflict) =>
  new ApiError(
    'TRAVEL_CONFLICT',
    `não há tempo de deslocamento: o intervalo até outro evento aceito é de ${t.folga_min} min, e o deslocamento leva ${t.deslocamento_min} min mais a margem de segurança`,
    { extra: { ...t } },
  );

/**
 * The 409 of a refused acceptance, from the reason read in its batch; undefined when it was not
 * refused by the rule. The professional's own constraints first (declared unavailable, overlap,
 * travel), then the quota. `forcar`: an administrator passed unavailability and travel.
 */
export function refusal(r: Reason, forcar = false) {
  if (!r) return undefined;
  if (!forcar && !r.available)
    return new ApiError('PROFESSIONAL_UNAVAILABLE', 'o profissional declarou-se indisponível no horário deste evento');
  if (!r.free)
    return new ApiError('DOUBLE_BOOKED', 'o profissional já está aceito em outro evento em horário sobreposto');
  if (!forcar && r.travel) return travelConflictError(JSON.parse(r.travel) as TravelConflict);
  if (!r.quotaOpen) return new ApiError('QUOTA_FULL', 'a cota desta função no evento já está preenchida');
  return undefined;
}

/**
 * THE way an invitation becomes `aceito`: every path goes through here (the professional's accept,
 * an application accepted at once, an administrator's approval of `solicitado`, the waiting-list
 * promotion). One guarded UPDATE: the row chosen by `where`, in one of the `from` statuses, while the
 * function's quota is open, the professional is not double-booked (time window), has the time to
 * travel from and to its other accepted events (D23) and has not declared itself unavailable (D24;
 * an administrator's `forcar` passes these two, never the overlap or the quota, and its entry says
 * what it passed). SQLite runs writes one at a time, so of N racing for the last place exactly one
 * UPDATE sees the quota open, and of two conflicting acceptances of one professional the second
 * sees the first.
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
    /** The travel rule's parameters (values, or placeholders in a cached batch). */
    rule: TravelRule;
    /** An administrator passes a travel conflict and a declared unavailability (logged). */
    forcar?: boolean;
  },
) {
  const personal = o.forcar ? [] : [notTravelConflict(o.rule), available];
  const guard = and(o.where, inArray(convites.status, o.from), quotaOpen, notDoubleBooked, ...personal)!;
  // What a forced acceptance passed, read by its entry from the row before the update.
  const forced: Record<string, Change> = o.forcar
    ? {
        forcado: { depois: true },
        conflito_deslocamento: {
          depois: sql`json(${travelConflictOf(outer.profissionalId, outer.agendaId, o.rule)})`,
        },
        indisponivel: {
          depois: sql`json(iif(${unavailableForAgenda(outer.profissionalId, outer.agendaId)}, 'true', 'false'))`,
        },
      }
    : {};
  return {
    guard,
    writes: {
      // Before the guarded update, under the same guard: written exactly when the acceptance is.
      log: logRowWrite(
        { db, log },
        { table: convites, where: guard },
        {
          acao: o.acao,
          entidade: 'convites',
          regiao: conviteRegiao,
          dados: { status: { antes: convites.status, depois: 'aceito' }, ...forced },
        },
      ),
      update: db
        .update(convites)
        .set({ status: 'aceito', respondidoEm: o.now, updatedAt: o.now, ...o.set })
        .where(guard),
      // Its fee (docs/decisions.md#d18-finance), only if THIS acceptance happened (respondido_em = now).
      ...feeOnAccept({ db, log }, o.conviteId, { acceptedAt: o.now, id: o.feeId }),
    },
  };
}

/** The place a release frees, and this promotion's own ids. */
export interface Release {
  /** The event and function (SQL read from the released invitation in the batch; null: nothing released). */
  agendaId: string | SQL;
  funcaoId: string | SQL;
  now: string | SQL;
  /** This promotion's marker and its fee's id (placeholders in a cached batch); a new marker when absent. */
  promocaoId?: string | Placeholder;
  feeId?: string | Placeholder;
  /** The travel rule's parameters. */
  rule: TravelRule;
}

/**
 * THE statements to add to any batch in which an accepted invitation of (event, function) stops
 * being accepted (the professional declines, an administrator cancels): the oldest `espera`
 * invitation of that function whose professional could take it (not double-booked, no travel
 * conflict, not declared unavailable) becomes `aceito` through acceptStatements, and is notified. The choice is made by SQL inside the batch, so two
 * releases at once promote two different people. `notified` (to put after the writes) inserts the
 * promoted professional's notification and returns it, for the push message.
 */
export function releaseStatements(db: Db, log: LogSource, r: Release) {
  const { agendaId, funcaoId, now, promocaoId = crypto.randomUUID() } = r;
  const w = {
    forcado: sql.raw('w.forcado'),
    profissionalId: sql.raw('w.profissional_id'),
    agendaId: sql.raw('w.agenda_id'),
  };
  const next = sql`(select w.id from convites w
    where w.agenda_id = ${agendaId} and w.funcao_id = ${funcaoId} and w.status = 'espera'
      and not ${acceptedOverlap(w.profissionalId, w.agendaId)}
      and not ${acceptedTravelConflict(w.profissionalId, w.agendaId, r.rule)}
      and ${availableFor(w)}
    order by w.created_at, w.id limit 1)`;
  const { writes } = acceptStatements(db, log, {
    where: sql`${convites.id} = ${next}`,
    from: ['espera'],
    now,
    acao: 'convites.promote',
    set: { promocaoId: promocaoId as string },
    conviteId: sql`(select ${convites.id} from ${convites} where ${convites.promocaoId} = ${promocaoId})`,
    feeId: r.feeId,
    rule: r.rule,
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
