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

/** The São Paulo calendar date (YYYY-MM-DD) at an instant. */
export const saoPauloDate = (now: Date): string =>
  new Date(now.getTime() - SAO_PAULO_OFFSET_MS).toISOString().slice(0, 10);
