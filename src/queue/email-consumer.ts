import { emailOutbox } from '../db/schema';
import type { Bindings, Config } from '../env';
import { createLogger } from '../lib/logger';
import { EMAIL_MAX_ATTEMPTS, emailNeedsToken, openSecret, renderEmail } from '../services/core/mail';
import { backoff, errText } from './consume';
import { outboxConsumer, type Outcome } from './outbox';

/**
 * The e-mail queue consumer (docs/decisions.md#d14) on the one outbox consumer (src/queue/outbox.ts:
 * claim the row, send, settle; a message delivered twice is sent once). Its own part: the row is
 * rendered (services/core/mail.ts) and sent through MAIL_PROVIDER with the outbox id as the
 * provider's idempotency key: should the worker die after the provider accepted the message but
 * before the settle, the row goes back to `pendente` after the claim lease (requeuePendingEmails,
 * at most until it has MAX_ATTEMPTS claims) and the resend carries the same key, which Resend
 * deduplicates (for 24 hours); the `cloudflare` binding has no key. Transient failures
 * (network, 5xx, 429, 409 of a concurrent idempotent request) retry with backoff, the row `falhou`
 * after MAX_ATTEMPTS and its message acknowledged; a refusal (other 4xx), or a link token that
 * cannot be opened (JWT_SECRET rotated), is `falhou` at once.
 */

/** Attempts per e-mail (the claim counts them; services/core/mail.ts, whose requeue has the same bound). */
export { EMAIL_MAX_ATTEMPTS as MAX_ATTEMPTS };
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

export type SendOutcome = Outcome<{ providerId?: string }>;

/** A mail provider: sends one message, says what happened, never throws. */
export type Mailer = (email: OutgoingEmail) => Promise<SendOutcome>;

const log = createLogger({ prefix: 'mail: ' });

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

/**
 * Delivers a batch of EMAIL_QUEUE messages (src/queue/outbox.ts: claim, send, settle). `fetchImpl`
 * (the Resend call) and `now` are injectable so that tests stand in for the provider and the clock.
 */
export const handleEmailBatch = outboxConsumer({
  table: emailOutbox,
  log,
  maxAttempts: EMAIL_MAX_ATTEMPTS,
  deadLetter: false,
  backoff: emailRetryDelaySeconds,
  adapter: mailerFor,
  async send(row, mailer: Mailer, config) {
    let token: string | undefined;
    if (emailNeedsToken(row.tipo)) {
      token = row.segredo ? await openSecret(config.JWT_SECRET, row.segredo) : undefined;
      // The link's token cannot be opened (JWT_SECRET rotated since): a link-less e-mail would be useless.
      if (token === undefined) return { kind: 'failed', error: 'token unreadable' };
    }
    return mailer({ id: row.id, from: config.MAIL_FROM, to: row.para, ...renderEmail(row, config, token) });
  },
  sentColumns: (sent) => ({ providerId: sent.providerId ?? null }),
});
