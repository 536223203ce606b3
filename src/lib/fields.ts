import { z } from '@hono/zod-openapi';
import type * as core from 'zod/v4/core';
import { reservedKeyPrefix, SYSTEM_KEY_PREFIXES } from '../db/schema/financeiro';
import { isUf, normalizeCpf, normalizeCpfCnpj, UFS } from './brazil';
import { dateMessage, isIsoDate, isIsoInstant, isTime } from './dates';
import { hasAtMost2Decimals, hasAtMostDecimals } from './money';
import { cleanText, FORBIDDEN_CLASS, FORBIDDEN_TEXT_MESSAGE, hasNoForbiddenChars, INVISIBLE_CLASS } from './text';

/**
 * Field builders: every request field of the API is one of these, so a rule (trimming, bounds,
 * check digits) is written once. The error map below turns Zod issues into the short Portuguese
 * phrases the router prefixes with the field name; createApp() applies it (applyFieldErrors).
 *
 * Their `.openapi()` metadata never states `type`: the generator infers it, and only an inferred
 * type becomes `["string", "null"]` when a schema adds `.nullish()` (a stated `type` wins over the
 * wrapper, and a client generated from the document could then never clear the field). What the
 * refinements check and the generator cannot see (patterns, multipleOf, uniqueItems, minProperties)
 * is stated instead, so that a value the document allows is one the server accepts
 * (test/routes/openapi.test.ts and the fuzzer hold every route to it).
 */

/** What a wrong type is called in an answer ("deve ser um número"). */
const TYPE_NAMES: Record<string, string> = {
  string: 'um texto',
  number: 'um número',
  int: 'um número inteiro',
  bigint: 'um número inteiro',
  boolean: 'true ou false',
  object: 'um objeto',
  array: 'uma lista',
  date: 'uma data',
  null: 'null',
};

const plural = (n: unknown, one: string, many: string) => `${String(n)} ${Number(n) === 1 ? one : many}`;

/**
 * Plain Brazilian Portuguese sentences for the field errors the router prefixes with the field name.
 * The field is read as "o campo", so adjectives are masculine singular ("senha: é obrigatório").
 * Every issue code has a sentence: none falls through to zod's English map.
 */
export const fieldErrorMap: core.$ZodErrorMap = (iss) => {
  switch (iss.code) {
    case 'invalid_type':
      if (iss.input === undefined) return 'é obrigatório';
      return `deve ser ${TYPE_NAMES[iss.expected] ?? `do tipo ${iss.expected}`}`;
    case 'too_small':
      if (iss.origin === 'string')
        return Number(iss.minimum) <= 1
          ? 'é obrigatório'
          : `deve ter pelo menos ${plural(iss.minimum, 'caractere', 'caracteres')}`;
      if (iss.origin === 'array') return `deve ter pelo menos ${plural(iss.minimum, 'item', 'itens')}`;
      return `deve ser maior ${iss.inclusive ? 'ou igual a' : 'que'} ${iss.minimum}`;
    case 'too_big':
      if (iss.origin === 'string') return `deve ter no máximo ${plural(iss.maximum, 'caractere', 'caracteres')}`;
      if (iss.origin === 'array') return `deve ter no máximo ${plural(iss.maximum, 'item', 'itens')}`;
      return `deve ser menor ${iss.inclusive ? 'ou igual a' : 'que'} ${iss.maximum}`;
    case 'invalid_format':
      if (iss.format === 'email') return 'deve ser um e-mail válido';
      if (iss.format === 'uuid' || (iss.format === 'regex' && iss.pattern?.includes('[0-9a-f]{8}')))
        return 'deve ser um UUID';
      return 'tem um formato inválido';
    case 'not_multiple_of':
      return `deve ser múltiplo de ${iss.divisor}`;
    case 'invalid_value':
      if (iss.input === undefined) return 'é obrigatório';
      return `deve ser um de: ${iss.values.map(String).join(', ')}`;
    case 'unrecognized_keys':
      return `${iss.keys.length === 1 ? 'campo desconhecido' : 'campos desconhecidos'} ${iss.keys.join(', ')}`;
    case 'invalid_key':
      return 'tem uma chave inválida';
    case 'invalid_element':
      return 'tem um elemento inválido';
    case 'custom':
      return iss.message && iss.message !== 'Invalid input' ? iss.message : 'é inválido';
    default:
      return 'é inválido';
  }
};

