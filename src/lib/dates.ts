import { sql, type SQLWrapper } from 'drizzle-orm';

/**
 * Dates on the wire are YYYY-MM-DD, any year 0000-9999 of the proleptic Gregorian calendar (what
 * OpenAPI's `format: date`, RFC 3339 full-date, allows). Every date field and date query parameter
 * is checked by `dateProblem()` and every date computation goes through `utcMs()`, so one rule holds
 * everywhere. `Date.UTC(y, ...)` itself cannot be used: it reads a year 0-99 as 1900-1999.
 */
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The instant (ms) of a UTC calendar time; month is 1-12 and may overflow, as may the day. */
export function utcMs(y: number, month: number, d: number, hh = 0, mm = 0): number {
  const dt = new Date(0);
  // setUTCFullYear takes a year 0-99 literally, and resolves an overflowing month or day in that year.
  dt.setUTCFullYear(y, month - 1, d);
  return dt.setUTCHours(hh, mm, 0, 0);
}

/**
 * Why a string is not a date: `'formato'` (not YYYY-MM-DD), `'inexistente'` (2027-02-30), or
 * undefined when it is one.
 */
export function dateProblem(v: string): 'formato' | 'inexistente' | undefined {
  const m = DATE_RE.exec(v);
  if (!m) return 'formato';
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return 'inexistente';
  return undefined;
}

/** A real calendar date in YYYY-MM-DD (years 0000-9999). */
export const isIsoDate = (v: string) => dateProblem(v) === undefined;

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
export const daysInMonth = (y: number, month: number) =>
  month === 2 ? (isLeap(y) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;

/**
 * The sentence for a value that is not a date: `shape` says what is expected; an impossible day
 * (2027-02-30) is also named as such, so it reads apart from a malformed value.
 */
export const dateMessage = (shape: string, day: string | undefined) =>
  day && dateProblem(day) === 'inexistente' ? `${shape} (a data ${day} não existe)` : shape;

/** The last instant the wire forms can write (toISOString() of a later one starts with "+010000"). */
const MAX_MS = Date.parse('9999-12-31T23:59:59.999Z');
const MIN_MS = Date.parse('0000-01-01T00:00:00.000Z');

/**
 * An instant as ISO-8601 UTC text, held within years 0000-9999 so that it still compares as text
 * with the stored timestamps (the day after 9999-12-31 is kept at its last millisecond).
 */
export const isoInstant = (ms: number) => new Date(Math.min(MAX_MS, Math.max(MIN_MS, ms))).toISOString();

/** A date (YYYY-MM-DD) of an instant, or undefined when the instant is past 9999-12-31. */
export function isoDateOf(ms: number): string | undefined {
  if (ms > MAX_MS || ms < MIN_MS) return undefined;
  return new Date(ms).toISOString().slice(0, 10);
}

/** Every YYYY-MM-DD day from `de` to `ate` (both dates; empty when `ate` is before `de`). */
export function daysFrom(de: string, ate: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${de}T00:00:00Z`); t <= Date.parse(`${ate}T00:00:00Z`); t += 86_400_000)
    out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

const ISO_INSTANT_RE = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,3})?Z$/;
/** An ISO-8601 UTC instant as the API writes them (`2026-11-22T01:21:00.000Z`), on a real date. */
export const isIsoInstant = (s: string) => {
  const m = ISO_INSTANT_RE.exec(s);
  return !!m && isIsoDate(m[1]!);
};

/** HH:MM, 24 h. */
export const isTime = (v: string) => /^([01]\d|2[0-3]):[0-5]\d$/.test(v);

/** America/Sao_Paulo is UTC-3 all year (no daylight saving since 2019). */
const SAO_PAULO_OFFSET_MS = 3 * 3600 * 1000;

/** The instant a São Paulo calendar day (YYYY-MM-DD) starts, as ISO-8601 UTC; `days` later when given. */
export function saoPauloDayStart(date: string, days = 0): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return isoInstant(utcMs(y, m, d + days) + SAO_PAULO_OFFSET_MS);
}

/**
 * The instant an event starts (docs/decisions.md#d16): `data_evento` + `horario` in São Paulo time;
 * without `horario`, the start of that day.
 */
export function eventStart(dataEvento: string, horario: string | null | undefined): Date {
  const [y, m, d] = dataEvento.split('-').map(Number) as [number, number, number];
  const [hh, mm] = (horario ?? '00:00').split(':').map(Number) as [number, number];
  return new Date(utcMs(y, m, d, hh, mm) + SAO_PAULO_OFFSET_MS);
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

/** The day after a YYYY-MM-DD date (an all-day event's exclusive end); undefined after 9999-12-31. */
export function nextDay(date: string): string | undefined {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return isoDateOf(utcMs(y, m, d + 1));
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
