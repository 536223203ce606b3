import { env, SELF } from 'cloudflare:test';
import { z } from '@hono/zod-openapi';
import { hc } from 'hono/client';
import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import { createApp, type AppType } from '../../src/app';
import { applyFieldErrors } from '../../src/lib/fields';
import { DOCS_CSP } from '../../src/routes/meta';
import { configSchema } from '../../src/env';
import { PBKDF2_ITERATIONS } from '../../src/lib/password';
import { firstCalls } from '../../examples/client';
import { makeAdmin, makeUser } from '../helpers/factories';
import { api, BASE, expectError } from '../helpers/request';
import { TEST_VARS } from '../setup/vars';
import wranglerToml from '../../wrangler.toml?raw';

/** The `[vars]` of wrangler.toml (what production runs with until an operator sets more). */
function wranglerVars(): Record<string, string> {
  const section = /^\[vars\]\s*$([\s\S]*?)(?=^\[)/m.exec(wranglerToml)?.[1] ?? '';
  const vars: Record<string, string> = {};
  for (const m of section.matchAll(/^([A-Z_]+)\s*=\s*"([^"]*)"/gm)) vars[m[1]!] = m[2]!;
  return vars;
}

describe('app skeleton', () => {
  it('GET /health answers ok after a D1 round trip', async () => {
    const res = await api('GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it('GET / points to the docs, the OpenAPI document and /health', async () => {
    const res = await api('GET', '/');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      name: 'Event Operations API',
      docs: '/docs',
      openapi: '/openapi.json',
      health: '/health',
    });
    for (const path of [res.body.docs, res.body.openapi, res.body.health])
      expect((await api('GET', path)).status, path).toBe(200);
  });

  it('answers unknown routes and wrong methods with 404 JSON', async () => {
    expectError(await api('GET', '/nope'), 404, 'NOT_FOUND');
    expectError(await api('DELETE', '/auth/login'), 404, 'NOT_FOUND');
  });

  it('sets security headers', async () => {
    const res = await api('GET', '/health');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(res.headers.get('strict-transport-security')).toContain('max-age=');
  });

  it('allows CORS with credentials for configured origins only', async () => {
    const ok = await SELF.fetch(`${BASE}/api/me`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'authorization,content-type,x-regiao',
      },
    });
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(ok.headers.get('access-control-allow-credentials')).toBe('true');
    expect(ok.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-regiao');
    const evil = await SELF.fetch(`${BASE}/api/me`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'PUT' },
    });
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('allows no browser origin with the vars wrangler.toml ships (production has none until CORS_ORIGINS is set)', async () => {
    expect(wranglerVars()).not.toHaveProperty('CORS_ORIGINS');
    const shipped = { ...env, CORS_ORIGINS: undefined, ...wranglerVars() };
    for (const origin of ['http://localhost:5173', 'http://localhost:3000', 'https://app.example.com']) {
      const res = await createApp().request(
        '/api/me',
        { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'PUT' } },
        shipped,
      );
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  it('answers 500 INTERNAL and logs one clear line when JWT_SECRET is missing', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = await createApp().request('/health', {}, { ...env, JWT_SECRET: undefined });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: 'erro interno', code: 'INTERNAL' });
    expect(log).toHaveBeenCalledTimes(1);
    expect(String(log.mock.calls[0]?.[0])).toContain('JWT_SECRET');
    log.mockRestore();
  });

  it('never leaks internals in a 500', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const broken = {
      ...env,
      DB: {
        prepare: () => {
          throw new Error('SQLITE secret detail');
        },
      } as unknown as D1Database,
    };
    const res = await createApp().request('/health', {}, broken);
    expect(res.status).toBe(500);
    expect(await res.text()).toBe('{"error":"erro interno","code":"INTERNAL"}');
    log.mockRestore();
  });

  it("runs with the pool's own value for every configuration var, never a developer's .dev.vars", () => {
    // `npm run dev` writes .dev.vars (COOKIE_SECURE=false, a random JWT_SECRET) and the pool would read it.
    expect(Object.keys(TEST_VARS).sort()).toEqual(Object.keys(configSchema.shape).sort());
    for (const [name, value] of Object.entries(TEST_VARS)) expect(env[name as keyof typeof env], name).toBe(value);
  });

  it('keeps PBKDF2 at or below the Workers maximum of 100,000 iterations', () => {
    expect(PBKDF2_ITERATIONS).toBeLessThanOrEqual(100_000);
  });

  it("imports zod's locales as the Worker bundle does: English only, and no answer comes from them", () => {
    // wrangler.toml [alias] (mirrored by vitest.config.ts) keeps the bundle's zod to src/lib/zod-locales.ts.
    expect(Object.keys(z.locales)).toEqual(['en']);
    expect(Object.keys(z.core.locales)).toEqual(['en']);
    // zod's English map is still there, but fieldErrorMap answers every issue (in Portuguese) before it.
    expect(
      z.number().multipleOf(0.5).safeParse(0.3, { error: z.locales.en().localeError }).error?.issues[0]?.message,
    ).toBe('Invalid number: must be a multiple of 0.5');
    applyFieldErrors();
    expect(z.number().multipleOf(0.5).safeParse(0.3).error?.issues[0]?.message).toBe('deve ser múltiplo de 0.5');
  });

  it('imports zod without compile and fromJSONSchema, as the Worker bundle does, and validates the same', () => {
    // wrangler.toml [alias] gives both modules src/lib/zod-omitted.ts (about 11 KiB gzipped less).
    expect(() => z.fromJSONSchema({ type: 'string' })).toThrow(/left out/);
    expect(() => z.compile(z.string())).toThrow(/left out/);
    expect(z.object({ a: z.string().min(2) }).safeParse({ a: 'x' }).success).toBe(false);
    expect(z.object({ a: z.string().min(2) }).safeParse({ a: 'xy' }).success).toBe(true);
  });

  it('fieldErrorMap has a Portuguese sentence for every kind of issue', () => {
    applyFieldErrors();
    const message = (schema: z.ZodType, input: unknown) => schema.safeParse(input).error?.issues[0]?.message;
    const cases: [z.ZodType, unknown, string][] = [
      [z.string(), undefined, 'é obrigatório'],
      [z.string(), 1, 'deve ser um texto'],
      [z.number(), 'x', 'deve ser um número'],
      [z.number().int(), 1.5, 'deve ser um número inteiro'],
      [z.boolean(), 1, 'deve ser true ou false'],
      [z.object({}), 1, 'deve ser um objeto'],
      [z.array(z.string()), 1, 'deve ser uma lista'],
      [z.string().min(1), '', 'é obrigatório'],
      [z.string().min(6), 'abc', 'deve ter pelo menos 6 caracteres'],
      [z.string().max(1), 'ab', 'deve ter no máximo 1 caractere'],
      [z.string().max(5), 'abcdef', 'deve ter no máximo 5 caracteres'],
      [z.array(z.string()).min(2), ['a'], 'deve ter pelo menos 2 itens'],
      [z.array(z.string()).max(1), ['a', 'b'], 'deve ter no máximo 1 item'],
      [z.number().min(0), -1, 'deve ser maior ou igual a 0'],
      [z.number().positive(), 0, 'deve ser maior que 0'],
      [z.number().max(5), 6, 'deve ser menor ou igual a 5'],
      [z.number().lt(5), 5, 'deve ser menor que 5'],
      [z.email(), 'x', 'deve ser um e-mail válido'],
      [z.uuid(), 'x', 'deve ser um UUID'],
      [z.string().regex(/^a$/), 'b', 'tem um formato inválido'],
      [z.number().multipleOf(2), 3, 'deve ser múltiplo de 2'],
      [z.enum(['a', 'b']), 'c', 'deve ser um de: a, b'],
      [z.enum(['a', 'b']), undefined, 'é obrigatório'],
      [z.strictObject({}), { x: 1, y: 2 }, 'campos desconhecidos x, y'],
      [z.strictObject({}), { x: 1 }, 'campo desconhecido x'],
      [z.record(z.string().regex(/^a$/), z.string()), { b: 'x' }, 'tem uma chave inválida'],
      [z.map(z.object({}), z.number()), new Map([[{}, 'x']]), 'tem um elemento inválido'],
      [z.union([z.string(), z.number()]), true, 'é inválido'],
      [z.string().refine(() => false), 'x', 'é inválido'],
      [z.string().refine(() => false, 'não serve'), 'x', 'não serve'],
    ];
    for (const [schema, input, expected] of cases) expect(message(schema, input), expected).toBe(expected);
  });
});

