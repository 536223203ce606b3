import { createApp } from './app';
import type { Bindings } from './env';
import { handlePushBatch } from './queue/push-consumer';
import type { PushMessage } from './lib/messages';
import { runScheduled } from './scheduled';

const app = createApp();

export default {
  fetch: app.fetch,
  queue: (batch: MessageBatch<PushMessage>, env: Bindings) => handlePushBatch(batch, env),
  // The Cron Trigger (wrangler.toml [triggers]): every job of the dispatcher, at the trigger's time.
  scheduled: (controller: ScheduledController, env: Bindings, ctx: ExecutionContext) => {
    ctx.waitUntil(runScheduled(env, new Date(controller.scheduledTime)));
  },
} satisfies ExportedHandler<Bindings, PushMessage>;

export type { AppType } from './app';
