import { inBackground } from '../../lib/background';
import { receiveNotification } from '../../services/payments/pagamentos';
import { enqueuePayments } from '../../services/payments/pedidos';
import { handler } from '../route';
import * as r from './webhooks.routes';

export const mercadoPago = handler(r.mercadoPago, async (c) => {
  const query = c.req.valid('query');
  const headers = c.req.valid('header');
  const id = await receiveNotification(
    c.get('db'),
    c.get('config').MP_WEBHOOK_SECRET,
    {
      signature: headers['x-signature'],
      requestId: headers['x-request-id'],
      dataId: query['data.id'],
      type: query.type,
    },
    new Date(),
  );
  if (id) enqueuePayments(c.env.PAYMENT_QUEUE, inBackground(c), [{ kind: 'notificacao', notificacaoId: id }]);
  return c.json({ message: 'recebida' }, 200);
});