describe('GET /openapi.json and /docs', () => {
  it('is an OpenAPI 3.1 document listing every route of the app with its schemas', async () => {
    const res = await api('GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.components.securitySchemes.BearerAuth).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
    });
    const paths = res.body.paths;
    for (const [path, method] of [
      ['/auth/register', 'post'],
      ['/auth/login', 'post'],
      ['/auth/refresh', 'post'],
      ['/auth/logout', 'post'],
      ['/api/me', 'get'],
      ['/api/me', 'put'],
      ['/api/admin/users', 'get'],
      ['/api/admin/users', 'post'],
      ['/api/admin/users/pending', 'get'],
      ['/api/admin/users/{id}', 'get'],
      ['/api/admin/users/{id}', 'delete'],
      ['/api/admin/users/{id}/approve', 'patch'],
      ['/api/admin/users/{id}/role', 'patch'],
    ] as const) {
      expect(paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
    expect(paths['/auth/login'].post.requestBody.content['application/json'].schema.$ref).toBe(
      '#/components/schemas/loginRequest',
    );
    expect(paths['/api/admin/users/{id}'].get.security).toEqual([{ BearerAuth: [] }]);
    expect(paths['/api/admin/users/{id}'].get.responses['404'].content['application/json'].schema.$ref).toBe(
      '#/components/schemas/Error',
    );
  });

  it('lists exactly the routes the app serves, and the app serves every route it lists', async () => {
    const undocumented = new Set(['GET /', 'GET /openapi.json', 'GET /docs']);
    const served = new Set(
      createApp()
        .routes.filter((r) => r.method !== 'ALL')
        .map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`)
        .filter((r) => !undocumented.has(r)),
    );
    const doc = (await api('GET', '/openapi.json')).body;
    const documented = new Set(
      Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
        Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
      ),
    );
    expect([...served].filter((r) => !documented.has(r))).toEqual([]);
    expect([...documented].filter((r) => !served.has(r))).toEqual([]);
    expect(documented.size).toBeGreaterThanOrEqual(50);
  });

  it('declares BearerAuth on every route but /health, login, register, refresh, logout, forgot/reset password, GET /api/funcoes, the payment and WhatsApp webhooks and the calendar feed', async () => {
    const doc = (await api('GET', '/openapi.json')).body;
    const open = new Set([
      'GET /health',
      'POST /auth/login',
      'POST /auth/register',
      'POST /auth/refresh',
      'POST /auth/logout',
      'POST /auth/forgot-password',
      'POST /auth/reset-password',
      'GET /api/funcoes',
      'POST /webhooks/mercadopago',
      // Meta's WhatsApp webhook: the verify token and the body's signature are the credentials (docs/decisions.md#d30).
      'GET /webhooks/whatsapp',
      'POST /webhooks/whatsapp',
      // Calendar apps cannot send a bearer: the url's token is the credential (docs/decisions.md#d16).
      'GET /ical/{token}.ics',
      // A survey's answer side: the e-mailed single-use link is the credential.
      'GET /p/pesquisas/{token}',
      'POST /p/pesquisas/{token}/respostas',
    ]);
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, { security?: unknown }>>)) {
      for (const [method, op] of Object.entries(ops)) {
        const key = `${method.toUpperCase()} ${path}`;
        if (open.has(key)) expect(op.security, key).toEqual([]);
        else expect(op.security, key).toEqual([{ BearerAuth: [] }]);
      }
    }
  });

  it('documents GET /health with its response schema', async () => {
    const doc = (await api('GET', '/openapi.json')).body;
    const op = doc.paths['/health']?.get;
    expect(op.security).toEqual([]); // public, documented as such
    expect(op.responses['200'].content['application/json'].schema.$ref).toBe('#/components/schemas/Health');
    expect(doc.components.schemas.Health).toMatchObject({
      type: 'object',
      properties: { status: { type: 'string', enum: ['ok'] } },
      required: ['status'],
    });
    expect(op.responses['500'].content['application/json'].schema.$ref).toBe('#/components/schemas/Error');
  });

  it('GET /docs is an HTML page that loads only same-origin files, under a CSP that says so', async () => {
    const res = await SELF.fetch(`${BASE}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const csp = res.headers.get('content-security-policy');
    expect(csp).toBe(DOCS_CSP);
    for (const directive of ["default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'"])
      expect(csp).toContain(directive);
    const html = await res.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script: CSP forbids it
    const refs = [...html.matchAll(/\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.sort()).toEqual([
      '/docs/init.js',
      '/docs/vendor/favicon-32x32.png',
      '/docs/vendor/swagger-ui-bundle.js',
      '/docs/vendor/swagger-ui.css',
    ]);
  });

  it('has the files /docs loads in the static assets, copied from the pinned swagger-ui-dist', async () => {
    // SELF reaches the Worker only; in production and `wrangler dev` the asset router answers these
    // paths before the Worker (checked end to end in Chromium by `npm run check:docs`).
    const pinned = (await import('../../package.json')).devDependencies['swagger-ui-dist'];
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    const init = await env.ASSETS.fetch(`${BASE}/docs/init.js`);
    expect(init.status).toBe(200);
    expect(await init.text()).toContain("url: '/openapi.json'");
    const bundle = await env.ASSETS.fetch(`${BASE}/docs/vendor/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toContain('javascript');
    expect(bundle.headers.get('x-content-type-options')).toBe('nosniff');
    const js = await bundle.text();
    expect(js).toContain('SwaggerUIBundle');
    expect(js).toContain(`"${pinned}"`); // the bundle names its version: the copy is the pinned one
    const css = await env.ASSETS.fetch(`${BASE}/docs/vendor/swagger-ui.css`);
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toContain('text/css');
    await css.body?.cancel();
  });
});

describe('typed client', () => {
  it('hc<AppType> types requests and responses', async () => {
    const u = await makeUser();
    const client = hc<AppType>(BASE, {
      fetch: (input: RequestInfo | URL, init?: RequestInit) => SELF.fetch(input, init),
    });
    const res = await client.auth.login.$post({ json: { email: u.email, senha: u.password } });
    expect(res.status).toBe(200);
    if (res.status === 200) {
      const body = await res.json();
      expectTypeOf(body.access_token).toEqualTypeOf<string>();
      expectTypeOf(body.user.role).toEqualTypeOf<
        'SUPERADMIN' | 'BUSINESS_OWNER' | 'EVENT_OWNER' | 'RESEARCHER' | 'agenda_viewer' | 'profissional'
      >();
      expect(body.user.id).toBe(u.id);
    }
  });

  it('examples/client.ts runs as documented: no header or query needed, x-regiao and numbers where given', async () => {
    const admin = await makeAdmin();
    const r = await firstCalls(BASE, admin.email, admin.password, (input, init) => SELF.fetch(input, init));
    expect(r.role).toBe('SUPERADMIN');
    expect(r.cursosSP).toBe(200);
    // Since the restructure the catalog lists' answer is typed JSONValue[] by hc (the other routes keep
    // their schema types): read the ids without relying on it.
    expect(r.mgNames).toContain(r.curso.nome);
    expect(r.mgTotal).toBeGreaterThanOrEqual(1);
    expect(r.renamed?.nome).toBe(`${r.curso.nome} (noturno)`);
    // The curso went to MG, not the default region.
    const sp = (await api('GET', '/api/cursos', { token: admin.token })).body as { id: string }[];
    expect(sp.map((c) => c.id)).not.toContain(r.curso.id);
  });

  it('types x-regiao and list queries as optional, and limit/offset as number | string', () => {
    const client = hc<AppType>(BASE);
    type ListArgs = Parameters<typeof client.api.cursos.$get>[0];
    expectTypeOf<undefined>().toExtend<ListArgs>(); // the argument itself is optional
    expectTypeOf<NonNullable<ListArgs>['header']>().toEqualTypeOf<{ 'x-regiao'?: string | undefined } | undefined>();
    expectTypeOf<NonNullable<NonNullable<ListArgs>['query']>['limit']>().toEqualTypeOf<number | string | undefined>();
    expectTypeOf<NonNullable<NonNullable<ListArgs>['query']>['offset']>().toEqualTypeOf<number | string | undefined>();
    // A route with a body still requires it.
    type CreateArgs = Parameters<typeof client.api.cursos.$post>[0];
    expectTypeOf<CreateArgs['json']>().toEqualTypeOf<{ nome: string }>();
  });
});
