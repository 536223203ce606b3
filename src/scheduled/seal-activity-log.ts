import { createDb } from '../db/client';
import { ConfigError, getConfig, type Bindings } from '../env';
import { logger } from '../lib/logger';
import { chainHead, publishDailyHead, sealPending } from '../services/core/activity-log-chain';

/**
 * Seals the activity log's new entries into the hash chain (docs/decisions.md#d15: "within 15
 * minutes"; the Cron Trigger runs every 15), keyed with LOG_CHAIN_SECRET; without it nothing is
 * sealed and the run fails (the Cron log shows it). Idempotent: a second or overlapping run seals
 * nothing twice (services/core/activity-log-chain.ts, sealPending). At most 5,000 entries per run; the rest
 * wait for the next run.
 *
 * Then it publishes the chain's head where D1 cannot rewrite it: one JSON log line per run (Workers
 * Logs / Logpush keep it) and, once per São Paulo day, an e-mail to the SUPERADMINs (outbox + queue).
 * An auditor passes such a head to GET /api/logs-atividade/verificacao to see that the chain still
 * reaches it.
 */
export async function sealActivityLog(env: Bindings, now: Date) {
  const config = getConfig(env);
  const keys = config.LOG_CHAIN_SECRET;
  if (!keys)
    throw new ConfigError(
      'LOG_CHAIN_SECRET is not set: the activity log is not sealed (wrangler secret put LOG_CHAIN_SECRET)',
    );
  const db = createDb(env.DB);
  const sealed = await sealPending({ db, keys }, now);
  const head = await chainHead(db);
  logger.info('activity log head', {
    job: 'seal-activity-log',
    at: now.toISOString(),
    sealed,
    seq: head?.seq ?? 0,
    hash: head?.hash ?? null,
    versao: head?.versao ?? null,
  });
  const emailed = head ? await publishDailyHead({ db, config }, head, now) : [];
  // Awaited: a failed enqueue leaves the rows pendente, and requeue-pending-emails sends them.
  if (emailed.length > 0 && env.EMAIL_QUEUE)
    await env.EMAIL_QUEUE.sendBatch(emailed.map((outboxId) => ({ body: { outboxId } }))).catch(() => undefined);
  return { sealed, head, emailed: emailed.length };
}