/** Installs the field error map (and jitless parsing: Workers forbid eval) for every schema. Called by createApp(). */
export function applyFieldErrors() {
  z.config({ customError: fieldErrorMap, jitless: true });
}

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

/** Ids are UUID strings (docs/decisions.md#d1); any case accepted, compared in lowercase. */
export const uuid = () =>
  z
    .string()
    .regex(UUID_RE, 'deve ser um UUID')
    .transform((s) => s.toLowerCase())
    // The regex's `i` flag cannot travel in a JSON Schema pattern: state the pattern with both cases.
    .openapi({ format: 'uuid', pattern: UUID_PATTERN, example: '2b1f0c9e-5b7a-4c8e-9a51-0f4f7a3a9e10' });

/**
 * Every text field: NFC, without zero-width spaces (cleanText), trimmed; control and
 * bidirectional-override characters refused (lib/text.ts). Still a ZodString, so bounds and the
 * OpenAPI document are as before.
 */
const text = () => z.string().overwrite(cleanText).trim().refine(hasNoForbiddenChars, FORBIDDEN_TEXT_MESSAGE);

/** The document's form of the text rule: no refused character anywhere. */
export const TEXT_PATTERN = `^[^${FORBIDDEN_CLASS}]*$`;
/**
 * ... and, for a required text, at least one character that trimming and cleaning keep (`\s` is
 * exactly what trim() removes).
 */
export const REQUIRED_TEXT_PATTERN = `^[^${FORBIDDEN_CLASS}]*[^${FORBIDDEN_CLASS}\\s${INVISIBLE_CLASS}][^${FORBIDDEN_CLASS}]*$`;

/** A required string: trimmed, empty counts as missing, bounded. */
export const reqStr = (max: number) =>
  text().min(1, 'é obrigatório').max(max).openapi({ pattern: REQUIRED_TEXT_PATTERN });

/** An optional string: trimmed; empty or null clears it (stored as null). */
export const optStr = (max: number) =>
  text()
    .max(max)
    .openapi({ pattern: TEXT_PATTERN })
    .nullish()
    .transform((s) => (s === '' ? null : s));

/** The reserved `chave_externa` prefixes as the OpenAPI descriptions name them: `` `pedido:` ``. */
export const RESERVED_KEY_PREFIXES_DOC = SYSTEM_KEY_PREFIXES.map((p) => `\`${p}\``).join(', ');

/** Why a client's `chave_externa` is refused: the prefixes the system writes (db/schema/financeiro.ts). */
export const RESERVED_KEY_MESSAGE = `não pode começar com ${SYSTEM_KEY_PREFIXES.map((p) => `"${p}"`).join(' nem ')}: prefixo reservado ao sistema`;

/**
 * A finance entry's `chave_externa` as a client sends it: optStr, refusing a key that starts with a
 * prefix the system writes (any case), which would take the key of an order's future revenue entry.
 */
export const clientKey = (max: number) =>
  optStr(max)
    .refine((k) => k == null || reservedKeyPrefix(k) === undefined, RESERVED_KEY_MESSAGE)
    .openapi({
      description: `Your own key (an invoice number, an id in another system), unique per region (409 CONFLICT when taken). Keys starting with ${RESERVED_KEY_PREFIXES_DOC} (any case) are reserved for the entries the system writes itself (an order's revenue entry is \`pedido:<order id>\`): 400 VALIDATION_FAILED.`,
      example: 'NF-2027-0001',
    });

/**
 * A search term of a query string (a city, an action name): trimmed, so it must hold a character
 * that is not a space, bounded like a text.
 */
export const searchText = (max: number) =>
  z.string().trim().min(1, 'é obrigatório').max(max).openapi({ pattern: '\\S' });

/**
 * The server's e-mail rule, stated as the document's pattern: Zod's (stricter than `format: email`: a
 * dotted domain with a TLD of 2+ letters, so `a@localhost` is refused) within the limits of a real
 * address, which `format: email` also holds answers to: at most 64 characters before the `@`, domain
 * labels of at most 63 that start and end with a letter or digit (`a@b-.co` is no address).
 */
