/**
 * The one way a test talks to the API. Every request goes through the app's fetch handler (the
 * same createApp() that src/index.ts serves) with the real bindings, and every response is held to
 * the OpenAPI document (helpers/contract.ts): an undocumented status or a body that does not match
 * its schema fails the test that received it.
 *
 *   api(method, path, { token, body, regiao, headers })  JSON in and out
 *   api(..., { countQueries: true })                     also counts the D1 round trips and statements
 *   api(..., { bindings: { DB: failing.db } })           with some bindings replaced
 *   api(..., { origin: 'https://evil.example' })         sent to another Host
 *   send(method, path, init)                             the raw Response (checked the same way)
 *
 * The app is called directly rather than through SELF.fetch: the security suites send thousands of
 * requests, and through SELF each request costs more than the one before it (measured: 100 calls of
 * GET /health take 1 s, the next 100 take 3 s, then 7 s), while the app called here stays flat.
 */
import { createExecutionContext, env } from 'cloudflare:test';
import { createApp } from '../../src/app';
import { checkResponse, loadContract } from './contract';
import { countingD1, type QueryCount } from './queries';

export const BASE = 'https://api.test';

let clients = 0;
/** A client address no other call of the file uses (the rate limits count per `cf-connecting-ip`). */
export const randomClient = () =>
  `198.18.${(clients >> 8) & 255}.${clients++ & 255}-${Math.random().toString(36).slice(2, 8)}`;

/** A well-formed id that names nothing. */
export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

const app = createApp();

export interface RequestOptions {
  /** Replaces bindings of the test environment (a failing DB, a var). */
  bindings?: Partial<Cloudflare.Env>;
  /** Counts the D1 round trips and statements of this request (ApiResult.roundTrips/statements). */
  countQueries?: boolean;
  /** Skips the contract check: only for a test that sends what no client may (a probe of the check itself). */
  unchecked?: boolean;
  /** The origin the request is sent to (default BASE): what a client's Host header picks, e.g. a forged one. */
  origin?: string;
}

export interface ApiOptions extends RequestOptions {
  token?: string;
  body?: unknown;
  rawBody?: BodyInit;
  /** Extra headers; `null` leaves out a default one (`'idempotency-key': null` sends none). */
  headers?: Record<string, string | null>;
  regiao?: string;
}

export interface ApiResult<T = any> extends Partial<QueryCount> {
  status: number;
  body: T;
  headers: Headers;
}

/** One request through the app: the Response (its body still readable), checked against the document. */
export async function send(
  method: string,
  path: string,
  init: RequestInit = {},
  opts: RequestOptions = {},
): Promise<Response & Partial<QueryCount>> {
  const counting = opts.countQueries ? countingD1(env.DB) : undefined;
  const bindings = { ...env, ...opts.bindings, ...(counting ? { DB: counting.db } : {}) };
  const res = await app.request(
    `${opts.origin ?? BASE}${path}`,
    { ...init, method },
    bindings,
    createExecutionContext(),
  );
  if (!opts.unchecked) {
    // The document of the configuration the request ran with (it lists the deployment's regions).
    const contract = await loadContract(String(bindings.REGIOES), async () =>
      app.request(`${BASE}/openapi.json`, {}, { ...env, REGIOES: bindings.REGIOES }),
    );
    const text = await res.clone().text();
    checkResponse(contract, method, path, res.status, res.headers.get('content-type'), text);
  }
  return Object.assign(res, counting?.count ?? {});
}

