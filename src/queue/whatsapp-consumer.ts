import { whatsappOutbox } from '../db/schema';
import { createLogger } from '../lib/logger';
import { keptStatuses, WA_MAX_ATTEMPTS } from '../services/core/whatsapp';
import { renderWhatsapp, senderFor } from '../services/core/whatsapp-cloud';
import { backoff } from './consume';
import { outboxConsumer } from './outbox';

/**
 * The WhatsApp queue consumer (docs/decisions.md#d30) on the one outbox consumer (src/queue/outbox.ts:
 * claim the row, send, settle; a message delivered twice is sent once). Its own part: the row is
 * rendered (services/core/whatsapp-cloud.ts) and sent through WHATSAPP_PROVIDER; `enviado` records
 * Meta's message id, and the webhook's statuses that arrived before this write (kept by wamid,
 * services/core/whatsapp.ts keptStatuses) are applied in its batch. Transient failures (network,
 * 5xx, 429, Meta's throttling codes) retry with backoff; a refusal (other 4xx) is `falhou`; after
 * WA_MAX_ATTEMPTS the row is `falhou` and the message is retried once more so that the queue moves
 * it to the dead-letter queue (max_retries in wrangler.toml is WA_MAX_ATTEMPTS - 1), where an
 * operator sees what gave up.
 */

/** Attempts per message (the claim counts them); wrangler.toml's max_retries is this minus one. */
export { WA_MAX_ATTEMPTS };

/** Backoff from the attempt count (1, 2, 3, ...): 30 s, 60 s, 120 s, ... at most 30 minutes. */
export const whatsappRetryDelaySeconds = backoff(30, 1800);

const log = createLogger({ prefix: 'whatsapp: ' });

/** Delivers a batch of WHATSAPP_QUEUE messages; `fetchImpl` and `now` are injectable for the tests. */
export const handleWhatsappBatch = outboxConsumer({
  table: whatsappOutbox,
  log,
  maxAttempts: WA_MAX_ATTEMPTS,
  // Past max_retries (WA_MAX_ATTEMPTS - 1) the queue moves it to the dead-letter queue.
  deadLetter: true,
  backoff: whatsappRetryDelaySeconds,
  adapter: (_env, config, fetchImpl) => senderFor(config, fetchImpl),
  send: async (row, sender, config) => sender(row, await renderWhatsapp(row, config)),
  sentColumns: (sent: { wamid?: string }) => ({ wamid: sent.wamid ?? null }),
  // The statuses the webhook kept for this wamid (they arrived before this write) land in its batch.
  alsoSent: (db, sent, at) => (sent.wamid ? keptStatuses(db, sent.wamid, at) : []),
});
