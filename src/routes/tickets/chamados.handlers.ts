import { setTotal } from '../../lib/pagination';
import * as chamados from '../../services/tickets/chamados';
import { handler } from '../route';
import * as r from './chamados.routes';

export const create = handler(r.create, async (c, ctx) =>
  c.json(await chamados.openChamado(ctx, c.req.valid('json')), 201),
);

export const list = handler(r.list, async (c, ctx) => {
  const { items, total } = await chamados.listChamados(ctx, c.req.valid('query'));
  setTotal(c, total);
  return c.json(items, 200);
});

export const get = handler(r.get, async (c, ctx) =>
  c.json(await chamados.getChamado(ctx, c.req.valid('param').id), 200),
);

export const patch = handler(r.patch, async (c, ctx) =>
  c.json(await chamados.patchChamado(ctx, c.req.valid('param').id, c.req.valid('json')), 200),
);

export const addMensagem = handler(r.addMensagem, async (c, ctx) =>
  c.json(await chamados.addMensagem(ctx, c.req.valid('param').id, c.req.valid('json')), 201),
);
