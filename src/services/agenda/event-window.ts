import { sql, type SQL } from 'drizzle-orm';
import { DEFAULT_EVENT_HOURS } from '../../lib/dates';

/**
 * An agenda event's time window (docs/decisions.md#d11, as amended), in SQL: `data_evento` from
 * `horario` to `horario_fim` (an end not after the start means the next day); without `horario_fim`
 * it lasts DEFAULT_DURATION_MIN; without `horario` it is the whole day. Minutes since 1970-01-01 00:00
 * São Paulo time (UTC-3 all year, so comparing local minutes compares instants). The double-booking
 * rule (services/teams/time-window.ts) and the availability rule (services/availability/) both read
 * an event's window from here.
 */
export const DEFAULT_DURATION_MIN = DEFAULT_EVENT_HOURS * 60;

export interface EventCols {
  data: SQL;
  horario: SQL;
  fim: SQL;
}

/** The window columns of the agenda row under `alias`. */
export const eventCols = (alias: string): EventCols => ({
  data: sql.raw(`${alias}.data_evento`),
  horario: sql.raw(`${alias}.horario`),
  fim: sql.raw(`${alias}.horario_fim`),
});

/** HH:MM as minutes since midnight (null stays null). */
export const minutesOf = (hhmm: SQL) =>
  sql`(cast(substr(${hhmm}, 1, 2) as integer) * 60 + cast(substr(${hhmm}, 4, 2) as integer))`;
/** The minute a YYYY-MM-DD day starts. */
export const dayStart = (data: SQL) => sql`(cast(strftime('%s', ${data}) as integer) / 60)`;

/** Start and end of an event's window, half-open. */
export function eventWindow(e: EventCols) {
  const day = dayStart(e.data);
  const start = sql`(${day} + coalesce(${minutesOf(e.horario)}, 0))`;
  const end = sql`(case
    when ${e.horario} is null then ${day} + 1440
    when ${e.fim} is null then ${day} + ${minutesOf(e.horario)} + ${sql.raw(String(DEFAULT_DURATION_MIN))}
    when ${e.fim} > ${e.horario} then ${day} + ${minutesOf(e.fim)}
    else ${day} + 1440 + ${minutesOf(e.fim)} end)`;
  return { start, end };
}
