/**
 * The OpenAPI document as a contract others generate clients from. Every response of the suite is
 * already held to it (helpers/contract.ts); these tests check what a response cannot show: that the
 * document says everything the validation does, and the lint-level facts of every operation.
 */
import { Validator } from '@cfworker/json-schema';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { UFS } from '../../src/lib/brazil';
import { codeToStatus } from '../../src/lib/errors';
import { eq } from 'drizzle-orm';
import { funcoes, precos, tiposEventos } from '../../src/db/schema';
import { db, makeAdmin, makeCatalog, uniq, type TestUser } from '../helpers/factories';
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
    // A spreadsheet upload may carry 1 MiB (docs/decisions.md#d20).
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

/**
 * What the field builders enforce (lib/fields.ts), said by the document wherever they are used (issue
 * 32 item 19): each route's Zod schemas (the truth) are walked side by side with /openapi.json, and
 * every field is probed: where the server refuses a value of a kind the document can express, the
 * document must carry the keyword that says so, and refuse the value too (JSON Schema 2020-12, formats
 * asserted).
 */
describe('the document is as strict as the field builders (issue 32 item 19)', () => {
  type ZodLike = {
    _zod: { def: Record<string, any> };
    safeParse(v: unknown): { success: boolean };
    shape?: Record<string, ZodLike>;
  };
  const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'nonoptional', 'catch']);
  const core = (z: ZodLike): ZodLike => {
    let s = z;
    for (let i = 0; i < 20; i++) {
      const d = s._zod.def;
      if (WRAPPERS.has(d.type)) s = d.innerType;
      else if (d.type === 'pipe') s = d.in;
      else break;
    }
    return s;
  };
  /** The schema without its null alternative, $refs followed, allOf merged (properties, required). */
  const plain = (s: Schema | undefined): Schema | undefined => {
    const r = resolve(s);
    if (!r) return r;
    const alt = (r.anyOf as Schema[] | undefined)?.filter((x) => x.type !== 'null');
    if (alt && alt.length === 1 && alt.length !== r.anyOf!.length) return plain(alt[0]);
    if (Array.isArray(r.allOf)) {
      const parts = (r.allOf as Schema[]).map(plain);
      return {
        ...r,
        properties: Object.assign({}, ...parts.map((p) => p?.properties ?? {}), r.properties ?? {}),
        required: parts.flatMap((p) => (p?.required as string[] | undefined) ?? []),
      };
    }
    return r;
  };
  const validators = new Map<Schema, Validator>();
  const docAccepts = (s: Schema, v: unknown) => {
    let val = validators.get(s);
    if (!val) {
      val = new Validator({ ...s, components: doc.components } as object, '2020-12', false);
      validators.set(s, val);
    }
    return val.validate(v).valid;
  };
  const formats = (s: Schema | undefined): unknown[] => [
    s?.format,
    ...((s?.anyOf as Schema[] | undefined) ?? []).map((x) => x.format),
  ];

  const counts = { text: 0, email: 0, decimals: 0, distinct: 0, date: 0, partial: 0 };
  const problems: string[] = [];
  const ok = (z: ZodLike, v: unknown) => z.safeParse(v).success;

  function probe(z: ZodLike, d: Schema | undefined, where: string, isBody: boolean) {
    if (!d) return problems.push(`${where}: not in the document`);
    const p = plain(d)!;
    const c = core(z);
    const type = c._zod.def.type;
    const refused = (v: unknown, keyword: string, present: boolean) => {
      if (!present) problems.push(`${where}: no ${keyword}`);
      if (docAccepts(d, v)) problems.push(`${where}: the document allows ${JSON.stringify(v)}, the server refuses it`);
    };
    if (type === 'string') {
      if (ok(z, 'Ana Souza') && !ok(z, 'Ana\u0007Souza')) {
        counts.text++;
        refused('Ana\u0007Souza', 'pattern', typeof p.pattern === 'string');
        refused('Ana\u202eSouza', 'pattern', typeof p.pattern === 'string');
        if (!docAccepts(d, 'Ana Souza')) problems.push(`${where}: the document refuses "Ana Souza"`);
        if (!ok(z, '   ')) refused('   ', 'pattern', typeof p.pattern === 'string');
      }
      if (ok(z, 'maria@example.com') && !ok(z, 'a@localhost')) {
        counts.email++;
        refused('a@localhost', 'pattern', typeof p.pattern === 'string');
      }
      if (ok(z, '2026-12-05') && !ok(z, '2026-02-30')) {
        counts.date++;
        refused('2026-02-30', 'format: date', formats(p).includes('date'));
        refused('ontem', 'format: date', formats(p).includes('date'));
        if (!docAccepts(d, '0099-12-31')) problems.push(`${where}: the document refuses 0099-12-31`);
      }
    }
    if (type === 'number' && ok(z, 7.5) && !ok(z, 7.12345)) {
      counts.decimals++;
      refused(7.12345, 'multipleOf', typeof p.multipleOf === 'number');
      if (ok(z, 7.1234) && !docAccepts(d, 7.1234)) problems.push(`${where}: the document refuses 7.1234`);
    }
    if (type === 'array') {
      const el = c._zod.def.element as ZodLike;
      for (const [a, b] of [
        ['Opção A', 'Opção B'],
        [crypto.randomUUID(), crypto.randomUUID()],
      ])
        if (ok(z, [a, b]) && !ok(z, [a, a]) && ok(el, a)) {
          counts.distinct++;
          refused([a, a], 'uniqueItems', p.uniqueItems === true);
        }
      walk(el, p.items as Schema | undefined, `${where}[]`, isBody);
    }
    if (type === 'object') {
      if (isBody && !ok(z, {}) && !((p.required as string[] | undefined) ?? []).length) {
        counts.partial++;
        refused({}, 'minProperties', typeof p.minProperties === 'number' && p.minProperties >= 1);
      }
      for (const [k, v] of Object.entries(c.shape ?? {}))
        walk(v, (p.properties as Record<string, Schema> | undefined)?.[k], `${where}.${k}`, isBody);
    }
  }
  const walk = (z: ZodLike, d: Schema | undefined, where: string, isBody: boolean) => {
    // The answer of a survey (a union checked against its question by the service) is not probed.
    if (core(z)._zod.def.type === 'union') return;
    probe(z, d, where, isBody);
  };

  it('every field built with a rule the document can state carries it, and the document refuses what the server refuses', () => {
    for (const def of createApp().openAPIRegistry.definitions) {
      if (def.type !== 'route') continue;
      const r = def.route;
      const op = doc.paths[r.path]?.[r.method] as
        (Op & { parameters?: { name: string; in: string; schema: Schema }[] }) | undefined;
      const key = `${r.method.toUpperCase()} ${r.path}`;
      if (!op) {
        problems.push(`${key}: not in the document`);
        continue;
      }
      const body = (r.request?.body?.content?.['application/json'] as { schema?: ZodLike } | undefined)?.schema;
      if (body) walk(body, op.requestBody?.content['application/json']?.schema, `${key} body`, true);
      for (const where of ['query', 'params'] as const) {
        const shape = (r.request?.[where] as ZodLike | undefined)?.shape ?? {};
        for (const [name, z] of Object.entries(shape)) {
          const param = op.parameters?.find((p) => p.name === name && p.in === (where === 'query' ? 'query' : 'path'));
          walk(z, param?.schema, `${key} ${where} ${name}`, false);
        }
      }
    }
    expect(problems).toEqual([]);
    // Every kind is in use (the probes found them): text fields, e-mails, percentages, option lists,
    // dates in bodies and queries, partial updates.
    expect(counts.text).toBeGreaterThan(100);
    expect(counts.email).toBeGreaterThanOrEqual(5);
    expect(counts.decimals).toBeGreaterThanOrEqual(3);
    expect(counts.distinct).toBeGreaterThanOrEqual(1);
    expect(counts.date).toBeGreaterThanOrEqual(15);
    expect(counts.partial).toBeGreaterThanOrEqual(2);
  });

  it('names the keywords of the issue: pattern, multipleOf, minProperties, uniqueItems, minLength, date formats', () => {
    const s = doc.components.schemas;
    const prop = (schema: string, field: string) => s[schema]?.properties?.[field];
    const text = new RegExp(prop('ChamadoRequest', 'assunto')!.pattern as string, 'u');
    expect(text.test('Ajuda')).toBe(true);
    for (const bad of ['a\u0000b', 'a\u202eb', 'a\u2066b', 'a\u009fb', ' ', '\u200b'])
      expect(text.test(bad), bad).toBe(false);
    expect(prop('TabelaTributariaRequest', 'inss_aliquota')).toMatchObject({ multipleOf: 0.0001 });
    const email = new RegExp(prop('loginRequest', 'email')!.pattern as string);
    expect(email.test('maria@example.com')).toBe(true);
    expect(email.test('a@localhost')).toBe(false);
    expect(s.PesquisaUpdate).toMatchObject({ minProperties: 1 });
    expect(s.ChamadoPatch).toMatchObject({ minProperties: 1 });
    expect(plain(prop('PerguntaRequest', 'opcoes'))).toMatchObject({ uniqueItems: true });
    const upload = doc.paths['/api/importacoes']!.post!.requestBody!.content['text/csv']!.schema;
    expect(upload).toMatchObject({ minLength: 1 });
    const params = (path: string) =>
      Object.fromEntries(
        ((doc.paths[path]!.get as unknown as { parameters: { name: string; schema: Schema }[] }).parameters ?? []).map(
          (p) => [p.name, p.schema],
        ),
      );
    expect(params('/api/agenda').de).toMatchObject({ format: 'date' });
    expect(formats(params('/api/logs-atividade').de)).toEqual([undefined, 'date', 'date-time']);
    expect(formats(params('/api/logs-atividade').antes)).toContain('date-time');
    expect(formats(params('/api/v1/notifications').antes)).toContain('date-time');
  });

  it('an empty upload is refused, as its minLength says', async () => {
    const res = await api('POST', '/api/importacoes?tipo=profissionais', {
      token: admin.token,
      rawBody: '',
      headers: { 'content-type': 'text/csv' },
    });
    expectError(res, 400, 'VALIDATION_FAILED');
  });

  it('the 400 answer is documented with its campos', () => {
    const s = doc.components.schemas;
    expect(doc.paths['/auth/login']!.post!.responses['400']).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ValidationError' } } },
    });
    expect(plain(s.ValidationError)!.properties!.campos).toMatchObject({
      type: 'array',
      items: { $ref: '#/components/schemas/CampoErro' },
    });
    expect(s.CampoErro).toMatchObject({ required: ['campo', 'erro'] });
  });
});