export const EMAIL_RE =
  /^(?=[^@]{1,64}@)(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;
export const EMAIL_PATTERN = EMAIL_RE.source;

export const email = () =>
  z
    .string()
    .trim()
    .toLowerCase()
    .min(1, 'é obrigatório')
    .max(254)
    .pipe(z.email({ pattern: EMAIL_RE, message: 'deve ser um e-mail válido' }))
    .openapi({ format: 'email', pattern: EMAIL_PATTERN, example: 'maria@example.com' });

/** Passwords are taken as typed (not trimmed): 6 to 128 characters. */
export const senha = () => z.string().min(6).max(128).openapi({ minLength: 6, maxLength: 128, example: 'segredo123' });

const UF_MESSAGE = 'deve ser a sigla de um estado (UF), ex.: SP';

/** Any case of a UF code, as a JSON Schema pattern (which has no case-insensitive flag): `[Ss][Pp]`. */
const anyCase = (code: string) => [...code].map((ch) => `[${ch}${ch.toLowerCase()}]`).join('');
const UF_ANY_CASE = `(?:${UFS.map(anyCase).join('|')})`;
const ufDoc = { description: 'one of the 27 UF codes, any case; stored uppercase', example: 'SP' };

export const uf = () =>
  z
    .string()
    .trim()
    .refine(isUf, UF_MESSAGE)
    .transform((s) => s.toUpperCase())
    .openapi({ ...ufDoc, pattern: `^\\s*${UF_ANY_CASE}\\s*$` });

/** Optional UF: empty or null clears it. */
export const optUf = () =>
  z
    .string()
    .trim()
    .refine((v) => v === '' || isUf(v), UF_MESSAGE)
    .transform((v) => (v === '' ? null : v.toUpperCase()))
    .nullish()
    .openapi({ ...ufDoc, pattern: `^\\s*${UF_ANY_CASE}?\\s*$` });

/**
 * The shapes of a CPF and a CNPJ, punctuated or not, as the document states them; the check digits are
 * named by `format` (`cpf`, `cpf-cnpj`: formats of this API, which JSON Schema tools leave to us).
 */
const CPF_SHAPE = '\\d{3}\\.?\\d{3}\\.?\\d{3}-?\\d{2}';
const CNPJ_SHAPE = '\\d{2}\\.?\\d{3}\\.?\\d{3}/?\\d{4}-?\\d{2}';
const cpfDoc = { format: 'cpf', pattern: `^\\s*${CPF_SHAPE}\\s*$` };
const cpfCnpjDoc = { format: 'cpf-cnpj', pattern: `^\\s*(?:${CPF_SHAPE}|${CNPJ_SHAPE})?\\s*$` };

/** Optional CPF or CNPJ (check digits verified), punctuation allowed, stored as digits; empty clears it. */
export const optCpfCnpj = () =>
  z
    .string()
    .trim()
    .transform((s, ctx) => {
      if (s === '') return null;
      const digits = normalizeCpfCnpj(s);
      if (!digits) {
        ctx.addIssue({ code: 'custom', message: 'deve ser um CPF ou CNPJ válido' });
        return z.NEVER;
      }
      return digits;
    })
    .nullish()
    .openapi({ ...cpfCnpjDoc, example: '529.982.247-25' });

/** A required CPF (check digits verified), punctuation allowed, stored as its 11 digits. */
export const cpf = () =>
  z
    .string()
    .trim()
    .transform((s, ctx) => {
      const digits = normalizeCpf(s);
      if (!digits) {
        ctx.addIssue({ code: 'custom', message: 'deve ser um CPF válido' });
        return z.NEVER;
      }
      return digits;
    })
    .openapi({ ...cpfDoc, example: '529.982.247-25', description: 'check digits verified; answered as 11 digits' });

/** Optional CEP (00000-000), stored as 8 digits; empty clears it. */
export const optCep = () =>
  z
    .string()
    .trim()
    .refine((v) => v === '' || /^\d{5}-?\d{3}$/.test(v), 'deve ser um CEP (00000-000)')
    .transform((v) => (v === '' ? null : v.replace('-', '')))
    .nullish()
    .openapi({ pattern: '^\\s*(?:\\d{5}-?\\d{3})?\\s*$', example: '30140-071' });

/** BRL: >= 0, at most 2 decimals. */
export const money = () =>
  z
    .number()
    .min(0)
    .max(1_000_000_000)
    .refine(hasAtMost2Decimals, 'deve ter no máximo 2 casas decimais')
    // The refine hides min/max from the generator: state them, so clients see the bounds.
    .openapi({ minimum: 0, maximum: 1_000_000_000, multipleOf: 0.01, example: 350.5 });

/** BRL > 0: at least one cent (a positive value below half a cent would round to 0 cents). */
export const positiveMoney = () =>
  money()
    .refine((v) => v >= 0.01, 'deve ser de pelo menos R$ 0,01')
    .openapi({ minimum: 0.01, maximum: 1_000_000_000, multipleOf: 0.01, example: 350.5 });

/**
 * A percentage as a JSON number (11 = 11%), 0 to 100, at most 4 decimals: rates are computed in
 * integer hundred-thousandths (lib/money.ts rateUnits), exact at that precision.
 */
export const percent = () =>
  z
    .number()
    .min(0)
    .max(100)
    .refine((v) => hasAtMostDecimals(v, 4), 'deve ter no máximo 4 casas decimais')
    .openapi({ minimum: 0, maximum: 100, multipleOf: 0.0001, description: 'percent: 11 = 11%', example: 7.5 });

/**
 * A list whose items may not repeat (compared as the server stores them, after trimming): the
 * document says `uniqueItems`.
 */
export const distinctList = <T extends z.ZodType>(item: T, opts: { min?: number; max: number; message: string }) =>
  z
    .array(item)
    .min(opts.min ?? 0)
    .max(opts.max)
    .refine((items) => new Set(items.map((i) => JSON.stringify(i))).size === items.length, opts.message)
    .openapi({ uniqueItems: true });

/**
 * For a rule that compares fields (`de` before `ate`, `email` with `senha`): it runs only when every
 * field passed its own rules, so a wrong field is reported once, by its own sentence, and not again by
 * a comparison of values that were never valid (`campos` lists every error: routes/router.ts).
 */
export const afterFields = { when: (payload: { issues: readonly unknown[] }) => payload.issues.length === 0 };

/**
 * A partial update: every field optional, at least one of them sent (`{}` is refused with `message`).
 * The document says `minProperties: 1`.
 */
export const partialUpdate = <T extends z.ZodRawShape>(shape: T, message: string) =>
  z
    .object(shape)
    .refine((b) => Object.values(b).some((v) => v !== undefined), { message, ...afterFields })
    .openapi({ minProperties: 1 });

/** The wire forms of dates and times (the refinements also check the calendar). */
export const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';
export const TIME_PATTERN = '^(?:[01]\\d|2[0-3]):[0-5]\\d$';
/** An instant as the API writes them: `2026-11-22T01:21:00.000Z` (the milliseconds optional). */
export const INSTANT_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d{1,3})?Z$';
('^\\d{4}-\\d{2}-\\d{2}(?:T(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d{1,3})?Z)?$');

