/** BRL on the wire is a JSON number with at most 2 decimals; in the database, integer cents. */
export const toCentavos = (valor: number) => Math.round(valor * 100);
export const fromCentavos = (centavos: number) => centavos / 100;

/** True when the number has at most 2 decimals (tolerating binary representation noise). */
export const hasAtMost2Decimals = (v: number) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6;
