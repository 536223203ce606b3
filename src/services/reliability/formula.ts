/**
 * The reliability score's rules (docs/decisions.md#d28), in one place: what each outcome is worth,
 * how it decays, how the prior weighs. The SQL that keeps the score (ledger.ts) and the explanations
 * the professional reads (view.ts) both take them from here.
 *
 *   R = 100 x (K·m + Σ w·d·r) / (K + Σ w·d),  d = 2^(-age_days / HALF_LIFE_DAYS)
 *
 * with r the row's credit (0-1), w its weight, m the region's mean credit and K = PRIOR_WEIGHT.
 */

/** Days after which a row counts half: people recover. */
export const HALF_LIFE_DAYS = 180;
/** How many on-time events' worth the region's mean weighs: a newcomer starts at the region's mean. */
export const PRIOR_WEIGHT = 3;
/** `novo` while the weights of the rows that count sum to less than this. */
export const NOVO_BELOW = 3;
/** The region's mean credit while its ledger is empty (a region's first rows move it). */
export const PRIOR_PADRAO = 0.85;
/**
 * The research aggregates' floor (k-anonymity): a region's figures of a kind are shown only when at
 * least this many distinct professionals have rows of that kind there (docs/decisions.md#d28).
 */
export const MIN_PROFISSIONAIS_AGREGADO = 5;

export interface Outcome {
  credito: number;
  peso: number;
}

/** Check-in at the entry (D27): late against the call time, or the start. */
export function chegada(atrasoMin: number): Outcome {
  if (atrasoMin <= 5) return { credito: 1, peso: 1 };
  if (atrasoMin <= 15) return { credito: 0.8, peso: 1 };
  if (atrasoMin <= 60) return { credito: 0.5, peso: 1 };
  return { credito: 0.2, peso: 1 };
}
/** The lateness thresholds (minutes, inclusive upper bounds) as SQL's CASE reads them, with their outcomes. */
export const CHEGADA_FAIXAS = [
  { ate: 5, ...chegada(5) },
  { ate: 15, ...chegada(15) },
  { ate: 60, ...chegada(60) },
] as const;
export const CHEGADA_ACIMA = chegada(61);

export const FALTA: Outcome = { credito: 0, peso: 2 };
export const SEM_CONFIRMACAO: Outcome = { credito: 0.5, peso: 0.5 };

const HOUR_MIN = 60;
const DAY_MIN = 24 * HOUR_MIN;
/** A cancellation this early (or earlier) is neutral, as is one within NEUTRAL_AFTER_ACCEPT_MIN of accepting. */
export const CANCEL_NEUTRAL_MIN = 7 * DAY_MIN;
export const NEUTRAL_AFTER_ACCEPT_MIN = 10;
/** Cancellation bands by minutes before the start (lower bounds, inclusive), latest band last. */
export const CANCEL_FAIXAS = [
  { desde: 72 * HOUR_MIN, credito: 0.6, peso: 1 },
  { desde: 24 * HOUR_MIN, credito: 0.3, peso: 1 },
] as const;
export const CANCEL_TARDE: Outcome = { credito: 0.1, peso: 1.5 };

/** The professional cancels an accepted invitation `antesMin` minutes before the start (undefined: neutral). */
export function cancelamento(antesMin: number): Outcome | undefined {
  if (antesMin >= CANCEL_NEUTRAL_MIN) return undefined;
  for (const f of CANCEL_FAIXAS) if (antesMin >= f.desde) return { credito: f.credito, peso: f.peso };
  return CANCEL_TARDE;
}

/** D16's deadline for the presence confirmation: this many hours before the start (when the office is told). */
export const CONFIRMACAO_PRAZO_H = 12;

/** The decay of a row `ageDays` old. */
export const decay = (ageDays: number) => 2 ** (-ageDays / HALF_LIFE_DAYS);

export interface Row extends Outcome {
  ocorridoEm: string;
  abonado: boolean;
}

const DAY_MS = 86_400_000;
export const ageDays = (ocorridoEm: string, now: Date) => (now.getTime() - Date.parse(ocorridoEm)) / DAY_MS;

/** The sums behind a score: of the rows that count (not excused), Σ w·d·r, Σ w·d and Σ w. */
export function sums(rows: readonly Row[], now: Date) {
  let wdr = 0;
  let wd = 0;
  let w = 0;
  for (const r of rows) {
    if (r.abonado) continue;
    const d = decay(ageDays(r.ocorridoEm, now));
    wdr += r.peso * d * r.credito;
    wd += r.peso * d;
    w += r.peso;
  }
  return { wdr, wd, w };
}

/** R (0-100, unrounded) from the sums and the region's mean credit m. */
export const scoreOf = (s: { wdr: number; wd: number }, m: number) =>
  (100 * (PRIOR_WEIGHT * m + s.wdr)) / (PRIOR_WEIGHT + s.wd);

/** The score of a ledger at `now`: R, whether the professional is still `novo`, the weight behind it. */
export function score(rows: readonly Row[], m: number, now: Date) {
  const s = sums(rows, now);
  return { valor: scoreOf(s, m), novo: s.w < NOVO_BELOW, peso: s.w, sums: s };
}

/** What one row (that counts) moves the score by: R minus R without it, in points. */
export function effectOf(row: Row, all: { wdr: number; wd: number }, m: number, now: Date) {
  if (row.abonado) return 0;
  const d = decay(ageDays(row.ocorridoEm, now));
  const without = { wdr: all.wdr - row.peso * d * row.credito, wd: all.wd - row.peso * d };
  return scoreOf(all, m) - scoreOf(without, m);
}
