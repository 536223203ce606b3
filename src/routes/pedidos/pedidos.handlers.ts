import { inBackground } from '../../lib/background';
import { setTotal } from '../../lib/pagination';
import * as pedidos from '../../services/pedidos';
import { handler, logCtx } from '../route';
import * as r from './pedidos.routes';

export const create = handler(r.create, async (c) => {
  const { db, user, regiao, config } = c.var;
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
  const { rows, total } = await pedidos.listPedidos(c.var.db, c.var.user, c.var.regiao, { fot_id, status }, page);
  setTotal(c, total);
  return c.json(rows, 200);
});

export const get = handler(r.get, async (c) =>
  c.json(await pedidos.getPedido(c.var.db, c.var.user, c.var.regiao, c.req.valid('param').id), 200),
);

export const cancel = handler(r.cancel, async (c) =>
  c.json(await pedidos.cancelPedido(c.var.db, logCtx(c), c.var.user, c.var.regiao, c.req.valid('param').id), 200),
);
