import { createDb } from '../db/client';
import { outboxSteps } from '../db/outbox-claim';
import type { Db } from '../db/client';
import { emailOutbox } from '../db/schema';
import { getConfig, type Bindings, type Config } from '../env';
import type { MailMessage } from '../lib/messages';
import { createLogger } from '../lib/logger';
import { emailNeedsToken, openSecret, renderEmail } from '../services/core/mail';
import { ACK, backoff, consumeEach, retryDelay, type Handled } from './consume';

/**
 * The e-mail queue consumer (docs/decisions.md#d14). A message carries an outbox id; the consumer
 *
 * 1. claims the row with ONE guarded UPDATE (`pendente` → `enviando`, attempts + 1). A row already
 *    `enviado`/`falhou`, or claimed by another delivery of the same message, changes nothing: the
 *    message is acknowledged without calling the provider. So a message delivered twice (queue
 *    retries are at least once) is sent once;
 * 2. renders it (services/core/mail.ts) and sends it through MAIL_PROVIDER, with the outbox id as the
 *    provider's idempotency key: should the worker die after the provider accepted the message but
 *    before step 3, the row goes back to `pendente` after the claim lease (requeuePendingEmails) and
 *    the resend carries the same key, which Resend deduplicates (for 24 hours);
 * 3. records the outcome: `enviado`; or, on a transient failure (network, 5xx, 429, 409 of a
 *    concurrent idempotent request), back to `pendente` with `msg.retry({ delaySeconds })` and
 *    exponential backoff, `falhou` after MAX_ATTEMPTS; or `falhou` at once when the provider refuses
 *    the message (other 4xx) or the link's token cannot be opened (JWT_SECRET rotated).
 *
 * Messages the consumer cannot even process (D1 failing) are retried by the queue and, after
 * max_retries (wrangler.toml), land in the dead-letter queue; their rows stay `pendente`, so the
 * scheduled re-enqueue sends them once D1 is back.
 */

/** Attempts per e-mail (the claim counts them); after the last transient failure the row is `falhou`. */
export const MAX_ATTEMPTS = 6;
const FETCH_TIMEOUT_MS = 10_000;

/** Backoff from the attempt count (1, 2, 3, ...): 30 s, 60 s, 120 s, ... at most 30 minutes. */
export const emailRetryDelaySeconds = backoff(30, 1800);

export interface OutgoingEmail {
  /** The outbox id: the idempotency key. */
  id: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  link?: string;
}

export type SendOutcome =
  | { kind: 'sent'; providerId?: string }
  | { kind: 'retry'; error: string; after?: number }
  | { kind: 'failed'; error: string };

/** A mail provider: sends one message, says what happened, never throws. */
export type Mailer = (email: OutgoingEmail) => Promise<SendOutcome>;

const log = createLogger({ prefix: 'mail: ' });

