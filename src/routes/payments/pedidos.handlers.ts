import { setTotal } from '../../lib/pagination';
import * as pedidos from '../../services/payments/pedidos';
import { handler } from '../route';
import { paymentQueue } from './payment-queue';
import * as r from './pedidos.routes';

export const create = handler(r.create, async (c, ctx) => {
  const { created, pedido } = await pedidos.createPedido(
    { ...ctx, enqueue: paymentQueue(c) },
    c.req.valid('header')['idempotency-key'],
    c.req.valid('json'),
  );
  return created ? c.json(pedido, 201) : c.json(pedido, 200);
});

export const list = handler(r.list, async (c, ctx) => {
  const { rows, total } = await pedidos.listPedidos(ctx, c.req.valid('query'));
  setTotal(c, total);
  return c.json(rows, 200);
});

export const get = handler(r.get, async (c, ctx) => c.json(await pedidos.getPedido(ctx, c.req.valid('param').id), 200));

export const cancel = handler(r.cancel, async (c, ctx) =>
  c.json(await pedidos.cancelPedido(ctx, c.req.valid('param').id), 200),
);
