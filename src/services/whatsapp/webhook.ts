import { and, eq, sql, type SQL } from 'drizzle-orm';
import * as z from 'zod';
import { cachedAuthor, type Author, type AuthoredWrite } from '../../db/authored';
import { run, runBatch } from '../../db/cached-batch';
import { agenda, convites, profissionais, users, whatsappRecebidas, whatsappRespostas } from '../../db/schema';
import { sameWhatsapp } from '../../lib/brazil';
import { ApiError } from '../../lib/errors';
import { hmacKey, sameText } from '../../lib/tokens';
import type { Ctx, WriteCtx } from '../core/context';
import { isTracked, prepareWhatsapp, statusStatements, tokenConvite, verifyConviteToken } from '../core/whatsapp';
import { respond } from '../teams/answer';

/**
 * The WhatsApp webhook (docs/decisions.md#d30; SECURITY.md, "The WhatsApp webhook"): the subscription
 * handshake, the signature over the raw body, and what a delivery carries: statuses of the messages we
 * sent (they move the outbox row) and the professionals' button replies (they answer an invitation
 * through the same service as PATCH /api/convites/{id}). Anything else is acknowledged and ignored.
 */

const hex = (buf: ArrayBuffer) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, '0')).join('');

/** GET /webhooks/whatsapp: the challenge when the mode is `subscribe` and the token matches, else undefined (403). */
export function handshake(
  config: Pick<Ctx['config'], 'WHATSAPP_VERIFY_TOKEN'>,
  q: { mode?: string; token?: string; challenge?: string },
): string | undefined {
  const want = config.WHATSAPP_VERIFY_TOKEN;
  if (!want || q.mode !== 'subscribe' || q.token === undefined || q.challenge === undefined) return undefined;
  return sameText(q.token, want) ? q.challenge : undefined;
}

/**
 * `X-Hub-Signature-256: sha256=<hex>` is the HMAC-SHA256 of the raw body's bytes with
 * WHATSAPP_APP_SECRET, compared in constant time (both 64 hex characters). Unset secret: refused.
 */
export async function verifySignature(secret: string | undefined, header: string | undefined, raw: ArrayBuffer) {
  if (!secret || !header) return false;
  const m = /^sha256=([0-9a-fA-F]{64})$/.exec(header.trim());
  if (!m) return false;
  const mac = hex(await crypto.subtle.sign('HMAC', await hmacKey(secret), raw));
  return sameText(m[1]!.toLowerCase(), mac);
}

// --- What a delivery carries (only the fields acted on; the rest passes) --------------------------

const Status = z.object({
  id: z.string().min(1).max(256),
  status: z.string().max(32),
  timestamp: z
    .string()
    .regex(/^\d{1,12}$/)
    .optional(),
  errors: z.array(z.object({ code: z.number().optional(), title: z.string().optional() })).optional(),
});
const Inbound = z.object({
  id: z.string().min(1).max(256),
  from: z.string().regex(/^\d{8,15}$/),
  type: z.string().max(32),
  button: z.object({ payload: z.string().max(512) }).optional(),
  interactive: z
    .object({ type: z.string().max(32), button_reply: z.object({ id: z.string().max(512) }).optional() })
    .optional(),
});
const Delivery = z.object({
  entry: z
    .array(
      z.object({
        changes: z
          .array(
            z.object({
              value: z.object({
                messages: z.array(z.unknown()).max(100).optional(),
                statuses: z.array(z.unknown()).max(100).optional(),
              }),
            }),
          )
          .max(100),
      }),
    )
    .max(100),
});

export interface Received {
  statuses: z.infer<typeof Status>[];
  replies: { id: string; from: string; answer: 'aceito' | 'recusado'; token: string }[];
}

/** The statuses and the button replies of a delivery; what does not fit is left out (never an error). */
export function readDelivery(raw: string): Received {
  const out: Received = { statuses: [], replies: [] };
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return out;
  }
  const d = Delivery.safeParse(json);
  if (!d.success) return out;
  for (const e of d.data.entry)
    for (const c of e.changes) {
      for (const s of c.value.statuses ?? []) {
        const p = Status.safeParse(s);
        if (p.success) out.statuses.push(p.data);
      }
      for (const m of c.value.messages ?? []) {
        const p = Inbound.safeParse(m);
        if (!p.success) continue;
        // A quick reply of a template (`button`), or of an interactive message (`button_reply`).
        const payload =
          p.data.type === 'button'
            ? p.data.button?.payload
            : p.data.type === 'interactive' && p.data.interactive?.type === 'button_reply'
              ? p.data.interactive.button_reply?.id
              : undefined;
        const hit = payload && /^(aceitar|recusar):(.{1,200})$/.exec(payload);
        if (hit)
          out.replies.push({
            id: p.data.id,
            from: p.data.from,
            answer: hit[1] === 'aceitar' ? 'aceito' : 'recusado',
            token: hit[2]!,
          });
      }
    }
  return out;
}