/** One HTTP call, JSON in and out; a body that is not JSON comes back as text. */
export async function api<T = any>(method: string, path: string, opts: ApiOptions = {}): Promise<ApiResult<T>> {
  // Each call is its own client unless the test names one: sign-ups and logins are limited per client.
  // Every call also carries a fresh Idempotency-Key (the header POST /api/pedidos requires; other routes
  // ignore it), so the generic suites reach that handler too.
  const headers: Record<string, string> = {};
  const given = { 'cf-connecting-ip': randomClient(), 'idempotency-key': crypto.randomUUID(), ...opts.headers };
  for (const [k, v] of Object.entries(given)) if (v !== null) headers[k] = v;
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.regiao !== undefined) headers['x-regiao'] = opts.regiao;
  let body: BodyInit | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(opts.body);
  }
  const res = await send(method, path, { headers, body }, opts);
  const text = await res.text();
  let parsed: unknown = text;
  if (text && res.headers.get('content-type')?.includes('json')) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  const counts = opts.countQueries
    ? {
        roundTrips: res.roundTrips,
        statements: res.statements,
        rowsRead: res.rowsRead,
        rowsWritten: res.rowsWritten,
        trace: res.trace,
      }
    : {};
  return { status: res.status, body: parsed as T, headers: res.headers, ...counts };
}

/** Authorization (and any other) headers for a raw send(). */
export const authHeaders = (token: string, extra: Record<string, string> = {}) => ({
  authorization: `Bearer ${token}`,
  ...extra,
});

/**
 * Why an error body is not the decisions-D2 shape `{error, code}` (plus, on a 400 of the validation
 * hook, `campos`: every field error, the first of which `error` states), or undefined when it is.
 */
export function errorShapeProblem(body: unknown, status: number): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'not a JSON object';
  const e = body as Record<string, unknown>;
  if (typeof e.error !== 'string' || typeof e.code !== 'string') return 'error and code are not strings';
  const keys = Object.keys(e).sort().join(',');
  if (keys === 'code,error') return undefined;
  // TRAVEL_CONFLICT names the conflict (docs/decisions.md#d11).
  if (keys === 'code,conflito_com,deslocamento_min,error,folga_min')
    return status === 409 &&
      e.code === 'TRAVEL_CONFLICT' &&
      typeof e.conflito_com === 'string' &&
      Number.isInteger(e.folga_min) &&
      Number.isInteger(e.deslocamento_min)
      ? undefined
      : `travel conflict fields on a ${status} ${e.code}`;
  if (keys !== 'campos,code,error') return `unexpected keys ${keys}`;
  if (status !== 400 || !['VALIDATION_FAILED', 'INVALID_ID'].includes(e.code)) return `campos on a ${status} ${e.code}`;
  const campos = e.campos;
  if (
    !Array.isArray(campos) ||
    campos.length === 0 ||
    !campos.every(
      (c) =>
        typeof c === 'object' &&
        c !== null &&
        Object.keys(c).sort().join(',') === 'campo,erro' &&
        (c.campo === null || typeof c.campo === 'string') &&
        typeof c.erro === 'string',
    )
  )
    return `campos is not a non-empty list of {campo, erro}: ${JSON.stringify(campos).slice(0, 200)}`;
  const first = campos[0] as { campo: string | null; erro: string };
  if (e.error !== (first.campo === null ? first.erro : `${first.campo}: ${first.erro}`))
    return `error does not state the first of campos`;
  return undefined;
}

/** Asserts the decisions-D2 error shape and returns the code. */
export function expectError(res: ApiResult, status: number, code: string) {
  if (
    res.status !== status ||
    typeof res.body !== 'object' ||
    res.body?.code !== code ||
    typeof res.body?.error !== 'string'
  ) {
    throw new Error(`expected ${status} ${code}, got ${res.status} ${JSON.stringify(res.body)}`);
  }
  const problem = errorShapeProblem(res.body, res.status);
  if (problem) throw new Error(`error body: ${problem}: ${JSON.stringify(res.body)}`);
}

/** Cookies of a response as name → { value, attributes (lowercase) }. */
export function cookies(headers: Headers) {
  const out: Record<string, { value: string; attrs: string[] }> = {};
  // workers-types lacks getSetCookie(), workerd has it
  for (const line of (headers as unknown as { getSetCookie(): string[] }).getSetCookie()) {
    const [pair, ...attrs] = line.split(';').map((s) => s.trim());
    const [name, ...v] = pair!.split('=');
    out[name!] = { value: v.join('='), attrs: attrs.map((a) => a.toLowerCase()) };
  }
  return out;
}