/**
 * Every date field and date query parameter: YYYY-MM-DD, a real day of years 0000-9999 (lib/dates.ts
 * isIsoDate, the one rule); an impossible day is told apart from a malformed one.
 */
export const isoDate = () =>
  z
    .string()
    .trim()
    .superRefine((v, ctx) => {
      if (!isIsoDate(v)) ctx.addIssue({ code: 'custom', message: dateMessage('deve ser uma data AAAA-MM-DD', v) });
    })
    .openapi({ format: 'date', pattern: DATE_PATTERN, example: '2026-12-05' });

/** A date (YYYY-MM-DD) or an ISO-8601 UTC instant, by the same date rule. */
export const isoDateOrInstant = () =>
  z
    .string()
    .trim()
    .superRefine((v, ctx) => {
      if (isIsoDate(v) || isIsoInstant(v)) return;
      const day = /^(\d{4}-\d{2}-\d{2})(?:T|$)/.exec(v)?.[1];
      ctx.addIssue({
        code: 'custom',
        message: dateMessage('deve ser uma data (AAAA-MM-DD) ou um instante ISO-8601', day),
      });
    })
    .openapi({
      anyOf: [
        { format: 'date', pattern: DATE_PATTERN },
        { format: 'date-time', pattern: INSTANT_PATTERN },
      ],
      example: '2026-12-05',
    });

export const hhmm = () =>
  z.string().trim().refine(isTime, 'deve ser um horário HH:MM').openapi({ pattern: TIME_PATTERN, example: '19:30' });
