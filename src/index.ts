import { createApp } from './app';
import type { Bindings } from './env';
import { handlePushBatch } from './queue/push-consumer';
import type { PushMessage } from './lib/messages';

const app = createApp();

export default {
  fetch: app.fetch,
  queue: (batch: MessageBatch<PushMessage>, env: Bindings) => handlePushBatch(batch, env),
} satisfies ExportedHandler<Bindings, PushMessage>;

export type { AppType } from './app';
