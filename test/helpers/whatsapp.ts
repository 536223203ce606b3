/**
 * A local fake of Meta's WhatsApp Cloud API for the WhatsApp consumer (injected fetch: no test reaches
 * the network), and webhook deliveries signed as Meta signs them (X-Hub-Signature-256).
 */
import { createExecutionContext, createMessageBatch, env, getQueueResult } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';

import * as schema from '../../src/db/schema';
import { agenda, funcoes, tiposEventos } from '../../src/db/schema';
import type { Bindings } from '../../src/env';
import { WHATSAPP_QUEUE_NAME, type WhatsappMessage } from '../../src/lib/messages';
import { hmacSha256Hex } from '../../src/lib/tokens';
import { handleWhatsappBatch } from '../../src/queue/whatsapp-consumer';
import { expect, vi } from 'vitest';
import { db, makeAdmin, makeCatalog, makeFot, makeProfissional, makeUser, uniq, type TestUser } from './factories';
import { recordRetryDelays } from './queue';
import { api, send } from './request';

/** Records each call; answers like the Cloud API (a new wamid per message) unless `answer` says otherwise. */
export function fakeWhatsapp(opts: { answer?: (url: URL, body: any) => Response | undefined } = {}) {
  const calls: { url: URL; headers: Headers; body: any }[] = [];
  const fetchImpl = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input));
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ url, headers: new Headers(init.headers), body });
    const forced = opts.answer?.(url, body);
    if (forced) return forced;
    if (init.method === 'POST' && /\/messages$/.test(url.pathname))
      return Response.json({
        messaging_product: 'whatsapp',
        contacts: [{ input: body?.to, wa_id: body?.to }],
        messages: [{ id: `wamid.${uniq('fake')}` }],
      });
    return Response.json({ error: { message: 'Unknown path', code: 100 } }, { status: 400 });
  }) as unknown as typeof fetch;
  return { calls, fetchImpl };
}

/** The env of a consumer that sends through the Cloud API (the pool's own uses the log provider). */
export const cloudEnv = (over: Partial<Bindings> = {}): Bindings => ({
  ...(env as Bindings),
  WHATSAPP_PROVIDER: 'cloud',
  ...over,
});

/** Runs the WhatsApp consumer on these outbox ids; the pool's result plus each retry's delay. */
export async function runWhatsapp(
  outboxIds: string[],
  fetchImpl: typeof fetch,
  o: { attempts?: number; now?: () => Date; bindings?: Partial<Bindings> } = {},
) {
  const batch = createMessageBatch<WhatsappMessage>(
    WHATSAPP_QUEUE_NAME,
    outboxIds.map((outboxId, i) => ({
      id: `w-${i}-${uniq()}`,
      timestamp: new Date(),
      attempts: o.attempts ?? 1,
      body: { outboxId },
    })),
  );
  const delays = recordRetryDelays(batch);
  const ctx = createExecutionContext();
  await handleWhatsappBatch(batch, cloudEnv(o.bindings), fetchImpl, o.now);
  return { ...(await getQueueResult(batch, ctx)), delays, ids: batch.messages.map((m) => m.id) };
}

export const outboxRow = async (id: string) =>
  (await db.select().from(schema.whatsappOutbox).where(eq(schema.whatsappOutbox.id, id)))[0];

export const outboxOf = (conviteId: string) =>
  db.select().from(schema.whatsappOutbox).where(eq(schema.whatsappOutbox.conviteId, conviteId));

export const APP_SECRET = env.WHATSAPP_APP_SECRET as string;

export const signature = async (raw: string, secret = APP_SECRET) => `sha256=${await hmacSha256Hex(secret, raw)}`;

/**
 * POST /webhooks/whatsapp with `body` (an object, or the raw text) signed, unless `sig` overrides the
 * header (null: none); `bindings` replaces bindings (a D1 that interleaves a write).
 */
export async function deliver(
  body: unknown,
  o: { sig?: string | null; signBody?: string; bindings?: Partial<Cloudflare.Env> } = {},
) {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  const sig = o.sig === undefined ? await signature(o.signBody ?? raw) : o.sig;
  return send(
    'POST',
    '/webhooks/whatsapp',
    {
      headers: { 'content-type': 'application/json', ...(sig === null ? {} : { 'x-hub-signature-256': sig }) },
      body: raw,
    },
    { bindings: o.bindings },
  );
}

/** A webhook delivery as Meta sends it: `value` holds `messages` and/or `statuses`. */
export const envelope = (value: Record<string, unknown>) => ({
  object: 'whatsapp_business_account',
  entry: [
    {
      id: '102290129340398',
      changes: [
        {
          field: 'messages',
          value: {
            messaging_product: 'whatsapp',
            metadata: { display_phone_number: '15550783881', phone_number_id: env.WHATSAPP_PHONE_NUMBER_ID },
            ...value,
          },
        },
      ],
    },
  ],
});