const errText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Resend's HTTP API (POST {RESEND_API_URL}/emails), with the outbox id as its `Idempotency-Key`. */
export function resendMailer(config: Config, fetchImpl: typeof fetch): Mailer {
  return async (email) => {
    if (!config.RESEND_API_KEY) return { kind: 'retry', error: 'RESEND_API_KEY is not set' };
    let res: Response;
    try {
      res = await fetchImpl(`${config.RESEND_API_URL}/emails`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${config.RESEND_API_KEY}`,
          'content-type': 'application/json',
          'idempotency-key': email.id,
        },
        body: JSON.stringify({
          from: email.from,
          to: [email.to],
          subject: email.subject,
          text: email.text,
          html: email.html,
        }),
        signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      });
    } catch (err) {
      return { kind: 'retry', error: `provider unreachable: ${errText(err)}` };
    }
    const body = (await res.json().catch(() => undefined)) as { id?: unknown; message?: unknown } | undefined;
    if (res.ok) return { kind: 'sent', providerId: typeof body?.id === 'string' ? body.id : undefined };
    const detail = `resend answered ${res.status}${typeof body?.message === 'string' ? `: ${body.message}` : ''}`;
    // 409: another request with this key is still in flight (or reused): try again later.
    if (res.status >= 500 || res.status === 429 || res.status === 409) {
      const after = Number(res.headers.get('retry-after'));
      return { kind: 'retry', error: detail, after: Number.isFinite(after) && after > 0 ? after : undefined };
    }
    // Other 4xx (bad key, unverified sender, invalid address): retrying would not change the answer.
    return { kind: 'failed', error: detail };
  };
}

/**
 * The Cloudflare Email Service `send_email` binding (env.EMAIL.send with the object form). It has no
 * idempotency key: the guarded claim is what keeps a message from being sent twice.
 */
export function cloudflareMailer(binding: SendEmail | undefined): Mailer {
  return async (email) => {
    if (!binding) return { kind: 'retry', error: 'the EMAIL send_email binding is not configured' };
    try {
      const res = await binding.send({
        from: email.from,
        to: email.to,
        subject: email.subject,
        text: email.text,
        html: email.html,
      });
      return { kind: 'sent', providerId: res?.messageId };
    } catch (err) {
      // The binding's errors do not say reliably which are permanent: retry, bounded by MAX_ATTEMPTS.
      return { kind: 'retry', error: `email binding: ${errText(err)}` };
    }
  };
}

/** `npm run dev`'s provider: one log line per message, with its link; nothing is sent. */
export const logMailer: Mailer = async (email) => {
  log.info(`(log provider, not sent) ${email.subject} → ${email.to}`, {
    outboxId: email.id,
    to: email.to,
    subject: email.subject,
    link: email.link ?? null,
  });
  return { kind: 'sent' };
};

export function mailerFor(env: Bindings, config: Config, fetchImpl: typeof fetch): Mailer {
  switch (config.MAIL_PROVIDER) {
    case 'resend':
      return resendMailer(config, fetchImpl);
    case 'cloudflare':
      return cloudflareMailer(env.EMAIL);
    case 'log':
      return logMailer;
  }
}

/** Step 1 claims the row, step 3 settles it (db/outbox-claim.ts). */
const { claim, settle } = outboxSteps(emailOutbox);

async function deliver(
  db: Db,
  config: Config,
  mailer: Mailer,
  msg: Message<MailMessage>,
  now: () => Date,
): Promise<Handled> {
  const id = msg.body?.outboxId;
  if (typeof id !== 'string') {
    log.error('message without outboxId dropped');
    return ACK;
  }
  const row = await claim(db, id, now().toISOString());
  if (!row) return ACK; // sent or failed already, claimed by another delivery, or no such row
  let token: string | undefined;
  if (emailNeedsToken(row.tipo)) {
    token = row.segredo ? await openSecret(config.JWT_SECRET, row.segredo) : undefined;
    if (token === undefined) {
      log.error('the link token cannot be opened (JWT_SECRET rotated?); e-mail not sent', { outboxId: id });
      await settle(db, id, { status: 'falhou', erro: 'token unreadable', updatedAt: now().toISOString() });
      return ACK;
    }
  }
  const rendered = renderEmail(row, config, token);
  const outcome = await mailer({ id, from: config.MAIL_FROM, to: row.para, ...rendered });
  const at = now();
  if (outcome.kind === 'sent') {
    await settle(db, id, {
      status: 'enviado',
      enviadoEm: at.toISOString(),
      providerId: outcome.providerId ?? null,
      erro: null,
      updatedAt: at.toISOString(),
    });
    return ACK;
  }
  if (outcome.kind === 'failed' || row.tentativas >= MAX_ATTEMPTS) {
    log.error(`e-mail not sent: ${outcome.error}`, { outboxId: id, attempts: row.tentativas });
    await settle(db, id, { status: 'falhou', erro: outcome.error, updatedAt: at.toISOString() });
    return ACK;
  }
  // The backoff counts the row's attempts (the claims), not this message's deliveries.
  const delay = retryDelay(emailRetryDelaySeconds(row.tentativas), outcome.after);
  await settle(db, id, {
    status: 'pendente',
    erro: outcome.error,
    disponivelEm: new Date(at.getTime() + delay * 1000).toISOString(),
    updatedAt: at.toISOString(),
  });
  return {
    kind: 'retry',
    delaySeconds: delay,
    error: outcome.error,
    fields: { outboxId: id, attempts: row.tentativas },
  };
}

/**
 * Delivers a batch of EMAIL_QUEUE messages. `fetchImpl` (the Resend call) and `now` are injectable
 * so that tests stand in for the provider and the clock.
 */
export async function handleEmailBatch(
  batch: MessageBatch<MailMessage>,
  env: Bindings,
  fetchImpl: typeof fetch = fetch,
  now: () => Date = () => new Date(),
): Promise<void> {
  const config = getConfig(env);
  const db = createDb(env.DB);
  const mailer = mailerFor(env, config, fetchImpl);
  await consumeEach(
    batch,
    {
      log,
      backoff: emailRetryDelaySeconds,
      failure: 'delivery failed',
      fields: (body) => ({ outboxId: body?.outboxId ?? null }),
    },
    (msg) => deliver(db, config, mailer, msg, now),
  );
}
