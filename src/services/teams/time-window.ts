import { sql, type SQL } from 'drizzle-orm';
import type { Config } from '../../env';
import { eventCols as cols, eventWindow as window, type EventCols } from '../agenda/event-window';
import { placeCols, travelMinutesSql } from '../places/deslocamentos';

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
  // The window formula in a derived table: its depth does not add to the enclosing expressions'
  // (travelPairs below says why).
  return sql`exists (select 1 from (
    select ${windowsOverlap(cols('tw_a'), cols('tw_e'))} as sobrepoe
    from convites tw_c join agenda tw_a on tw_a.id = tw_c.agenda_id join agenda tw_e on tw_e.id = ${agendaId}
    where tw_c.profissional_id = ${profissionalId} and tw_c.status = 'aceito' and tw_c.agenda_id <> tw_e.id
      and tw_c.data_evento between date(tw_e.data_evento, '-1 day') and date(tw_e.data_evento, '+1 day')
      and tw_a.data_evento between date(tw_e.data_evento, '-1 day') and date(tw_e.data_evento, '+1 day')
  ) tw where tw.sobrepoe)`;
}

/** The travel rule's parameters (docs/decisions.md#d11): same-city minutes and the margin, as SQL (values or placeholders). */
export interface TravelRule {
  /** DESLOCAMENTO_MESMA_CIDADE_MIN. */
  mesmaCidade: SQL;
  /** MARGEM_DESLOCAMENTO_MIN. */
  margem: SQL;
}

/**
 * The professional's accepted events of the day before, the same day and the day after the event
 * `agendaId` that do not overlap it, as a derived table `tt`: each with the slack between the two
 * (`folga`, minutes from the earlier one's end to the later one's start) and the travel from the
 * earlier one's place to the later one's (`desl`, services/places/deslocamentos.ts
 * travelMinutesSql). Only events with a city on both sides (the joins): an unknown city has no
 * travel rule, only the overlap; an event without a city stops at its own row. The formula sits in
 * a derived table so that its depth does not add to the enclosing expressions' (D1 counts every
 * enclosing expression of a subquery against its limit of 100).
 */
function travelPairs(profissionalId: SQL, agendaId: SQL, rule: TravelRule) {
  const wa = window(cols('tt_a'));
  const we = window(cols('tt_e'));
  const aFirst = sql`(${wa.end} <= ${we.start})`;
  const eFirst = sql`(${we.end} <= ${wa.start})`;
  const o = { regiao: sql.raw('tt_e.regiao'), mesmaCidade: rule.mesmaCidade };
  const a = placeCols('tt_a', 'tt_ca');
  const e = placeCols('tt_e', 'tt_ce');
  const folga = sql`(case when ${aFirst} then ${we.start} - ${wa.end} when ${eFirst} then ${wa.start} - ${we.end} end)`;
  const desl = sql`(case when ${aFirst} then ${travelMinutesSql(a, e, o)} when ${eFirst} then ${travelMinutesSql(e, a, o)} end)`;
  const rows = sql`(select tt_a.id as com, ${folga} as folga, ${desl} as desl
    from agenda tt_e join cidades tt_ce on tt_ce.codigo_ibge = tt_e.cidade_ibge
      join convites tt_c join agenda tt_a on tt_a.id = tt_c.agenda_id
      join cidades tt_ca on tt_ca.codigo_ibge = tt_a.cidade_ibge
    where tt_e.id = ${agendaId}
      and tt_c.profissional_id = ${profissionalId} and tt_c.status = 'aceito' and tt_c.agenda_id <> tt_e.id
      and tt_c.data_evento between date(tt_e.data_evento, '-1 day') and date(tt_e.data_evento, '+1 day')
      and tt_a.data_evento between date(tt_e.data_evento, '-1 day') and date(tt_e.data_evento, '+1 day')) tt`;
  // A gap shorter than the travel plus the margin; a gap exactly equal is enough.
  const short = sql`tt.folga < tt.desl + ${rule.margem}`;
  return { rows, short };
}

/**
 * TRAVEL_CONFLICT (docs/decisions.md#d11, amended by D23): the professional is accepted on another
 * event of the day before, the same day or the day after that leaves less time between the two than
 * the travel from the earlier one's place to the later one's plus the margin. Used by every path to
 * `aceito` (inside its guarded statement) unless an administrator forces it.
 */
export function acceptedTravelConflict(profissionalId: SQL, agendaId: SQL, rule: TravelRule) {
  const t = travelPairs(profissionalId, agendaId, rule);
  return sql`exists (select 1 from ${t.rows} where ${t.short})`;
}

/**
 * The travel conflict as the API answers it (TRAVEL_CONFLICT's body, the job listing's
 * `conflito_deslocamento`): JSON `{conflito_com, folga_min, deslocamento_min}` of the tightest one
 * (the least time left after travel and margin), or null.
 */
export function travelConflictOf(profissionalId: SQL, agendaId: SQL, rule: TravelRule) {
  const t = travelPairs(profissionalId, agendaId, rule);
  // SQLite's min() takes the bare columns from the row it picks: the tightest without a sort (the
  // job listings' plan has none per row). No conflict: the aggregate's one row, without a JSON.
  return sql`(select iif(tightest is null, null, j) from (select min(tt.folga - tt.desl) as tightest,
    json_object('conflito_com', tt.com, 'folga_min', tt.folga, 'deslocamento_min', tt.desl) as j
    from ${t.rows} where ${t.short}))`;
}

/** The travel rule of the deployment's vars, as bound values. */
export const travelRuleOf = (config: Pick<Config, 'DESLOCAMENTO_MESMA_CIDADE_MIN' | 'MARGEM_DESLOCAMENTO_MIN'>) => ({
  mesmaCidade: sql`${config.DESLOCAMENTO_MESMA_CIDADE_MIN}`,
  margem: sql`${config.MARGEM_DESLOCAMENTO_MIN}`,
});