/** A quick-reply tap on a template (`type: button`), from `from` (digits), with `payload`. */
export const buttonReply = (from: string, payload: string, id = `wamid.in-${uniq()}`) =>
  envelope({
    contacts: [{ profile: { name: 'Fulano' }, wa_id: from }],
    messages: [
      {
        context: { from: '15550783881', id: 'wamid.ctx' },
        from,
        id,
        timestamp: String(Math.floor(Date.now() / 1000)),
        type: 'button',
        button: { payload, text: payload.startsWith('aceitar') ? 'Aceitar' : 'Recusar' },
      },
    ],
  });

/** A status of an outgoing message. */
export const statusOf = (wamid: string, status: string, recipient = '5511999990000') =>
  envelope({
    statuses: [{ id: wamid, status, timestamp: String(Math.floor(Date.now() / 1000)), recipient_id: recipient }],
  });

/** An outbox row straight into D1 (never enqueued, so the pool's own consumer leaves it to the test). */
export async function makeOutbox(over: Partial<typeof schema.whatsappOutbox.$inferInsert> = {}) {
  const at = new Date().toISOString();
  const [row] = await db
    .insert(schema.whatsappOutbox)
    .values({
      chave: uniq('teste'),
      tipo: 'lembrete_d1',
      para: '+5511987654321',
      dados: { nome: 'Fulana', quando: '10/05/2027 às 19:30' },
      disponivelEm: at,
      ...over,
    })
    .returning();
  return row!;
}

/** A Brazilian mobile number of São Paulo, written as people write it, and its E.164. */
export function mobile() {
  const n = String(Math.floor(Math.random() * 1e8)).padStart(8, '0');
  return { written: `(11) 9${n.slice(0, 4)}-${n.slice(4)}`, e164: `+55119${n}` };
}

async function makeEvento(creator: TestUser) {
  const fot = await makeFot('SP');
  const tipo = await makeCatalog(tiposEventos, 'SP');
  const [row] = await db
    .insert(agenda)
    .values({
      regiao: 'SP',
      userId: creator.id,
      fotId: fot.id,
      tipoEventoId: tipo.id,
      dataEvento: '2027-05-10',
      horario: '19:30',
    })
    .returning();
  return row!;
}

/** An event with one place of a function, and a professional (consented or not) invited to it. */
export async function invitedPro(consent: boolean) {
  const admin = await makeAdmin();
  const funcao = await makeCatalog(funcoes, 'SP', uniq('Fotógrafo'));
  const event = await makeEvento(admin);
  await api('PUT', `/api/agenda/${event.id}/equipe`, {
    token: admin.token,
    body: [{ funcao_id: funcao.id, quantidade: 1 }],
  });
  const user = await makeUser({ role: 'profissional' });
  const m = mobile();
  const prof = await makeProfissional('SP', { usuarioId: user.id, whatsapp: m.written, nome: uniq('Fulana') }, [
    funcao.id,
  ]);
  if (consent) await api('PUT', '/api/me/canais', { token: user.token, body: { whatsapp: true } });
  const res = await api('POST', `/api/agenda/${event.id}/convites`, {
    token: admin.token,
    body: { profissional_id: prof.id, funcao_id: funcao.id },
  });
  expect(res.status).toBe(201);
  return { admin, funcao, event, user, prof, m, convite: res.body };
}

/**
 * A professional of `regiao` holding `funcaoIds` (a new function when none), with a mobile number,
 * opted in to WhatsApp through PUT /api/me/canais unless `consent` is false; `over` sets profile columns.
 */
export async function makeWhatsappPro(
  o: {
    regiao?: string;
    funcaoIds?: string[];
    consent?: boolean;
    over?: Partial<typeof schema.profissionais.$inferInsert>;
  } = {},
) {
  const regiao = o.regiao ?? 'SP';
  const funcaoIds = o.funcaoIds ?? [(await makeCatalog(funcoes, regiao, uniq('Função'))).id];
  const user = await makeUser({ role: 'profissional' });
  const m = mobile();
  const prof = await makeProfissional(
    regiao,
    { usuarioId: user.id, whatsapp: m.written, nome: uniq('Fulana'), ...o.over },
    funcaoIds,
  );
  if (o.consent !== false)
    expect((await api('PUT', '/api/me/canais', { token: user.token, body: { whatsapp: true } })).status).toBe(200);
  return { user, prof, m, funcaoId: funcaoIds[0]! };
}

/** The outbox rows of a professional, of one kind, oldest first. */
export const outboxOfPro = (profissionalId: string, tipo: schema.WhatsappTipo) =>
  db
    .select()
    .from(schema.whatsappOutbox)
    .where(and(eq(schema.whatsappOutbox.profissionalId, profissionalId), eq(schema.whatsappOutbox.tipo, tipo)))
    .orderBy(schema.whatsappOutbox.createdAt, schema.whatsappOutbox.chave);
