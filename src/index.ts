import { createApp } from './app';
import type { Bindings } from './env';
import { handleEmailBatch } from './queue/email-consumer';
import { handlePushBatch } from './queue/push-consumer';
import { EMAIL_QUEUE_NAME, type MailMessage, type PushMessage } from './lib/messages';

const app = createApp();

export default {
  fetch: app.fetch,
  // One Worker consumes every queue (wrangler.toml): dispatch on the queue's name.
  queue: (batch: MessageBatch<PushMessage | MailMessage>, env: Bindings) =>
    batch.queue === EMAIL_QUEUE_NAME
      ? handleEmailBatch(batch as MessageBatch<MailMessage>, env)
      : handlePushBatch(batch as MessageBatch<PushMessage>, env),
} satisfies ExportedHandler<Bindings, PushMessage | MailMessage>;

export type { AppType } from './app';
