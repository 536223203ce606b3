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

/** Brazilian area codes (DDD) in use, for telling an 11-digit mobile number from a CPF. */
const DDDS = new Set(
  [
    ...[11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 24, 27, 28, 31, 32, 33, 34, 35, 37, 38],
    ...[41, 42, 43, 44, 45, 46, 47, 48, 49, 51, 53, 54, 55, 61, 62, 63, 64, 65, 66, 67, 68, 69],
    ...[71, 73, 74, 75, 77, 79, 81, 82, 83, 84, 85, 86, 87, 88, 89, 91, 92, 93, 94, 95, 96, 97, 98, 99],
  ].map(String),
);

/** Every type, in the order their keys are tried; no key is valid for two of them (lengths and shapes differ). */
const TIPOS_CHAVE: readonly TipoChavePix[] = ['email', 'telefone', 'aleatoria', 'cnpj', 'cpf'];

/**
 * The type of a PIX key sent without one, as a bank reads it: an e-mail, a `+55` phone, a random key
 * (UUID), 14 digits with CNPJ check digits, 11 digits with CPF check digits. `{tipo, chave}` (the key
 * in its stored form, as pixKey answers it) or `{error}`, a Portuguese sentence for the
 * `tipo_chave_pix` field: when the key fits no type, or when it is both a valid CPF and a mobile
 * number written without `+55` (DDD, then 9, then 8 digits), unless written with a CPF's mask
 * (`000.000.000-00`). docs/decisions.md#d18-finance.
 */
export function inferPixKey(chave: string): { tipo: TipoChavePix; chave: string } | { error: string } {
  const v = chave.trim();
  for (const tipo of TIPOS_CHAVE) {
    const checked = pixKey(tipo, v);
    if ('error' in checked) continue;
    const d = checked.chave;
    const mobileWithoutCountry = tipo === 'cpf' && DDDS.has(d.slice(0, 2)) && d[2] === '9';
    if (mobileWithoutCountry && !/^\d{3}\.\d{3}\.\d{3}-\d{2}$/.test(v))
      return {
        error:
          'a chave em conta_pix é um CPF válido e também um celular sem +55; informe tipo_chave_pix (cpf ou telefone) ou escreva o telefone com +55',
      };
    return { tipo, chave: d };
  }
  return {
    error: `não foi possível deduzir o tipo da chave em conta_pix: ${looksLike(v)}; corrija a chave ou informe tipo_chave_pix`,
  };
}

/** What a key that fits no type seems to be, so the sentence says what to fix. */
function looksLike(v: string): string {
  const d = digitsOnly(v);
  if (/^[\d.\-/\s]+$/.test(v) && d.length === 11)
    return 'tem 11 dígitos mas não é um CPF válido (dígitos verificadores), e um telefone precisa de +55';
  if (/^[\d.\-/\s]+$/.test(v) && d.length === 14)
    return 'tem 14 dígitos mas não é um CNPJ válido (dígitos verificadores)';
  if (v.includes('@')) return 'não é um e-mail válido';
  if (v.startsWith('+')) return 'não é um telefone +55 com DDD (10 ou 11 dígitos)';
  return 'não é um e-mail, um telefone com +55, uma chave aleatória (UUID) nem um CPF ou CNPJ válido';
}

/**
 * A Brazilian phone number in E.164 (`+55` + DDD + number), or undefined when it cannot be read as one:
 * punctuation (spaces, parentheses, hyphens, dots) is ignored, `+55`/`55` or a trunk `0` before the DDD
 * are accepted, the DDD must be one in use, a mobile has 9 digits starting with 9 and a landline 8
 * starting with 2-5 (an 8-digit number starting with 6-9 is a mobile written without its 9: refused,
 * since it cannot be told apart). For WhatsApp (docs/decisions.md#d30).
 */
export function toE164(v: string): string | undefined {
  const s = v.trim();
  if (!/^\+?[\d\s().-]+$/.test(s)) return undefined;
  let d = s.replace(/\D/g, '');
  if (s.startsWith('+')) {
    if (!d.startsWith('55')) return undefined;
    d = d.slice(2);
  } else if ((d.length === 12 || d.length === 13) && d.startsWith('55')) d = d.slice(2);
  else if ((d.length === 11 || d.length === 12) && d.startsWith('0')) d = d.slice(1);
  if (!DDDS.has(d.slice(0, 2))) return undefined;
  const local = d.slice(2);
  const ok = (local.length === 9 && local[0] === '9') || (local.length === 8 && /^[2-5]/.test(local));
  return ok ? `+55${d}` : undefined;
}

/**
 * Whether a WhatsApp sender (`from`: the digits of its id, no `+`) is the E.164 number `e164`. WhatsApp
 * still identifies many Brazilian mobiles registered before the ninth digit by the old 8-digit number
 * (55 + DDD + 8 digits): such an id also matches the 9-digit mobile it became.
 */
export function sameWhatsapp(e164: string, from: string): boolean {
  const want = e164.replace(/^\+/, '');
  if (from === want) return true;
  return /^55\d{2}9\d{8}$/.test(want) && from === want.slice(0, 4) + want.slice(5);
}
