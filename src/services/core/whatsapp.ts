import { and, eq, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import { createDb } from '../../db/client';
import type { Db } from '../../db/client';
import { insertWhere } from '../../db/guarded';
import { agenda, profissionais, whatsappOutbox, type WhatsappTipo } from '../../db/schema';
import type { Bindings, Config } from '../../env';
import { enqueueInBackground } from '../../lib/background';
import type { WhatsappMessage } from '../../lib/messages';
import { hmacSha256Hex, sameText } from '../../lib/tokens';

/**
 * WhatsApp (docs/decisions.md#d30), the writer side, like e-mail (services/core/mail.ts): the outbox
 * statement a write adds to its own D1 batch, the enqueue after it, the invitation's quick-reply token
 * and the safety net that re-enqueues rows whose message was lost. The sending side is
 * src/queue/whatsapp-consumer.ts (through services/core/whatsapp-cloud.ts); the webhook is
 * services/whatsapp/webhook.ts.
 *
 * A row is written only for a professional who opted in (`whatsapp_desde` set; PUT /api/me/canais),
 * to the E.164 number consented (`whatsapp_e164`), and only while the channel is on (WHATSAPP_TOKEN
 * set). Its `chave` (kind, cause, recipient) is unique: a retried write or an overlapping job inserts
 * nothing the second time, so each message exists at most once.
 */

/** The channel is on when Meta's token is set (the `log` provider of npm run dev sets a dummy one). */
export const whatsappOn = (config: Pick<Config, 'WHATSAPP_TOKEN'>) => config.WHATSAPP_TOKEN !== undefined;

/** The profile may receive messages: it opted in and its number is the consented one (the trigger clears both). */
export const consented = (profissionalId: string | SQL) =>
  sql`exists (select 1 from ${profissionais} where ${profissionais.id} = ${profissionalId} and ${profissionais.whatsappDesde} is not null and ${profissionais.whatsappE164} is not null)`;

/** An event's start as the templates write it, in SQL: 2026-12-05 + 19:30 → "05/12/2026 às 19:30". */
export const quandoSql = (a: typeof agenda = agenda) =>
  sql`substr(${a.dataEvento}, 9, 2) || '/' || substr(${a.dataEvento}, 6, 2) || '/' || substr(${a.dataEvento}, 1, 4) || coalesce(' às ' || ${a.horario}, '')`;

export interface NewWhatsapp {
  tipo: WhatsappTipo;
  /** Once-only key: kind, cause and recipient (`convite_evento:<convite id>`). */
  chave: string | SQL;
  profissionalId: string | SQL;
  conviteId?: string | SQL;
  /** The event it is about, when there is one. */
  agendaId?: string | SQL;
  /** Template parameters: values, or SQL (json_object(...)) evaluated inside the batch. */
  dados: Record<string, unknown> | SQL;
  /** The row is inserted only when this also holds inside the batch (the cause happened). */
  when?: SQL;
}

/**
 * THE way a write produces one WhatsApp message: a guarded insert for its batch (nothing when the
 * professional has not consented, when `when` fails or when the key exists) and the row id to hand
 * to `enqueueWhatsapp` after the batch (a message for a row never written is acknowledged and
 * dropped by the consumer). Undefined while the channel is off.
 */
export function prepareWhatsapp(db: Db, config: Pick<Config, 'WHATSAPP_TOKEN'>, msg: NewWhatsapp, now: Date) {
  if (!whatsappOn(config)) return undefined;
  const id = crypto.randomUUID();
  const at = now.toISOString();
  const para = sql`(select ${profissionais.whatsappE164} from ${profissionais} where ${profissionais.id} = ${msg.profissionalId})`;
  const insert = insertWhere(
    db,
    whatsappOutbox,
    {
      id,
      chave: msg.chave as string,
      tipo: msg.tipo,
      para: para as unknown as string,
      profissionalId: msg.profissionalId as string,
      conviteId: (msg.conviteId ?? null) as string | null,
      agendaId: (msg.agendaId ?? null) as string | null,
      dados: msg.dados as Record<string, unknown>,
      status: 'pendente',
      tentativas: 0,
      disponivelEm: at,
      createdAt: at,
      updatedAt: at,
    },
    and(consented(msg.profissionalId), msg.when ?? sql`1`)!,
  ).onConflictDoNothing();
  return { id, insert };
}

/** Where a service hands the outbox ids of its WhatsApp messages once its batch succeeded. */
export type SendWhatsapp = (outboxIds: string[]) => void;

/** Enqueues outbox ids in the background; a lost enqueue leaves the row to requeuePendingWhatsapp. */
export function enqueueWhatsapp(
  queue: Queue<WhatsappMessage> | undefined,
  waitUntil: (p: Promise<unknown>) => void,
  outboxIds: string[],
) {
  enqueueInBackground(
    queue,
    waitUntil,
    outboxIds.map((outboxId) => ({ outboxId })),
    'whatsapp enqueue failed (the scheduled re-enqueue will send it)',
    { outboxIds },
  );
}

// --- The invitation's quick-reply token -----------------------------------------------------------
//
// The two buttons of `convite_evento` carry `aceitar:<token>` / `recusar:<token>`, the token being
// `<convite id>.<mac>`: the mac is an HMAC (key derived from JWT_SECRET) of the invitation and its
// professional, so a payload names one invitation for one professional and cannot be forged or moved
// to another invitation. It is single use: the first reply that acts on it marks the outbox row
// (`token_usado_em`, a guarded UPDATE). Nothing of it is stored: the consumer mints it when it sends.

const TOKEN_RE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([0-9a-f]{32})$/;

const tokenMac = async (secret: string, conviteId: string, profissionalId: string) =>
  (await hmacSha256Hex(secret, `whatsapp-convite\u0000${conviteId}\u0000${profissionalId}`)).slice(0, 32);

export async function conviteToken(secret: string, conviteId: string, profissionalId: string) {
  return `${conviteId}.${await tokenMac(secret, conviteId, profissionalId)}`;
}

/** The invitation id a token names (not yet verified), or undefined when it is malformed. */
export const tokenConvite = (token: string) => TOKEN_RE.exec(token)?.[1];

/** Whether `token` is this invitation's for this professional (constant-time comparison). */
export async function verifyConviteToken(secret: string, token: string, profissionalId: string) {
  const m = TOKEN_RE.exec(token);
  if (!m) return false;
  return sameText(m[2]!, await tokenMac(secret, m[1]!, profissionalId));
}

// --- The safety net -------------------------------------------------------------------------------

/** Like e-mail's: a pending row past its time by 5 minutes lost its message; a claim 10 minutes old lost its consumer. */
export const WA_REQUEUE_AFTER_MS = 5 * 60 * 1000;
export const WA_CLAIM_LEASE_MS = 10 * 60 * 1000;
const REQUEUE_LIMIT = 100;

/**
 * Re-enqueues the WhatsApp messages whose queue message was lost (`pendente` past its time by 5
 * minutes) or whose consumer died mid-send (`enviando` past the lease; Meta has no idempotency key, so
 * such a message may arrive twice: the one case the claim cannot cover). The guarded UPDATE that picks
 * a row moves its time to now, so two overlapping runs do not pick it twice. Scheduled dispatcher job.
 */
export async function requeuePendingWhatsapp(env: Bindings, now: Date): Promise<string[]> {
  const db = createDb(env.DB);
  const at = now.toISOString();
  const due = new Date(now.getTime() - WA_REQUEUE_AFTER_MS).toISOString();
  const leaseOver = new Date(now.getTime() - WA_CLAIM_LEASE_MS).toISOString();
  const stale = or(
    and(eq(whatsappOutbox.status, 'pendente'), lt(whatsappOutbox.disponivelEm, due)),
    and(eq(whatsappOutbox.status, 'enviando'), lt(whatsappOutbox.updatedAt, leaseOver)),
  )!;
  const picked = await db
    .update(whatsappOutbox)
    .set({ status: 'pendente', disponivelEm: at, updatedAt: at })
    .where(
      and(
        inArray(
          whatsappOutbox.id,
          db.select({ id: whatsappOutbox.id }).from(whatsappOutbox).where(stale).limit(REQUEUE_LIMIT),
        ),
        stale,
      ),
    )
    .returning({ id: whatsappOutbox.id });
  const ids = picked.map((r) => r.id);
  if (ids.length > 0 && env.WHATSAPP_QUEUE) {
    // Awaited: a failure leaves the rows to the next run.
    await env.WHATSAPP_QUEUE.sendBatch(ids.map((outboxId) => ({ body: { outboxId } })));
  }
  return ids;
}
