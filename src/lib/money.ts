import { daysInMonth, isoDateOf, utcMs } from './dates';

/** BRL on the wire is a JSON number with at most 2 decimals; in the database, integer cents. */
export const toCentavos = (valor: number) => Math.round(valor * 100);
export const fromCentavos = (centavos: number) => centavos / 100;

/**
 * An amount in reais as integer cents only when it IS a whole number of cents (10.01 → 1001), else
 * null (10.005, 1e-7): never rounded, so an outside figure off by a fraction of a cent is not taken
 * for the price. `c / 100` is the double nearest to the decimal c/100, the same double a parser makes
 * of that decimal, so the comparison is exact.
 */
export function exactCentavos(valor: number): number | null {
  const c = Math.round(valor * 100);
  return Number.isSafeInteger(c) && c / 100 === valor ? c : null;
}

/**
 * True when the number has at most `decimals` decimals, tolerating the noise of its binary form: a few
 * units in the last place of v × 10^decimals, however large v is (a fixed 1e-6 refused about one
 * valid amount in twelve above R$ 100 million, which the document's `multipleOf: 0.01` allows).
 */
export function hasAtMostDecimals(v: number, decimals: number): boolean {
  const scaled = v * 10 ** decimals;
  return Math.abs(scaled - Math.round(scaled)) <= Math.max(1e-6, Math.abs(scaled) * 1e-14);
}

/** True when the number has at most 2 decimals (a BRL amount). */
export const hasAtMost2Decimals = (v: number) => hasAtMostDecimals(v, 2);

/**
 * Splits `totalCentavos` into `n` installments whose sum is exact: every installment but the last is
 * floor(total / n), the last absorbs the remainder (so it is at most n-1 cents larger).
 */
export function splitCentavos(totalCentavos: number, n: number): number[] {
  if (!Number.isSafeInteger(totalCentavos) || !Number.isInteger(n) || n < 1) throw new RangeError('splitCentavos');
  const base = Math.floor(totalCentavos / n);
  return Array.from({ length: n }, (_, i) => (i === n - 1 ? totalCentavos - base * (n - 1) : base));
}

/**
 * The date `months` calendar months after `date` (YYYY-MM-DD), on the same day of the month, or the
 * month's last day when it has no such day: 2027-01-31 + 1 month = 2027-02-28. Always counted from
 * the first date (never chained), so 31 Jan → 28 Feb → 31 Mar. Undefined past 9999-12-31.
 */
export function addMonths(date: string, months: number): string | undefined {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const first = new Date(utcMs(y, m + months, 1));
  const [fy, fm] = [first.getUTCFullYear(), first.getUTCMonth() + 1];
  return isoDateOf(utcMs(fy, fm, Math.min(d, daysInMonth(fy, fm))));
}

/**
 * A percentage given as a JSON number (e.g. 7.5, 27.5, 0.01) as an integer of hundred-thousandths of a
 * percent (7.5 → 750000): rates take at most 4 decimals, so the arithmetic below is integer-exact.
 */
export const rateUnits = (pct: number) => Math.round(pct * 100_000);
const RATE_DIVISOR = 100n * 100_000n; // percent × units

/** `centavos × pct%`, rounded half-up to the cent, in integer (BigInt) arithmetic: no float error. */
export function percentOf(centavos: number, pct: number): number {
  const num = BigInt(centavos) * BigInt(rateUnits(pct));
  // half-up for non-negative amounts: floor((num + div/2) / div)
  return Number((num + RATE_DIVISOR / 2n) / RATE_DIVISOR);
}

export interface TaxTable {
  /** % */
  inssAliquota: number;
  inssTetoCentavos: number;
  /** Brackets ascending; `ateCentavos` null on the last. */
  irrfFaixas: { ateCentavos: number | null; aliquota: number; deducaoCentavos: number }[];
  issAliquota: number;
}

export interface Withholding {
  inss: number;
  irrf: number;
  iss: number;
  liquido: number;
}

/**
 * Withholding of an `autonomo_rpa` payment (docs/decisions.md#d18-finance "Tax"), all in cents, each
 * figure rounded half-up to the cent on its own:
 *   INSS = min(bruto, teto) × inss%;  base = bruto − INSS;
 *   IRRF = max(0, base × aliquota% − deducao) for the first bracket whose `ate` ≥ base (null = no bound);
 *   ISS  = bruto × iss%;  liquido = bruto − INSS − IRRF − ISS.
 */
export function withholding(brutoCentavos: number, t: TaxTable): Withholding {
  const inss = percentOf(Math.min(brutoCentavos, t.inssTetoCentavos), t.inssAliquota);
  const base = brutoCentavos - inss;
  const faixa = t.irrfFaixas.find((f) => f.ateCentavos === null || base <= f.ateCentavos);
  const irrf = faixa ? Math.max(0, percentOf(base, faixa.aliquota) - faixa.deducaoCentavos) : 0;
  const iss = percentOf(brutoCentavos, t.issAliquota);
  return { inss, irrf, iss, liquido: brutoCentavos - inss - irrf - iss };
}
