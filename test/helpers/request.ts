import { SELF } from 'cloudflare:test';

export const BASE = 'https://api.test';

export interface ApiOptions {
  token?: string;
  body?: unknown;
  rawBody?: BodyInit;
  headers?: Record<string, string>;
  regiao?: string;
}

export interface ApiResult<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** One HTTP call through the real worker entry (SELF), JSON in and out. */
export async function api<T = any>(method: string, path: string, opts: ApiOptions = {}): Promise<ApiResult<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.regiao !== undefined) headers['x-regiao'] = opts.regiao;
  let body: BodyInit | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(opts.body);
  }
  const res = await SELF.fetch(`${BASE}${path}`, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  if (text && res.headers.get('content-type')?.includes('json')) parsed = JSON.parse(text);
  return { status: res.status, body: parsed as T, headers: res.headers };
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
  if (Object.keys(res.body).sort().join(',') !== 'code,error')
    throw new Error(`error body has extra keys: ${JSON.stringify(res.body)}`);
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
