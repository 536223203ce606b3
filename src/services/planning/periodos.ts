import { ApiError } from '../../lib/errors';

/** The planner's days and weeks (docs/decisions.md#d26): dates as YYYY-MM-DD, counted in UTC days. */

/** At most this many days per request (D26). */
export const MAX_DIAS = 120;

const DAY_MS = 86_400_000;
const dayMs = (d: string) => Date.parse(`${d}T00:00:00Z`);
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The first day of the API's calendar (lib/dates.ts: years 0000-9999). */
const FIRST_DAY_MS = dayMs('0000-01-01');

/**
 * The Monday of a day's week; the calendar's first day for the days before year 0000's first Monday
 * (0000-01-01 is a Saturday: its Monday is no date the API can write).
 */
export const mondayOf = (d: string) =>
  isoDay(Math.max(FIRST_DAY_MS, dayMs(d) - ((new Date(dayMs(d)).getUTCDay() + 6) % 7) * DAY_MS));

/** 400 unless `de` <= `ate` and the range holds at most MAX_DIAS days. */
export function checkRange(q: { de: string; ate: string }) {
  if (q.ate < q.de) throw new ApiError('VALIDATION_FAILED', 'ate: não pode ser antes de de');
  if ((dayMs(q.ate) - dayMs(q.de)) / DAY_MS + 1 > MAX_DIAS)
    throw new ApiError('VALIDATION_FAILED', `ate: no máximo ${MAX_DIAS} dias a partir de de`);
}
