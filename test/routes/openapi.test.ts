/**
 * The OpenAPI document as a contract others generate clients from. Every response of the suite is
 * already held to it (helpers/contract.ts); these tests check what a response cannot show: that the
 * document says everything the validation does, and the lint-level facts of every operation.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { UFS } from '../../src/lib/brazil';
import { codeToStatus } from '../../src/lib/errors';
import { makeAdmin, type TestUser } from '../helpers/factories';
import { api, expectError, send, UNKNOWN_ID } from '../helpers/request';

type Schema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  [k: string]: unknown;
};
type Op = {
  operationId?: string;
  security?: unknown[];
  tags?: string[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { headers?: Record<string, unknown> }>;
};
type Doc = {
  info: { contact?: unknown; license?: { name: string } };
  servers?: { url: string }[];
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Op>>;
  components: { schemas: Record<string, Schema> };
};

let doc: Doc;
let admin: TestUser;
const ops = () =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
  );
const resolve = (s: Schema | undefined): Schema | undefined =>
  s?.$ref ? resolve(doc.components.schemas[s.$ref.split('/').pop()!]) : s;
const allowsNull = (s: Schema | undefined) =>
  !!s &&
  ((Array.isArray(s.type) && s.type.includes('null')) ||
    s.type === 'null' ||
    (s.anyOf ?? []).some((x) => x.type === 'null'));

beforeAll(async () => {
  doc = await (await send('GET', '/openapi.json')).json();
  admin = await makeAdmin();
});

describe('request schemas say what the validation accepts', () => {
  it('every body field that accepts null is documented nullable (a generated client can clear it)', () => {
    // The Zod schemas that validate are the truth: ask each field whether it takes null.
    const missing: string[] = [];
    let checked = 0;
    for (const def of createApp().openAPIRegistry.definitions) {
      if (def.type !== 'route') continue;
      const zod = (def.route.request?.body?.content?.['application/json'] as { schema?: unknown } | undefined)
        ?.schema as { shape?: Record<string, { safeParse(v: unknown): { success: boolean } }> } | undefined;
      if (!zod?.shape) continue;
      const documented = resolve(
        doc.paths[def.route.path]?.[def.route.method]?.requestBody?.content['application/json']?.schema,
      );
      for (const [field, schema] of Object.entries(zod.shape)) {
        if (!schema.safeParse(null).success) continue;
        checked++;
        if (!allowsNull(documented?.properties?.[field]))
          missing.push(
            `${def.route.method.toUpperCase()} ${def.route.path} ${field}: ${JSON.stringify(documented?.properties?.[field])}`,
          );
      }
    }
    expect(checked).toBeGreaterThan(50);
    expect(missing).toEqual([]);
  });

  it('names the fields of the finding nullable: horario, gastos_captacao, empresa_id, funcao_profissional_id, email', () => {
    const prop = (schema: string, field: string) => doc.components.schemas[schema]?.properties?.[field];
    expect(allowsNull(prop('UpdateAgendaRequest', 'horario'))).toBe(true);
    expect(allowsNull(prop('UpdateCadastroFotInput', 'gastos_captacao'))).toBe(true);
    expect(allowsNull(prop('registerRequest', 'empresa_id'))).toBe(true);
    expect(allowsNull(prop('createUserRequest', 'empresa_id'))).toBe(true);
    expect(allowsNull(prop('UpdateProfissionalInput', 'funcao_profissional_id'))).toBe(true);
    expect(allowsNull(prop('UpdateProfissionalInput', 'email'))).toBe(true);
  });

  it('documents patterns, enums, formats and multipleOf', () => {
    const s = doc.components.schemas;
    expect(s.UpdateAgendaRequest!.properties!.horario!.pattern).toBe('^(?:[01]\\d|2[0-3]):[0-5]\\d$');
    expect(s.UpdateAgendaRequest!.properties!.data_evento).toMatchObject({
      format: 'date',
      pattern: '^\\d{4}-\\d{2}-\\d{2}$',
    });
    expect(s.PriceInput!.properties!.valor).toMatchObject({ multipleOf: 0.01, minimum: 0 });
    expect(s.PriceInput!.properties!.tipo_evento_id).toMatchObject({ format: 'uuid' });
    // UF codes: any case in requests (pattern), uppercase in responses (enum).
    const uf = new RegExp(s.UpdateCadastroFotInput!.properties!.estado!.pattern as string);
    for (const code of UFS) expect(uf.test(code) && uf.test(code.toLowerCase())).toBe(true);
    expect(uf.test('XX')).toBe(false);
    expect(s.CadastroFotResponse!.properties!.estado!.enum).toEqual([...UFS, null]);
    expect(s.Regiao!.enum).toEqual(['SP', 'MG']);
    expect(s.Error!.properties!.code!.enum).toEqual(Object.keys(codeToStatus));
    expect(s.registerRequest!.properties!.role!.enum).toEqual([
      'EVENT_OWNER',
      'RESEARCHER',
      'agenda_viewer',
      'profissional',
    ]);
    expect(resolve(s.userResponse!.properties!.role)!.enum).toContain('SUPERADMIN');
    // Response ids and timestamps carry their formats.
    for (const [name, schema] of Object.entries(s)) {
      for (const [field, p] of Object.entries(schema.properties ?? {})) {
        if (/^created_at$|^updated_at$|^read_at$|^respondido_em$/.test(field))
          expect(p.format, `${name}.${field}`).toBe('date-time');
        const text = p.type === 'string' || (Array.isArray(p.type) && p.type.includes('string'));
        // request_id (the activity log's) is the X-Request-Id, which a client may choose: no entity id.
        if (
          text &&
          (field === 'id' || field.endsWith('_id')) &&
          field !== 'request_id' &&
          !/Request$|Input$/.test(name)
        )
          expect(p.format, `${name}.${field}`).toBe('uuid');
      }
    }
  });

  it('documents 413 on every operation a client can send a body to, and Retry-After on 429', () => {
    for (const { method, path, op } of ops()) {
      if (method !== 'GET') expect(op.responses['413'], `${method} ${path}`).toBeDefined();
      if (op.responses['429']) expect(op.responses['429'].headers?.['Retry-After'], `${method} ${path}`).toBeDefined();
    }
    expect(doc.paths['/auth/login']!.post!.responses['429']).toBeDefined();
  });

  it('answers 413 PAYLOAD_TOO_LARGE to a body over 64 KiB on every such operation (the contract check holds it to the document)', async () => {
    const big = JSON.stringify({ filler: 'x'.repeat(65 * 1024) });
    const bodies = ops().filter((o) => o.method !== 'GET');
    expect(bodies.length).toBeGreaterThanOrEqual(40);
    // A spreadsheet upload may carry 1 MiB (decisions-2 D20).
    const upload = JSON.stringify({ filler: 'x'.repeat(1024 * 1024) });
    for (const { method, path } of bodies) {
      const res = await api(method, path.replaceAll('{id}', UNKNOWN_ID), {
        token: admin.token,
        rawBody: path === '/api/importacoes' ? upload : big,
        headers: { 'content-type': 'application/json' },
      });
      expectError(res, 413, 'PAYLOAD_TOO_LARGE');
    }
  });
});

describe('lint-level facts of the document', () => {
  it('gives every operation a unique operationId, tags with descriptions and a security requirement', () => {
    const ids = ops().map((o) => o.op.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.paths['/api/admin/users/{id}/role']!.patch!.operationId).toBe('patchAdminUsersByIdRole');
    const described = new Map((doc.tags ?? []).map((t) => [t.name, t.description]));
    for (const { method, path, op } of ops()) {
      expect(Array.isArray(op.security), `${method} ${path} security`).toBe(true);
      for (const tag of op.tags ?? []) expect(described.get(tag), `tag ${tag}`).toBeTruthy();
    }
    expect(doc.paths['/auth/login']!.post!.security).toEqual([]);
  });

  it('names its server, contact and license', () => {
    expect(doc.servers).toEqual([{ url: 'https://api.example.test', description: 'this deployment' }]);
    expect(doc.info.contact).toBeDefined();
    expect(doc.info.license?.name).toBeTruthy();
  });

  it('names API_URL as its server, or `/` without it, never the Host the request was sent to', async () => {
    const serversOf = async (opts: Parameters<typeof send>[3]) =>
      ((await (await send('GET', '/openapi.json', {}, opts)).json()) as Doc).servers;
    expect(await serversOf({ origin: 'https://evil.example' })).toEqual(doc.servers);
    for (const origin of [undefined, 'https://evil.example'])
      expect(await serversOf({ origin, bindings: { API_URL: '' } })).toEqual([
        { url: '/', description: 'this deployment' },
      ]);
  });
});