describe('what the document allows, the server accepts (issue 32 item 19; the fuzzer samples every field)', () => {
  it('any amount of at most 2 decimals up to the maximum (a fixed tolerance refused 1 in 12 above R$ 100 million)', async () => {
    const [tipo, funcao] = await Promise.all([makeCatalog(tiposEventos, 'SP'), makeCatalog(funcoes, 'SP')]);
    for (const valor of [123456789.07, 280419661.28, 999999999.99, 0.07]) {
      const res = await api('POST', '/api/tipos-eventos/precos', {
        token: admin.token,
        body: { tipo_evento_id: tipo.id, funcao_profissional_id: funcao.id, valor },
      });
      expect(res.status, `${valor}: ${JSON.stringify(res.body)}`).toBe(200);
    }
    const [row] = await db.select().from(precos).where(eq(precos.tipoEventoId, tipo.id));
    expect(row!.valorCentavos).toBe(7);
    expectError(
      await api('POST', '/api/tipos-eventos/precos', {
        token: admin.token,
        body: { tipo_evento_id: tipo.id, funcao_profissional_id: funcao.id, valor: 123456789.075 },
      }),
      400,
      'VALIDATION_FAILED',
    );
  });

  it('a text of maxLength characters counted as the document counts them (an emoji is one)', async () => {
    const max = resolve(doc.components.schemas.CreateCursoRequest)!.properties!.nome!.maxLength as number;
    const nome = `${'🎓'.repeat(max - 5)}${uniq('').slice(-5)}`;
    const res = await api('POST', '/api/cursos', { token: admin.token, body: { nome } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.nome).toBe(nome);
    const over = await api('POST', '/api/cursos', { token: admin.token, body: { nome: `${nome}x` } });
    expectError(over, 400, 'VALIDATION_FAILED');
    expect(over.body.error).toBe(`nome: deve ter no máximo ${max} caracteres`);
  });

  it('e-mails: the pattern is the server rule, which format: email also holds', async () => {
    const pattern = new RegExp(resolve(doc.components.schemas.loginRequest)!.properties!.email!.pattern as string);
    for (const [email, ok] of [
      ['maria.silva+eventos@example.com.br', true],
      ['a@localhost', false],
      ['a@b-.co', false],
      [`${'a'.repeat(65)}@example.com`, false],
    ] as const) {
      expect(pattern.test(email), email).toBe(ok);
      const res = await api('POST', '/auth/forgot-password', { body: { email } });
      expect(res.status === 400, `${email}: ${res.status}`).toBe(!ok);
    }
  });
});