// --- Statuses -------------------------------------------------------------------------------------

const at = (ts: string | undefined, now: Date) => (ts ? new Date(Number(ts) * 1000) : now).toISOString();

/**
 * Each status moves its outbox row forward only (services/core/whatsapp.ts statusUpdate), or, when
 * it arrived before the consumer wrote the row's wamid, is kept for that wamid and applied by the
 * consumer (statusStatements): never lost, never applied twice. One batch for the delivery.
 */
export async function applyStatuses(ctx: Pick<Ctx, 'db'>, statuses: Received['statuses'], now: Date) {
  const { db } = ctx;
  const writes = statuses.flatMap((s) => {
    // `sent` is the consumer's to record; kinds we do not track pass.
    if (!isTracked(s.status)) return [];
    const e = s.errors?.[0];
    return statusStatements(db, {
      wamid: s.id,
      status: s.status,
      em: at(s.timestamp, now),
      erro: s.status === 'failed' ? `whatsapp: ${e?.code ?? ''} ${e?.title ?? 'failed'}`.slice(0, 300) : undefined,
      at: now.toISOString(),
    });
  });
  if (writes.length > 0) await db.batch(writes as [(typeof writes)[number], ...typeof writes]);
  return writes.length;
}

// --- Button replies -------------------------------------------------------------------------------

/** What happened to one reply (the tests and the log read it; Meta gets 200 whatever it is). */
export type ReplyOutcome =
  | 'duplicado'
  | 'token_invalido'
  | 'numero_diferente'
  | 'sem_conta'
  | 'token_usado'
  | 'respondido'
  | 'recusado_pela_regra';

const warn = (message: string, extra: Record<string, unknown>) =>
  console.warn(JSON.stringify({ level: 'warn', message: `whatsapp webhook: ${message}`, ...extra }));

/** The invitation a token names, with what the reply's checks need: one read. */
const target = (ctx: Pick<Ctx, 'db'>, conviteId: string) =>
  ctx.db
    .select({
      conviteId: convites.id,
      regiao: agenda.regiao,
      dataEvento: agenda.dataEvento,
      horario: agenda.horario,
      profissionalId: profissionais.id,
      e164: profissionais.whatsappE164,
      desde: profissionais.whatsappDesde,
      user: { id: users.id, role: users.role, empresaId: users.empresaId, ativo: users.ativo },
    })
    .from(convites)
    .innerJoin(agenda, eq(agenda.id, convites.agendaId))
    .innerJoin(profissionais, eq(profissionais.id, convites.profissionalId))
    .leftJoin(users, eq(users.id, profissionais.usuarioId))
    .where(eq(convites.id, conviteId));

const quando = (d: string, h: string | null) =>
  `${d.slice(8, 10)}/${d.slice(5, 7)}/${d.slice(0, 4)}${h ? ` às ${h}` : ''}`;

/** Which of the answer batch's once-only keys, or its account check, aborted it, from D1's error. */
const aborted = (err: unknown) => {
  const m = err instanceof Error ? err.message : '';
  if (/NOT NULL constraint failed: whatsapp_recebidas\.de/.test(m)) return 'sem_conta';
  if (!/UNIQUE constraint failed/.test(m)) return undefined;
  return m.includes('whatsapp_recebidas') ? 'duplicado' : m.includes('whatsapp_respostas') ? 'token_usado' : undefined;
};

/**
 * One button reply, in two round trips: the invitation the token names (one read), then ONE atomic
 * batch that records the inbound message id (each once: a replay, or the same delivery arriving ten
 * times at once, aborts its batch on the primary key and changes nothing), spends the token (single
 * use: one row per invitation, same abort), answers the invitation with `respond`, the service of
 * PATCH /api/convites/{id}, as the professional (the same quota, overlap and state rules,
 * notifications, fee and log entry), and queues the reply saying so. Before that batch the token must
 * be the invitation's for its professional, the sender the professional's consented number and the
 * professional an active account; the batch checks the account and the consent again (a change
 * between the read and the batch aborts it). A refusal by the rules gives the token back and says
 * why (one more round trip, on that path only). Nobody but the consented number is ever written to.
 */
