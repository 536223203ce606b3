import { receiveNotification } from '../../services/payments/pagamentos';
import { handler } from '../route';
import { paymentQueue } from './payment-queue';
import * as r from './webhooks.routes';

export const mercadoPago = handler(r.mercadoPago, async (c, ctx) => {
  const query = c.req.valid('query');
  const headers = c.req.valid('header');
  const id = await receiveNotification(ctx, {
    signature: headers['x-signature'],
    requestId: headers['x-request-id'],
    dataId: query['data.id'],
    type: query.type,
  });
  if (id) paymentQueue(c)([{ kind: 'notificacao', notificacaoId: id }]);
  return c.json({ message: 'recebida' }, 200);
});
