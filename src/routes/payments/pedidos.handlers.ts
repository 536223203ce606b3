import { inBackground } from '../../lib/background';
import { setTotal } from '../../lib/pagination';
import * as pedidos from '../../services/payments/pedidos';
import { handler, logCtx } from '../route';
import * as r from './pedidos.routes';

export const create = handler(r.create, async (c) => {
  const db = c.get('db');
  const user = c.get('user');
  const regiao = c.get('regiao');
  const config = c.get('config');
  const { created, pedido } = await pedidos.createPedido(
    db,
    logCtx(c),
    user,
    regiao,
    c.req.valid('header')['idempotency-key'],
    c.req.valid('json'),
    {
      ttlSeconds: config.PEDIDO_TTL_SECONDS,
      now: new Date(),
      enqueue: (messages) => pedidos.enqueuePayments(c.env.PAYMENT_QUEUE, inBackground(c), messages),
    },
  );
  return created ? c.json(pedido, 201) : c.json(pedido, 200);
});

export const list = handler(r.list, async (c) => {
  const { fot_id, status, ...page } = c.req.valid('query');
  const { rows, total } = await pedidos.listPedidos(
    c.get('db'),
    c.get('user'),
    c.get('regiao'),
    { fot_id, status },
    page,
  );
  setTotal(c, total);
  return c.json(rows, 200);
});

export const get = handler(r.get, async (c) =>
  c.json(await pedidos.getPedido(c.get('db'), c.get('user'), c.get('regiao'), c.req.valid('param').id), 200),
);

export const cancel = handler(r.cancel, async (c) =>
  c.json(
    await pedidos.cancelPedido(c.get('db'), logCtx(c), c.get('user'), c.get('regiao'), c.req.valid('param').id),
    200,
  ),
);
