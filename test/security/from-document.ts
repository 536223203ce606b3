/**
 * Values generated FROM the OpenAPI document's constraints (fast-check arbitraries of a JSON Schema):
 * what a client generated from the document, or a validator built from it, holds to be valid. The
 * fuzzer sends them and expects the server's validation to accept every one (issue 32 item 19: the
 * document and the server agree). Covers the keywords the document uses: type (with null), enum,
 * format (uuid, date, date-time, email), pattern, min/maxLength, minimum/maximum, multipleOf,
 * min/maxItems, uniqueItems, required, minProperties, anyOf/allOf and $ref.
 */
import { Validator } from '@cfworker/json-schema';
import fc from 'fast-check';
import type { ApiDoc, JsonSchema } from './world';

/** Characters of a text: ASCII, Portuguese letters, a few symbols and astral ones (an emoji is one character). */
const TEXT_CHARS = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) },
  { weight: 2, arbitrary: fc.constantFrom(...'áàâãéêíóôõúüçÁÀÂÃÉÊÍÓÔÕÚÇºª€–“”…') },
  { weight: 1, arbitrary: fc.constantFrom('😀', '👍🏽', '🎓', '𝄞', '中', '文', 'ß', 'ø') },
);

const DAY_MS = 86_400_000;
const FIRST_DAY = Date.parse('0000-01-01T00:00:00Z');
const LAST_DAY = Date.parse('9999-12-31T00:00:00Z');
/** Any day 0000-01-01..9999-12-31, with the edges (years 0-99, leap days, 9999) more often. */
const anyDay = fc
  .oneof(
    { weight: 4, arbitrary: fc.integer({ min: 0, max: (LAST_DAY - FIRST_DAY) / DAY_MS }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('0000-02-29', '0001-01-01', '0099-12-31', '0100-03-01', '2028-02-29', '9999-12-31'),
    },
  )
  .map((d) => (typeof d === 'string' ? d : new Date(FIRST_DAY + d * DAY_MS).toISOString().slice(0, 10)));
const anyInstant = fc.tuple(anyDay, fc.integer({ min: 0, max: DAY_MS - 1 }), fc.boolean()).map(([day, ms, withMs]) => {
  const t = new Date(Date.parse(`2000-01-01T00:00:00Z`) + ms).toISOString().slice(10, withMs ? 24 : 19);
  return `${day}${t}${withMs ? '' : 'Z'}`;
});

const decimalsOf = (m: number) => (String(m).split('.')[1] ?? '').length;

/** A valid CPF or CNPJ (the API's formats `cpf`, `cpf-cnpj`), punctuated or not. */
function checkDigit(digits: number[], weights: number[], mod11: (r: number) => number) {
  return mod11(digits.reduce((sum, d, i) => sum + d * weights[i]!, 0) % 11);
}
const cpf = fc
  .tuple(fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 9, maxLength: 9 }), fc.boolean())
  .filter(([d]) => new Set(d).size > 1)
  .map(([d, punctuated]) => {
    const w = (n: number) => Array.from({ length: n }, (_, i) => n + 1 - i);
    const d1 = checkDigit(d, w(9), (r) => (r < 2 ? 0 : 11 - r));
    const d2 = checkDigit([...d, d1], w(10), (r) => (r < 2 ? 0 : 11 - r));
    const s = [...d, d1, d2].join('');
    return punctuated ? `${s.slice(0, 3)}.${s.slice(3, 6)}.${s.slice(6, 9)}-${s.slice(9)}` : s;
  });
const cnpj = fc
  .tuple(fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 12, maxLength: 12 }), fc.boolean())
  .filter(([d]) => new Set(d).size > 1)
  .map(([d, punctuated]) => {
    const w1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
    const d1 = checkDigit(d, w1, (r) => (r < 2 ? 0 : 11 - r));
    const d2 = checkDigit([...d, d1], [6, ...w1], (r) => (r < 2 ? 0 : 11 - r));
    const s = [...d, d1, d2].join('');
    return punctuated ? `${s.slice(0, 2)}.${s.slice(2, 5)}.${s.slice(5, 8)}/${s.slice(8, 12)}-${s.slice(12)}` : s;
  });

export class FromDocument {
  constructor(private readonly doc: ApiDoc) {}

  private readonly validators = new Map<JsonSchema, Validator>();

  /** An arbitrary of the values `schema` allows, each checked against the schema itself (formats asserted). */
  valid(schema: JsonSchema): fc.Arbitrary<unknown> {
    let v = this.validators.get(schema);
    if (!v) {
      v = new Validator({ ...schema, components: this.doc.components } as object, '2020-12', false);
      this.validators.set(schema, v);
    }
    const validator = v;
    return this.value(schema).filter((x) => validator.validate(x).valid);
  }

  private resolve(s: JsonSchema): JsonSchema {
    let r = s;
    for (let i = 0; r.$ref && i < 10; i++) r = this.doc.components.schemas[r.$ref.split('/').pop()!]!;
    return r;
  }

