import { sql, type SQLWrapper } from 'drizzle-orm';

/** A real calendar date in YYYY-MM-DD. */
export function isIsoDate(v: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const dt = new Date(Date.UTC(y, mo - 1, d));
  return dt.getUTCFullYear() === y && dt.getUTCMonth() === mo - 1 && dt.getUTCDate() === d;
}

/** HH:MM, 24 h. */
export const isTime = (v: string) => /^([01]\d|2[0-3]):[0-5]\d$/.test(v);

/** America/Sao_Paulo is UTC-3 all year (no daylight saving since 2019). */
const SAO_PAULO_OFFSET_MS = 3 * 3600 * 1000;

/** The instant a São Paulo calendar day (YYYY-MM-DD) starts, as ISO-8601 UTC; `days` later when given. */
export function saoPauloDayStart(date: string, days = 0): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days) + SAO_PAULO_OFFSET_MS).toISOString();
}

/**
 * The instant an event starts (docs/decisions-2 D16): `data_evento` + `horario` in São Paulo time;
 * without `horario`, the start of that day.
 */
export function eventStart(dataEvento: string, horario: string | null | undefined): Date {
  const [y, m, d] = dataEvento.split('-').map(Number) as [number, number, number];
  const [hh, mm] = (horario ?? '00:00').split(':').map(Number) as [number, number];
  return new Date(Date.UTC(y, m - 1, d, hh, mm) + SAO_PAULO_OFFSET_MS);
}

const HOUR_MS = 3600 * 1000;
/** Without `horario_fim` an event lasts this long (docs/decisions.md#d11 as amended). */
export const DEFAULT_EVENT_HOURS = 5;

/**
 * An event's window (D11 as amended): from `horario` to `horario_fim` (an end before the start is
 * the next day), 5 hours without an end; without `horario`, the whole day (`allDay`).
 */
export function eventWindow(ev: { dataEvento: string; horario: string | null; horarioFim?: string | null }) {
  if (!ev.horario) return { allDay: true as const, start: eventStart(ev.dataEvento, null) };
  const start = eventStart(ev.dataEvento, ev.horario);
  let end = ev.horarioFim
    ? eventStart(ev.dataEvento, ev.horarioFim)
    : new Date(start.getTime() + DEFAULT_EVENT_HOURS * HOUR_MS);
  if (end.getTime() <= start.getTime()) end = new Date(end.getTime() + 24 * HOUR_MS);
  return { allDay: false as const, start, end };
}

/** The day after a YYYY-MM-DD date (an all-day event's exclusive end). */
export function nextDay(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}

/**
 * `eventStart` in SQL, for set-based jobs: the ISO-8601 UTC instant (same text form as
 * Date.toISOString(), so it compares with one as text) of `data_evento` + `horario` (São Paulo).
 */
export const eventStartSql = (dataEvento: SQLWrapper, horario: SQLWrapper) =>
  sql<string>`strftime('%Y-%m-%dT%H:%M:%fZ', ${dataEvento} || ' ' || coalesce(${horario}, '00:00'), '+3 hours')`;
/** The São Paulo calendar date (YYYY-MM-DD) at an instant; `days` later when given. */
export const saoPauloDate = (now: Date, days = 0): string =>
  new Date(now.getTime() - SAO_PAULO_OFFSET_MS + days * 24 * HOUR_MS).toISOString().slice(0, 10);
