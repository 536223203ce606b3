import { createApp } from './app';
import type { Bindings } from './env';
import { handleEmailBatch } from './queue/email-consumer';
import { handlePushBatch } from './queue/push-consumer';
import { handlePaymentBatch } from './queue/payment-consumer';
import { handleWhatsappBatch } from './queue/whatsapp-consumer';
import {
  EMAIL_QUEUE_NAME,
  PAYMENT_QUEUE_NAME,
  WHATSAPP_QUEUE_NAME,
  type MailMessage,
  type PaymentMessage,
  type PushMessage,
  type WhatsappMessage,
} from './lib/messages';
import { runScheduled } from './scheduled';

const app = createApp();

export default {
  fetch: app.fetch,
  // One Worker consumes every queue (wrangler.toml): dispatch on the queue's name.
  queue: (batch: MessageBatch<PushMessage | MailMessage | PaymentMessage | WhatsappMessage>, env: Bindings) =>
    batch.queue === EMAIL_QUEUE_NAME
      ? handleEmailBatch(batch as MessageBatch<MailMessage>, env)
      : batch.queue === PAYMENT_QUEUE_NAME
        ? handlePaymentBatch(batch as MessageBatch<PaymentMessage>, env)
        : batch.queue === WHATSAPP_QUEUE_NAME
          ? handleWhatsappBatch(batch as MessageBatch<WhatsappMessage>, env)
          : handlePushBatch(batch as MessageBatch<PushMessage>, env),
  // The Cron Trigger (wrangler.toml [triggers]): every job of the dispatcher, at the trigger's time.
  scheduled: (controller: ScheduledController, env: Bindings, ctx: ExecutionContext) => {
    ctx.waitUntil(runScheduled(env, new Date(controller.scheduledTime)));
  },
} satisfies ExportedHandler<Bindings, PushMessage | MailMessage | PaymentMessage | WhatsappMessage>;

export type { AppType } from './app';
