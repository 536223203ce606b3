import { sql, type SQL } from 'drizzle-orm';
import { agenda, convites, disponibilidades, type DisponibilidadeTipo } from '../../db/schema';
import { dayStart, eventCols, eventWindow, minutesOf } from '../agenda/event-window';

/**
 * THE availability rule (docs/decisions.md#d24): "is professional P unavailable during window W",
 * one SQL predicate that every effect reuses (the job listings, invitations, acceptance,
 * applications) and whose mirror refuses a declaration over an accepted invitation.
 *
 * A declaration covers, on each day d of `data_inicio`..`data_fim` whose weekday is in `dias_semana`
 * (all, when null), the interval [d + hora_inicio, d + hora_fim), or the whole day [d, d + 24 h).
 * Its intervals lie inside one day each. A window (an event's: services/agenda/event-window.ts) starts
 * on its day and lasts at most 24 hours, so only the declaration's intervals on the window's day and
 * the next can meet it. Both are half-open, in São Paulo minutes: an unavailability until 14:00 does
 * not touch an event starting at 14:00. The weekday is SQLite's `strftime('%w')` (0 Sunday).
 */

/** A time window: the YYYY-MM-DD day it starts on, and its start and end in São Paulo minutes. */
export interface Window {
  data: SQL;
  start: SQL;
  end: SQL;
}

/** A declaration's fields as SQL: a stored row's columns, or a request's values. */
export interface DeclSql {
  inicio: SQL;
  fim: SQL;
  horaInicio: SQL;
  horaFim: SQL;
  dias: SQL;
}

/** The columns of the `disponibilidades` row under `alias`. */
export const declCols = (alias: string): DeclSql => ({
  inicio: sql.raw(`${alias}.data_inicio`),
  fim: sql.raw(`${alias}.data_fim`),
  horaInicio: sql.raw(`${alias}.hora_inicio`),
  horaFim: sql.raw(`${alias}.hora_fim`),
  dias: sql.raw(`${alias}.dias_semana`),
});

/** The declaration covers day `day` (range and weekday). */
export const coversDay = (d: DeclSql, day: SQL) =>
  sql`(${d.inicio} <= ${day} and ${d.fim} >= ${day}
    and (${d.dias} is null or ((${d.dias} >> cast(strftime('%w', ${day}) as integer)) & 1) = 1))`;

/** The declaration's interval on day `day` meets the window. */
const meetsOn = (d: DeclSql, day: SQL, w: Window) =>
  sql`(${coversDay(d, day)}
    and ${dayStart(day)} + coalesce(${minutesOf(d.horaInicio)}, 0) < ${w.end}
    and ${w.start} < ${dayStart(day)} + coalesce(${minutesOf(d.horaFim)}, 1440))`;

/**
 * coversDay in JavaScript, for a declaration already read (the planner's days without events:
 * services/planning/capacidade.ts), where joining every day of a range in SQL would read each
 * declaration once per day. The same two conditions; test/routes/availability/rule.test.ts holds
 * them equal.
 */
export function coversDayOf(d: { data_inicio: string; data_fim: string; dias_semana: number | null }, day: string) {
  if (day < d.data_inicio || day > d.data_fim) return false;
  return d.dias_semana === null || ((d.dias_semana >> new Date(`${day}T00:00:00Z`).getUTCDay()) & 1) === 1;
}

/** The declaration meets the window on the window's day or the next. */
export const declMeets = (d: DeclSql, w: Window) =>
  sql`(${meetsOn(d, w.data, w)} or ${meetsOn(d, sql`date(${w.data}, '+1 day')`, w)})`;

/**
 * P has a declaration of `tipo` meeting W. The declarations are read from P's rows of that `tipo` in
 * disponibilidades_profissional_tipo_idx, by range (the index holds every column the rule reads).
 */
export function declaredDuring(profissionalId: SQL, w: Window, tipo: DisponibilidadeTipo) {
  return sql`exists (select 1 from ${disponibilidades} av_d
    where av_d.profissional_id = ${profissionalId} and av_d.tipo = ${sql.raw(`'${tipo}'`)}
      and av_d.data_inicio <= date(${w.data}, '+1 day') and av_d.data_fim >= ${w.data}
      and ${declMeets(declCols('av_d'), w)})`;
}

/** P has an `indisponivel` declaration meeting W. */
export const unavailableDuring = (profissionalId: SQL, w: Window) => declaredDuring(profissionalId, w, 'indisponivel');

/** The window of the agenda row under `alias` (its `data_evento` is the window's day). */
export const eventWindowOf = (alias: string): Window => {
  const cols = eventCols(alias);
  return { data: cols.data, ...eventWindow(cols) };
};

/** P is unavailable during the window of the agenda event under `alias`. */
export const unavailableForEvent = (profissionalId: SQL, alias: string) =>
  unavailableDuring(profissionalId, eventWindowOf(alias));

/**
 * P is unavailable during the window of the event whose id is `agendaId` (SQL: a column of the outer
 * row, or a value): the acceptance's guard and an invitation's or application's insert, which do not
 * join the event (docs/decisions.md#d24, "Effects").
 */
export function unavailableForAgenda(profissionalId: SQL, agendaId: SQL) {
  // The same predicate as unavailableDuring, its formula in a derived table: there its depth does not
  // add to the enclosing expressions' (D1 counts every enclosing expression of a subquery against its
  // limit of 100, and the acceptance nests this inside its guard and the promotion's choice).
  const w = eventWindowOf('av_e');
  return sql`exists (select 1 from (select ${declMeets(declCols('av_d'), w)} as meets
      from ${agenda} av_e join ${disponibilidades} av_d
      where av_e.id = ${agendaId} and av_d.profissional_id = ${profissionalId} and av_d.tipo = 'indisponivel'
        and av_d.data_inicio <= date(av_e.data_evento, '+1 day') and av_d.data_fim >= av_e.data_evento) av
    where av.meets)`;
}

/**
 * P's accepted invitations (`convites` joined to their `agenda` event) whose event window meets
 * declaration `d`: the mirror of the rule, a new `indisponivel` over them is 409 HAS_ASSIGNMENT.
 * An event of the day before the range can reach into its first day. A condition on the two tables
 * under their own names.
 */
export const acceptedMeeting = (profissionalId: SQL, d: DeclSql) =>
  sql`${convites.profissionalId} = ${profissionalId} and ${convites.status} = 'aceito'
      and ${convites.dataEvento} between date(${d.inicio}, '-1 day') and ${d.fim}
      and ${agenda.dataEvento} between date(${d.inicio}, '-1 day') and ${d.fim}
      and ${declMeets(d, eventWindowOf('agenda'))}`;