export async function answerReply(
  ctx: Omit<WriteCtx, 'write' | 'regiao'>,
  reply: Received['replies'][number],
  now: Date,
): Promise<ReplyOutcome> {
  const { db, config } = ctx;
  const iso = now.toISOString();
  const conviteId = tokenConvite(reply.token);
  const [t] = conviteId ? await target(ctx, conviteId) : [];
  if (!t || !(await verifyConviteToken(config.JWT_SECRET, reply.token, t.profissionalId))) {
    warn('a reply with an invalid token was ignored', { messageId: reply.id });
    return 'token_invalido';
  }
  if (!t.desde || !t.e164 || !sameWhatsapp(t.e164, reply.from)) {
    warn("a reply from a number other than the professional's consented one was ignored", {
      messageId: reply.id,
      conviteId: t.conviteId,
    });
    return 'numero_diferente';
  }
  /** The reply to the professional, keyed by the inbound message (at most one per message). */
  const reply_ = (texto: string, when?: SQL) =>
    prepareWhatsapp(
      db,
      config,
      { tipo: 'resposta', chave: `resposta:${reply.id}`, profissionalId: t.profissionalId, dados: { texto }, when },
      now,
    );
  const tell = async (texto: string) => {
    const msg = reply_(texto);
    if (!msg) return;
    await msg.insert;
    ctx.whatsapp([msg.id]);
  };
  const user = t.user;
  if (!user?.id || !user.ativo || user.role !== 'profissional') {
    await tell('Não foi possível responder ao convite por aqui: entre no aplicativo com a sua conta.');
    return 'sem_conta';
  }
  const evento = quando(t.dataEvento, t.horario);
  const done =
    reply.answer === 'aceito'
      ? `Convite aceito: você está na equipe do evento de ${evento}. Até lá!`
      : `Convite recusado (evento de ${evento}). Obrigado por avisar.`;
  // Queued in the answer's batch, after its update: only when the invitation now has the answer.
  const told = reply_(
    done,
    sql`exists (select 1 from ${convites} where ${convites.id} = ${t.conviteId} and ${convites.status} = ${reply.answer})`,
  );

  // The professional's own answer, as PATCH /api/convites/{id} writes it for a professional whose
  // user row was read (db/authored.ts: no author check to fold; the account was checked just above).
  const scope = { id: user.id, role: user.role, empresaId: user.empresaId };
  const log = { atorId: user.id, atorRole: user.role, requestId: ctx.log.requestId };
  const author: Author = { scope, guard: sql`1`, log, cached: cachedAuthor(scope, null) };
  // The account and consent checks above, again inside the batch: an account deactivated, or a
  // consent withdrawn or moved to another number, between that read and this batch would otherwise
  // still answer. The inbound id's `de` is NOT NULL: when they fail, its insert fails and D1 rolls
  // the whole answer back (no author check to fold: a reply has no session, db/authored.ts).
  const still = sql`exists (select 1 from ${profissionais} join ${users} on ${users.id} = ${profissionais.usuarioId}
    where ${profissionais.id} = ${t.profissionalId} and ${users.id} = ${user.id} and ${users.ativo} = 1
      and ${users.role} = 'profissional' and ${profissionais.whatsappDesde} is not null
      and ${profissionais.whatsappE164} = ${t.e164})`;
  const write: AuthoredWrite = (build) =>
    runBatch(db, {
      inbound: run(
        db.insert(whatsappRecebidas).select(sql`select ${reply.id}, case when ${still} then ${reply.from} end, ${iso}`),
      ),
      token: run(db.insert(whatsappRespostas).values({ conviteId: t.conviteId, mensagemId: reply.id, createdAt: iso })),
      ...build(author),
      ...(told ? { told: run(told.insert) } : {}),
    }) as never;
  try {
    await respond({ db, write, regiao: t.regiao, push: ctx.push, config }, t.conviteId, { status: reply.answer });
  } catch (err) {
    const key = aborted(err);
    if (key === 'duplicado') return key;
    if (key === 'sem_conta') {
      // Told only while the consent still holds (prepareWhatsapp's guard).
      await tell('Não foi possível responder ao convite por aqui: entre no aplicativo com a sua conta.');
      return key;
    }
    if (key === 'token_usado') {
      await tell('Este convite já foi respondido por aqui. Para mudar a resposta, use o aplicativo.');
      return key;
    }
    if (!(err instanceof ApiError)) throw err;
    // Refused by the rules: the invitation is unchanged, so the token is given back for a later tap.
    await db
      .delete(whatsappRespostas)
      .where(and(eq(whatsappRespostas.conviteId, t.conviteId), eq(whatsappRespostas.mensagemId, reply.id)));
    const verbo = reply.answer === 'aceito' ? 'aceitar' : 'recusar';
    await tell(`Não foi possível ${verbo} o convite do evento de ${evento}: ${err.message}.`);
    return 'recusado_pela_regra';
  }
  if (told) ctx.whatsapp([told.id]);
  return 'respondido';
}

/** A signed delivery: its statuses, then its replies one by one (each at most once). */
export async function receive(ctx: Omit<WriteCtx, 'write' | 'regiao'>, raw: string, now: Date) {
  const got = readDelivery(raw);
  await applyStatuses(ctx, got.statuses, now);
  const outcomes: ReplyOutcome[] = [];
  for (const reply of got.replies) outcomes.push(await answerReply(ctx, reply, now));
  return outcomes;
}
