import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { inBackground } from '../../lib/background';
import { enqueuePayments, type Enqueue } from '../../services/payments/pedidos';

/** Payment messages of a request go to the payment queue in the background, after its batch (like route.ts pushOf). */
export const paymentQueue =
  (c: Context<AppEnv, any, any>): Enqueue =>
  (messages) =>
    enqueuePayments(c.env.PAYMENT_QUEUE, inBackground(c), messages);
