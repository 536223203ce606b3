import type { TipoChavePix } from '../db/schema/profissionais';

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

/** Digits of a valid CNPJ (punctuation allowed in input), or undefined; a CPF is not a CNPJ. */
export function normalizeCnpj(v: string): string | undefined {
  const d = normalizeCpfCnpj(v);
  return d?.length === 14 ? d : undefined;
}

const PIX_EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// A random key (EVP) is a UUID: 32 hex digits, with the 8-4-4-4-12 hyphens or without any.
const PIX_RANDOM_RE = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32})$/i;

/**
 * A PIX key checked against its declared type: `{chave}` in its stored form (digits for CPF/CNPJ,
 * lowercase e-mail and random key, `+55` and digits for a phone) or `{error}`, a Portuguese sentence
 * for the `conta_pix` field. One rule for the routes and the spreadsheet import.
 */
export function pixKey(tipo: TipoChavePix, chave: string): { chave: string } | { error: string } {
  const v = chave.trim();
  const fail = (what: string) => ({ error: `não é ${what} para tipo_chave_pix ${tipo}` });
  switch (tipo) {
    case 'cpf': {
      const d = normalizeCpf(v);
      return d ? { chave: d } : fail('um CPF válido');
    }
    case 'cnpj': {
      const d = normalizeCnpj(v);
      return d ? { chave: d } : fail('um CNPJ válido');
    }
    case 'email':
      return PIX_EMAIL_RE.test(v) && v.length <= 77 ? { chave: v.toLowerCase() } : fail('um e-mail válido');
    case 'telefone': {
      // Spaces, hyphens and parentheses are punctuation; the +55 country code is required.
      const p = v.replace(/[\s()-]/g, '');
      return /^\+55\d{10,11}$/.test(p) ? { chave: p } : fail('um telefone +55 com DDD (10 ou 11 dígitos)');
    }
    case 'aleatoria':
      return PIX_RANDOM_RE.test(v)
        ? { chave: v.toLowerCase() }
        : fail('uma chave aleatória (32 hexadecimais, com ou sem os hífens de um UUID)');
  }
}
