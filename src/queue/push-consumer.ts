import * as z from 'zod';
import { eq, sql } from 'drizzle-orm';
import { createDb } from '../db/client';
import { notifications, pushTokens } from '../db/schema';
import { getConfig, type Bindings } from '../env';
import { createLogger, errorText } from '../lib/logger';
import type { PushMessage } from '../lib/messages';
import { backoff, errText, retryDelay } from './consume';

/** Expo accepts at most 100 messages per request. */
export const EXPO_CHUNK = 100;
const FETCH_TIMEOUT_MS = 10_000;

/** Exponential backoff from the delivery attempt (1, 2, 3, ...): 10 s, 20 s, 40 s, ... at most 15 minutes. */
export const retryDelaySeconds = backoff(10, 900);

/** The provider's answer (Expo push tickets), one ticket per message sent, in order. */
const ExpoTicket = z.object({
  status: z.enum(['ok', 'error']),
  id: z.string().optional(),
  message: z.string().optional(),
  details: z.object({ error: z.string().optional() }).loose().optional(),
});
const ExpoAnswer = z.object({ data: z.array(ExpoTicket) });

interface ExpoMessage {
  to: string;
  title: string;
  body: string;
  data: Record<string, unknown>;
  sound: 'default';
}

interface Send {
  msg: Message<PushMessage>;
  token: string;
  expo: ExpoMessage;
}

const log = createLogger({ prefix: 'push: ' });

type ChunkOutcome = { kind: 'sent'; deadTokens: string[] } | { kind: 'retry'; after?: number } | { kind: 'dropped' };

async function sendChunk(endpoint: string, chunk: Send[], fetchImpl: typeof fetch): Promise<ChunkOutcome> {
  let res: Response;
  try {
    res = await fetchImpl(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(chunk.map((s) => s.expo)),
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
  } catch (err) {
    log.warn('provider unreachable, will retry', {
      error: errText(err),
      messages: chunk.length,
    });
    return { kind: 'retry' };
  }
  if (res.status >= 500 || res.status === 429) {
    const after = Number(res.headers.get('retry-after'));
    log.warn(`provider answered ${res.status}, will retry`, { messages: chunk.length });
    return { kind: 'retry', after: Number.isFinite(after) && after > 0 ? after : undefined };
  }
  if (!res.ok) {
    // 4xx: this request will never succeed as it is (bad credentials, bad payload): no retry loop.
    log.error(`provider refused the request with ${res.status}; messages dropped`, { messages: chunk.length });
    return { kind: 'dropped' };
  }
  const parsed = ExpoAnswer.safeParse(await res.json().catch(() => undefined));
  if (!parsed.success || parsed.data.data.length !== chunk.length) {
    // The messages may well have gone out: retrying could push twice and would not fix the answer.
    log.error('malformed provider answer; messages not retried', { messages: chunk.length });
    return { kind: 'dropped' };
  }
  const deadTokens: string[] = [];
  parsed.data.data.forEach((ticket, i) => {
    if (ticket.status === 'ok') return;
    if (ticket.details?.error === 'DeviceNotRegistered') deadTokens.push(chunk[i]!.token);
    else
      log.warn('provider refused a message', {
        error: ticket.details?.error ?? null,
        detail: ticket.message ?? null,
      });
  });
  return { kind: 'sent', deadTokens };
}

/**
 * The queue consumer (docs/decisions.md#d10): one query for the batch's push tokens, Expo push messages in
 * chunks of 100 to PUSH_ENDPOINT, retry with backoff on a network failure, 5xx or 429, and tokens the
 * provider reports as DeviceNotRegistered deleted. Without PUSH_ENDPOINT it acknowledges silently
 * (in-app notifications only). Delivery is at least once: a retried message goes to all its tokens.
 * `fetchImpl` is injectable so that tests can stand in for the provider.
 */
export async function handlePushBatch(
  batch: MessageBatch<PushMessage>,
  env: Bindings,
  fetchImpl: typeof fetch = fetch,
): Promise<void> {
  const endpoint = getConfig(env).PUSH_ENDPOINT;
  if (!endpoint || batch.messages.length === 0) {
    batch.ackAll();
    return;
  }
  const db = createDb(env.DB);
  const ids = batch.messages.map((m) => m.body?.notificationId).filter((id): id is string => typeof id === 'string');
  // ONE query: the tokens of the batch's users, for notifications that still exist (committed and
  // not deleted by their user meanwhile).
  const rows = await db
    .select({ notificationId: notifications.id, token: pushTokens.token })
    .from(notifications)
    .innerJoin(pushTokens, eq(pushTokens.userId, notifications.userId))
    .where(sql`${notifications.id} in (select value from json_each(${JSON.stringify(ids)}))`);
  const tokensOf = new Map<string, string[]>();
  for (const r of rows) tokensOf.set(r.notificationId, [...(tokensOf.get(r.notificationId) ?? []), r.token]);

  const sends: Send[] = [];
  for (const msg of batch.messages) {
    for (const token of tokensOf.get(msg.body?.notificationId) ?? []) {
      const { titulo, mensagem, dados, notificationId } = msg.body;
      sends.push({
        msg,
        token,
        expo: {
          to: token,
          title: titulo,
          body: mensagem,
          data: { ...dados, notification_id: notificationId },
          sound: 'default',
        },
      });
    }
  }

  const chunks: Send[][] = [];
  for (let i = 0; i < sends.length; i += EXPO_CHUNK) chunks.push(sends.slice(i, i + EXPO_CHUNK));
  const outcomes = await Promise.all(chunks.map((chunk) => sendChunk(endpoint, chunk, fetchImpl)));

  const retry = new Map<Message<PushMessage>, number | undefined>();
  const dead = new Set<string>();
  outcomes.forEach((o, i) => {
    if (o.kind === 'retry')
      for (const s of chunks[i]!) retry.set(s.msg, Math.max(o.after ?? 0, retry.get(s.msg) ?? 0) || undefined);
    if (o.kind === 'sent') for (const t of o.deadTokens) dead.add(t);
  });

  if (dead.size > 0) {
    try {
      await db
        .delete(pushTokens)
        .where(sql`${pushTokens.token} in (select value from json_each(${JSON.stringify([...dead])}))`);
      log.info(`removed ${dead.size} unregistered token(s)`);
    } catch (err) {
      log.error('could not remove unregistered tokens', { error: errorText(err) });
    }
  }

  for (const msg of batch.messages) {
    if (retry.has(msg)) msg.retry({ delaySeconds: retryDelay(retryDelaySeconds(msg.attempts), retry.get(msg)) });
    else msg.ack();
  }
}
