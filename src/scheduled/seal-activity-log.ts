import { createDb } from '../db/client';
import type { Bindings } from '../env';
import { sealPending } from '../services/activity-log';

/**
 * Seals the activity log's new entries into the hash chain (docs/decisions.md#d15: "within 15
 * minutes"; the Cron Trigger runs every 15). Idempotent: a second or overlapping run seals nothing
 * twice (services/activity-log.ts, sealPending). At most 5,000 entries per run; the rest wait for
 * the next run.
 */
export async function sealActivityLog(env: Bindings, now: Date) {
  const sealed = await sealPending(createDb(env.DB), now);
  return { sealed };
}
