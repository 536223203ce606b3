import { createDb } from '../db/client';
import { outboxSteps } from '../db/outbox-claim';
import type { Db } from '../db/client';
import { whatsappOutbox } from '../db/schema';
import { getConfig, type Bindings, type Config } from '../env';
import { createLogger } from '../lib/logger';
import type { WhatsappMessage } from '../lib/messages';
import { keptStatuses, WA_MAX_ATTEMPTS } from '../services/core/whatsapp';
import { renderWhatsapp, senderFor, type WaSender } from '../services/core/whatsapp-cloud';
import { ACK, backoff, consumeEach, retryDelay, type Handled } from './consume';

/**
 * The WhatsApp queue consumer (docs/decisions.md#d30), on the e-mail consumer's design
 * (src/queue/email-consumer.ts). A message carries an outbox id; the consumer
 *
 * 1. claims the row with ONE guarded UPDATE (`pendente` → `enviando`, attempts + 1): a row already
 *    sent or failed, or claimed by another delivery of the same message, changes nothing and the
 *    message is acknowledged, so a message delivered twice is sent once;
 * 2. renders it (services/core/whatsapp-cloud.ts) and sends it through WHATSAPP_PROVIDER;
 * 3. records the outcome: `enviado` with Meta's message id (the webhook's statuses then move it to
 *    `entregue`, `lido`; those that arrived before this write were kept by wamid and are applied in
 *    its batch: services/core/whatsapp.ts keptStatuses); on a transient failure (network, 5xx, 429,
 *    Meta's throttling codes) back to `pendente` and `msg.retry()` with exponential backoff;
 *    `falhou` when Meta refuses it (other 4xx) and, after WA_MAX_ATTEMPTS, `falhou` too and the
 *    message is retried once more so that the queue moves it to the dead-letter queue (max_retries in
 *    wrangler.toml is WA_MAX_ATTEMPTS - 1), where an operator sees what gave up.
 *
 * A message the consumer cannot process at all (D1 failing) is retried by the queue, then
 * dead-lettered; its row stays `pendente` and the scheduled re-enqueue sends it once D1 is back.
 */

/** Attempts per message (the claim counts them); wrangler.toml's max_retries is this minus one. */
export { WA_MAX_ATTEMPTS };

/** Backoff from the attempt count (1, 2, 3, ...): 30 s, 60 s, 120 s, ... at most 30 minutes. */
export const whatsappRetryDelaySeconds = backoff(30, 1800);

const log = createLogger({ prefix: 'whatsapp: ' });

/** Step 1 claims the row, step 3 settles it (db/outbox-claim.ts). */
const { claim, settle } = outboxSteps(whatsappOutbox);

async function deliver(
  db: Db,
  config: Config,
  sender: WaSender,
  msg: Message<WhatsappMessage>,
  now: () => Date,
): Promise<Handled> {
  const id = msg.body?.outboxId;
  if (typeof id !== 'string') {
    log.error('message without outboxId dropped');
    return ACK;
  }
  const row = await claim(db, id, now().toISOString());
  if (!row) return ACK; // sent or failed already, claimed by another delivery, or never written (no consent)
  const outcome = await sender(row, await renderWhatsapp(row, config));
  const at = now().toISOString();
  if (outcome.kind === 'sent') {
    const sent = settle(db, id, {
      status: 'enviado',
      enviadoEm: at,
      wamid: outcome.wamid ?? null,
      erro: null,
      updatedAt: at,
    });
    // The statuses the webhook kept for this wamid (they arrived before this write) land in its batch.
    if (outcome.wamid) await db.batch([sent, ...keptStatuses(db, outcome.wamid, at)]);
    else await sent;
    return ACK;
  }
  if (outcome.kind === 'failed') {
    log.error(`not sent: ${outcome.error}`, { outboxId: id, attempts: row.tentativas });
    await settle(db, id, { status: 'falhou', erro: outcome.error, updatedAt: at });
    return ACK;
  }
  if (row.tentativas >= WA_MAX_ATTEMPTS) {
    log.error(`gave up after ${row.tentativas} attempts: ${outcome.error}`, { outboxId: id });
    await settle(db, id, { status: 'falhou', erro: outcome.error, updatedAt: at });
    // Past max_retries the queue moves it to the dead-letter queue (a redelivery finds `falhou`: no-op).
    return { kind: 'dead-letter' };
  }
  const delay = retryDelay(whatsappRetryDelaySeconds(row.tentativas), outcome.after);
  await settle(db, id, {
    status: 'pendente',
    erro: outcome.error,
    disponivelEm: new Date(Date.parse(at) + delay * 1000).toISOString(),
    updatedAt: at,
  });
  return {
    kind: 'retry',
    delaySeconds: delay,
    error: outcome.error,
    fields: { outboxId: id, attempts: row.tentativas },
  };
}

/** Delivers a batch of WHATSAPP_QUEUE messages; `fetchImpl` and `now` are injectable for the tests. */
export async function handleWhatsappBatch(
  batch: MessageBatch<WhatsappMessage>,
  env: Bindings,
  fetchImpl: typeof fetch = fetch,
  now: () => Date = () => new Date(),
): Promise<void> {
  const config = getConfig(env);
  const db = createDb(env.DB);
  const sender = senderFor(config, fetchImpl);
  await consumeEach(
    batch,
    {
      log,
      backoff: whatsappRetryDelaySeconds,
      failure: 'delivery failed',
      fields: (body) => ({ outboxId: body?.outboxId ?? null }),
    },
    (msg) => deliver(db, config, sender, msg, now),
  );
}
