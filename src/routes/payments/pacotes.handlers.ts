import { setTotal } from '../../lib/pagination';
import * as pacotes from '../../services/payments/pacotes';
import { handler, logCtx } from '../route';
import * as r from './pacotes.routes';

export const list = handler(r.list, async (c) => {
  const { ativo, ...page } = c.req.valid('query');
  const { rows, total } = await pacotes.listPacotes(c.get('db'), c.get('user').role, c.get('regiao'), ativo, page);
  setTotal(c, total);
  return c.json(rows, 200);
});

export const get = handler(r.get, async (c) =>
  c.json(await pacotes.getPacote(c.get('db'), c.get('user').role, c.get('regiao'), c.req.valid('param').id), 200),
);

export const create = handler(r.create, async (c) =>
  c.json(await pacotes.createPacote(c.get('db'), logCtx(c), c.get('regiao'), c.req.valid('json')), 201),
);

export const update = handler(r.update, async (c) =>
  c.json(
    await pacotes.updatePacote(c.get('db'), logCtx(c), c.get('regiao'), c.req.valid('param').id, c.req.valid('json')),
    200,
  ),
);

export const remove = handler(r.remove, async (c) => {
  await pacotes.deletePacote(c.get('db'), logCtx(c), c.get('regiao'), c.req.valid('param').id);
  return c.body(null, 204);
});