  /** An arbitrary of the values `schema` allows. */
  value(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
    const s = this.resolve(schema);
    if (s.allOf) {
      const parts = s.allOf.map((p) => this.resolve(p));
      return this.value(
        {
          ...s,
          allOf: undefined,
          type: 'object',
          properties: Object.assign({}, ...parts.map((p) => p.properties ?? {}), s.properties ?? {}),
          required: [...parts.flatMap((p) => p.required ?? []), ...(s.required ?? [])],
        },
        depth,
      );
    }
    if (s.anyOf || s.oneOf) {
      const { anyOf, oneOf, ...rest } = s;
      return fc.oneof(...(anyOf ?? oneOf)!.map((branch) => this.value({ ...rest, ...this.resolve(branch) }, depth)));
    }
    const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
    const nonNull = types.filter((t) => t !== 'null');
    if (types.includes('null'))
      return fc.oneof(
        { weight: 1, arbitrary: fc.constant(null) },
        { weight: 4, arbitrary: this.value({ ...s, type: nonNull[0] }, depth) },
      );
    if (s.enum) return fc.constantFrom(...s.enum);
    switch (nonNull[0]) {
      case 'string':
        return this.string(s);
      case 'integer': {
        const exMin = s.exclusiveMinimum as number | undefined;
        const exMax = s.exclusiveMaximum as number | undefined;
        return fc.integer({
          min: Math.max(s.minimum ?? (exMin === undefined ? -1_000_000 : exMin + 1), -(2 ** 31)),
          max: Math.min(s.maximum ?? (exMax === undefined ? 1_000_000 : exMax - 1), 2 ** 31 - 1),
        });
      }
      case 'number':
        return this.number(s);
      case 'boolean':
        return fc.boolean();
      case 'array':
        return this.array(s, depth);
      case 'object':
        return this.object(s, depth);
      default:
        return fc.jsonValue({ maxDepth: 1 });
    }
  }

  private number(s: JsonSchema): fc.Arbitrary<number> {
    const min = s.minimum ?? (s.exclusiveMinimum as number | undefined) ?? -1_000_000;
    const max = s.maximum ?? (s.exclusiveMaximum as number | undefined) ?? 1_000_000;
    const m = s.multipleOf as number | undefined;
    if (!m) return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
    const d = decimalsOf(m);
    const lo = BigInt(Math.ceil(min / m - 1e-9));
    const hi = BigInt(Math.floor(max / m + 1e-9));
    // The edges (0, the least, the greatest) and any k × multipleOf in between, written with d decimals.
    return fc
      .oneof(
        { weight: 4, arbitrary: fc.bigInt({ min: lo, max: hi }) },
        { weight: 1, arbitrary: fc.constantFrom(lo, hi) },
      )
      .map((k) => Number((Number(k) * m).toFixed(d)));
  }

  private string(s: JsonSchema): fc.Arbitrary<string> {
    const minLength = s.minLength ?? 0;
    const maxLength = s.maxLength ?? 200;
    const fits = (v: string) => [...v].length >= minLength && [...v].length <= maxLength;
    const pattern = s.pattern ? new RegExp(s.pattern, 'u') : undefined;
    if (s.format === 'uuid') return fc.uuid().chain((u) => fc.constantFrom(u, u.toUpperCase()));
    if (s.format === 'date') return anyDay;
    if (s.format === 'date-time') return anyInstant.filter((v) => !pattern || pattern.test(v));
    if (s.format === 'binary') return fc.string({ minLength: Math.max(1, minLength), maxLength: 50 });
    if (s.format === 'cpf') return cpf;
    if (s.format === 'cpf-cnpj') return fc.oneof(cpf, cnpj, fc.constant(''));
    // A text pattern (a class of refused characters): texts of every kind, up to the longest allowed.
    if (s.pattern?.startsWith('^[^\\u0000')) {
      const chars = fc.array(TEXT_CHARS, { minLength, maxLength: Math.min(maxLength, 60) });
      const long = fc.array(TEXT_CHARS, { minLength: maxLength, maxLength }); // exactly the maximum
      return fc
        .oneof({ weight: 5, arbitrary: chars }, { weight: 1, arbitrary: long })
        .map((cs) => cs.join(''))
        .filter((v) => pattern!.test(v) && fits(v));
    }
    if (pattern && s.pattern !== '\\S') {
      // A leading lookahead (a length, as in the e-mail pattern) is held by the filter, not generated.
      const generated = s.pattern!.replace(/^\^\(\?=[^)]*\)/, '^');
      return fc.stringMatching(new RegExp(generated)).filter((v) => pattern.test(v) && fits(v));
    }
    return fc
      .array(TEXT_CHARS, { minLength, maxLength: Math.min(maxLength, 60) })
      .map((cs) => cs.join(''))
      .filter((v) => (!pattern || pattern.test(v)) && fits(v));
  }

  private array(s: JsonSchema, depth: number): fc.Arbitrary<unknown[]> {
    const item = this.value(s.items ?? {}, depth + 1);
    const minLength = (s.minItems as number | undefined) ?? 0;
    const maxLength = Math.min((s.maxItems as number | undefined) ?? 3, Math.max(minLength, 3));
    if (!s.uniqueItems) return fc.array(item, { minLength, maxLength });
    // Items the server compares as it stores them (trimmed, NFC), which JSON Schema cannot say: distinct that way too.
    const key = (v: unknown) => (typeof v === 'string' ? v.normalize('NFC').trim() : JSON.stringify(v));
    return fc.uniqueArray(item, { minLength, maxLength, selector: key });
  }

  private object(s: JsonSchema, depth: number): fc.Arbitrary<Record<string, unknown>> {
    const props = s.properties ?? {};
    const required = new Set(s.required ?? []);
    const keys = Object.keys(props);
    if (keys.length === 0 || depth > 4) return fc.constant({});
    const record = fc.record(Object.fromEntries(keys.map((k) => [k, this.value(props[k]!, depth + 1)])), {
      requiredKeys: keys.filter((k) => required.has(k)),
    }) as fc.Arbitrary<Record<string, unknown>>;
    const minProperties = (s.minProperties as number | undefined) ?? 0;
    return record.filter((o) => Object.keys(o).length >= minProperties);
  }
}
