export const UFS = [
  'AC',
  'AL',
  'AP',
  'AM',
  'BA',
  'CE',
  'DF',
  'ES',
  'GO',
  'MA',
  'MT',
  'MS',
  'MG',
  'PA',
  'PB',
  'PR',
  'PE',
  'PI',
  'RJ',
  'RN',
  'RS',
  'RO',
  'RR',
  'SC',
  'SP',
  'SE',
  'TO',
] as const;

const ufSet = new Set<string>(UFS);
export const isUf = (v: string) => ufSet.has(v.toUpperCase());

const digitsOnly = (v: string) => v.replace(/\D/g, '');

function cpfValid(d: string): boolean {
  if (d.length !== 11 || /^(\d)\1{10}$/.test(d)) return false;
  const check = (len: number) => {
    let sum = 0;
    for (let i = 0; i < len; i++) sum += Number(d[i]) * (len + 1 - i);
    const r = (sum * 10) % 11;
    return r === 10 ? 0 : r;
  };
  return check(9) === Number(d[9]) && check(10) === Number(d[10]);
}

function cnpjValid(d: string): boolean {
  if (d.length !== 14 || /^(\d)\1{13}$/.test(d)) return false;
  const check = (len: number) => {
    const weights = len === 12 ? [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] : [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
    let sum = 0;
    for (let i = 0; i < len; i++) sum += Number(d[i]) * weights[i]!;
    const r = sum % 11;
    return r < 2 ? 0 : 11 - r;
  };
  return check(12) === Number(d[12]) && check(13) === Number(d[13]);
}

/** Digits of a valid CPF or CNPJ (punctuation allowed in input), or undefined. */
export function normalizeCpfCnpj(v: string): string | undefined {
  if (!/^[\d.\-/\s]+$/.test(v)) return undefined;
  const d = digitsOnly(v);
  return cpfValid(d) || cnpjValid(d) ? d : undefined;
}

/** Digits of a valid CPF (punctuation allowed in input), or undefined; a CNPJ is not a CPF. */
export function normalizeCpf(v: string): string | undefined {
  const d = normalizeCpfCnpj(v);
  return d?.length === 11 ? d : undefined;
}
