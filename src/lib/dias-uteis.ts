import { isoDateOf, utcMs } from './dates';

/**
 * Calendar arithmetic on YYYY-MM-DD strings (docs/decisions.md#d25): no time zone ever enters, a
 * date stays the São Paulo wall-clock day it names.
 */

const parts = (date: string) => date.split('-').map(Number) as [number, number, number];

/** `date` moved by `days` (negative: back); undefined outside years 0000-9999. */
export function addDays(date: string, days: number): string | undefined {
  const [y, m, d] = parts(date);
  return isoDateOf(utcMs(y, m, d + days));
}

/** 0 Sunday ... 6 Saturday. */
export function weekday(date: string): number {
  const [y, m, d] = parts(date);
  return new Date(utcMs(y, m, d)).getUTCDay();
}

/** `2026-12-03` → `03/12/2026`, for sentences. */
export const brDate = (date: string) => date.split('-').reverse().join('/');

/** A day that is not a business day and why (a holiday's name, or the weekend). */
export interface DiaPulado {
  data: string;
  motivo: string;
}

/**
 * The day `n` business days before `date`: counting back from the day before (the date's own day
 * is not counted), over weekdays that are not in `naoUteis` (date → the holiday's name). Also
 * answers the holidays skipped on the way (weekends are not listed). n = 0 is the date itself.
 */
export function diasUteisAntes(date: string, n: number, naoUteis: ReadonlyMap<string, string>) {
  const pulados: DiaPulado[] = [];
  let d = date;
  let counted = 0;
  while (counted < n) {
    const prev = addDays(d, -1);
    if (prev === undefined) break;
    d = prev;
    const wd = weekday(d);
    const feriado = naoUteis.get(d);
    if (wd === 0 || wd === 6) continue;
    if (feriado !== undefined) {
      pulados.push({ data: d, motivo: feriado });
      continue;
    }
    counted++;
  }
  return { data: d, pulados };
}
