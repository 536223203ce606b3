import { and, eq, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { createDb } from '../../db/client';
import type { Db } from '../../db/client';
import { generatedId } from '../../db/generated-id';
import { insertWhere } from '../../db/guarded';
import { outboxSteps, requeuedIds } from '../../db/outbox-claim';
import { insertSelect } from '../../db/insert-select';
import {
  agenda,
  profissionais,
  whatsappOutbox,
  whatsappStatusPendentes,
  WHATSAPP_STATUS_RECEBIDOS,
  type WhatsappTipo,
} from '../../db/schema';
import type { Bindings, Config } from '../../env';
import { enqueueInBackground, SEND_BATCH_MAX } from '../../lib/background';
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

export interface NewWhatsappRows {
  /** The kind, or a per-row expression yielding one. */
  tipo: WhatsappTipo | SQL;
  /** `from ... join ...`: one message per row it yields (with `where`). */
  from: SQL;
  where: SQL;
  /** Per-row expressions over `from`'s tables: the once-only key, the recipient, the cause, the template parameters. */
  chave: SQL;
  profissionalId: SQL;
  conviteId?: SQL;
  agendaId?: SQL;
  dados: SQL;
}

/**
 * prepareWhatsapp for a set-based write (a scheduled run, every member of a team, every professional
 * of a payout batch): ONE guarded `INSERT ... SELECT` for the write's batch, a row per consented
 * professional `from`/`where` yields, none for a key that exists (ON CONFLICT DO NOTHING), answering
 * the ids it inserted (RETURNING) to enqueue after the batch. Undefined while the channel is off.
 */
export function prepareWhatsappRows(db: Db, config: Pick<Config, 'WHATSAPP_TOKEN'>, msg: NewWhatsappRows, now: Date) {
  if (!whatsappOn(config)) return undefined;
  const at = now.toISOString();
  return insertSelect(
    db,
    whatsappOutbox,
    {
      id: generatedId,
      chave: msg.chave,
      tipo: sql`${msg.tipo}`,
      para: sql`(select ${profissionais.whatsappE164} from ${profissionais} where ${profissionais.id} = ${msg.profissionalId})`,
      profissionalId: msg.profissionalId,
      conviteId: msg.conviteId ?? sql`null`,
      agendaId: msg.agendaId ?? sql`null`,
      dados: msg.dados,
      status: sql`'pendente'`,
      tentativas: sql`0`,
      disponivelEm: sql`${at}`,
      createdAt: sql`${at}`,
      updatedAt: sql`${at}`,
    },
    // The WHERE also keeps SQLite's INSERT ... SELECT ... ON CONFLICT unambiguous.
    sql`${msg.from} where ${msg.where} and ${consented(msg.profissionalId)}`,
  )
    .onConflictDoNothing()
    .returning({ id: whatsappOutbox.id });
}

/** Where a service hands the outbox ids of its WhatsApp messages once its batch succeeded. */
export type SendWhatsapp = (outboxIds: string[]) => void;

/** Enqueues outbox ids in the background (100 per call); a lost enqueue leaves the row to requeuePendingWhatsapp. */
export function enqueueWhatsapp(
  queue: Queue<WhatsappMessage> | undefined,
  waitUntil: (p: Promise<unknown>) => void,
  outboxIds: string[],
) {
  for (let i = 0; i < outboxIds.length; i += SEND_BATCH_MAX) {
    const ids = outboxIds.slice(i, i + SEND_BATCH_MAX);
    enqueueInBackground(
      queue,
      waitUntil,
      ids.map((outboxId) => ({ outboxId })),
      'whatsapp enqueue failed (the scheduled re-enqueue will send it)',
      { outboxIds: ids },
    );
  }
}

// --- Statuses (the webhook's, and those that arrived before their wamid) --------------------------

export type TrackedStatus = (typeof WHATSAPP_STATUS_RECEBIDOS)[number];

export const isTracked = (s: string): s is TrackedStatus =>
  (WHATSAPP_STATUS_RECEBIDOS as readonly string[]).includes(s);

interface StatusMove {
  wamid: string;
  status: TrackedStatus;
  /** When it happened, and a failure's reason: values, or SQL. */
  em: string | SQL;
  erro?: string | SQL | null;
  /** The move happens only when this also holds. */
  when?: SQL;
  at: string;
}

/**
 * The move one status makes on the row with its wamid, forward only (Meta may deliver `read` before
 * `delivered`, or twice): enviado → entregue → lido; `failed` marks a row not yet delivered `falhou`.
 */
export function statusUpdate(db: Db, m: StatusMove) {
  const o = whatsappOutbox;
  const row = and(eq(o.wamid, m.wamid), m.when ?? sql`1`);
  switch (m.status) {
    case 'delivered':
      return db
        .update(o)
        .set({ status: 'entregue', entregueEm: m.em, updatedAt: m.at })
        .where(and(row, eq(o.status, 'enviado')));
    case 'read':
      return db
        .update(o)
        .set({ status: 'lido', lidoEm: m.em, entregueEm: sql`coalesce(${o.entregueEm}, ${m.em})`, updatedAt: m.at })
        .where(and(row, inArray(o.status, ['enviado', 'entregue'])));
    case 'failed':
      return db
        .update(o)
        .set({ status: 'falhou', erro: m.erro ?? null, updatedAt: m.at })
        .where(and(row, inArray(o.status, ['enviando', 'enviado'])));
  }
}

const noRowHas = (wamid: string) =>
  sql`not exists (select 1 from ${whatsappOutbox} where ${whatsappOutbox.wamid} = ${wamid})`;

/**
 * The webhook's statements for one status: the move, and, while no row has the wamid yet (the
 * consumer's settle has not landed), the status kept for it (whatsapp_status_pendentes, once per
 * kind). In one batch: D1 runs it wholly before or wholly after the settle's batch, so the status is
 * applied by exactly one of the two.
 */
export function statusStatements(db: Db, m: Omit<StatusMove, 'when' | 'em' | 'erro'> & { em: string; erro?: string }) {
  return [
    statusUpdate(db, m),
    insertWhere(
      db,
      whatsappStatusPendentes,
      { wamid: m.wamid, status: m.status, em: m.em, erro: m.erro ?? null, createdAt: m.at },
      noRowHas(m.wamid),
    ).onConflictDoNothing(),
  ];
}

/**
 * The consumer's statements after the settle that writes `wamid`, in its batch: the statuses kept
 * for that wamid applied in Meta's order (delivered, read, failed; each move forward only), then
 * deleted, once a row has the wamid (a settle that lost its claim leaves them).
 */
export function keptStatuses(db: Db, wamid: string, at: string) {
  const p = whatsappStatusPendentes;
  const kept = (status: TrackedStatus, col: 'em' | 'erro') =>
    sql`(select ${p[col]} from ${p} where ${p.wamid} = ${wamid} and ${p.status} = ${status})`;
  return [
    ...WHATSAPP_STATUS_RECEBIDOS.map((status) =>
      statusUpdate(db, {
        wamid,
        status,
        em: kept(status, 'em'),
        erro: kept(status, 'erro'),
        when: sql`exists (select 1 from ${p} where ${p.wamid} = ${wamid} and ${p.status} = ${status})`,
        at,
      }),
    ),
    db.delete(p).where(and(eq(p.wamid, wamid), sql`not ${noRowHas(wamid)}`)),
  ];
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
/** A status kept for a wamid that never appeared (a message sent outside the API) is dropped after a day. */
const KEPT_STATUS_MS = 24 * 3600 * 1000;

/** Sends per message at most (the claim counts them; wrangler.toml's max_retries is this minus one). */
export const WA_MAX_ATTEMPTS = 6;

/**
 * Re-enqueues the WhatsApp messages whose queue message was lost (`pendente` past its time by 5
 * minutes) or whose consumer died mid-send (`enviando` past the lease). Meta has no idempotency key,
 * so a message whose consumer died after Meta accepted it and before the settle may arrive twice: the
 * one case the claim cannot cover (SECURITY.md, "The WhatsApp webhook"). Its bound: a claim counts an
 * attempt, and a row past the lease with WA_MAX_ATTEMPTS claims is given up (`falhou`), never sent
 * again (db/outbox-claim.ts `requeue`, the e-mail outbox's too). The guarded UPDATE that picks a row
 * moves its time to now, so two overlapping runs do not pick it twice. Also drops the statuses kept
 * for a wamid no row took within a day. Scheduled job.
 */
export async function requeuePendingWhatsapp(env: Bindings, now: Date): Promise<string[]> {
  const db = createDb(env.DB);
  const [picked] = await db.batch([
    outboxSteps(whatsappOutbox).requeue(db, now, {
      requeueAfterMs: WA_REQUEUE_AFTER_MS,
      leaseMs: WA_CLAIM_LEASE_MS,
      maxAttempts: WA_MAX_ATTEMPTS,
    }),
    db
      .delete(whatsappStatusPendentes)
      .where(lt(whatsappStatusPendentes.createdAt, new Date(now.getTime() - KEPT_STATUS_MS).toISOString())),
  ]);
  const ids = requeuedIds(picked);
  if (ids.length > 0 && env.WHATSAPP_QUEUE) {
    // Awaited: a failure leaves the rows to the next run.
    await env.WHATSAPP_QUEUE.sendBatch(ids.map((outboxId) => ({ body: { outboxId } })));
  }
  return ids;
}
