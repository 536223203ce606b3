import { sql, type SQL } from 'drizzle-orm';
import { eventCols as cols, eventWindow as window, type EventCols } from '../agenda/event-window';

/**
 * Double booking by time window (docs/decisions.md#d11, as amended): the ONE rule deciding whether
 * two agenda events collide for a professional. An event's window (services/agenda/event-window.ts)
 * is `data_evento` from `horario` to `horario_fim` (an end not after the start means the next day);
 * without `horario_fim` it lasts 5 hours; without `horario` it is the whole day. Windows
 * are half-open: one that ends when the other starts does not overlap it (the colação ends 17:00, the
 * baile starts 17:00: both).
 */
/** The two events' windows overlap (half-open intervals). */
function windowsOverlap(a: EventCols, b: EventCols) {
  const wa = window(a);
  const wb = window(b);
  return sql`(${wa.start} < ${wb.end} and ${wb.start} < ${wa.end})`;
}

/**
 * The professional is already `aceito` on ANOTHER event whose window overlaps the window of the
 * event `agendaId`. Used by every path to `aceito` (services/teams/acceptance.ts acceptStatements) and by
 * the job listing's `conflito_horario`. A window lasts at most a day, so only events of the day
 * before, the same day and the day after are compared: the invitations' kept copy of their event's
 * date (drizzle/0042) narrows convites_profissional_status_idx to those days, and the events' own
 * dates decide.
 */
export function acceptedOverlap(profissionalId: SQL, agendaId: SQL) {
  return sql`exists (
    select 1 from convites tw_c join agenda tw_a on tw_a.id = tw_c.agenda_id join agenda tw_e on tw_e.id = ${agendaId}
    where tw_c.profissional_id = ${profissionalId} and tw_c.status = 'aceito' and tw_c.agenda_id <> tw_e.id
      and tw_c.data_evento between date(tw_e.data_evento, '-1 day') and date(tw_e.data_evento, '+1 day')
      and tw_a.data_evento between date(tw_e.data_evento, '-1 day') and date(tw_e.data_evento, '+1 day')
      and ${windowsOverlap(cols('tw_a'), cols('tw_e'))}
  )`;
}
