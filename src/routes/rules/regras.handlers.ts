import {
  createRegra,
  deleteRegra,
  oneRegra,
  regraSelect,
  regrasSelect,
  toRegraResponse,
  updateRegra,
} from '../../services/rules/regras';
import { validarRegra } from '../../services/rules/validar';
import { handler } from '../route';
import * as r from './regras.routes';

export const list = handler(r.list, async (c, ctx) =>
  c.json((await regrasSelect(ctx, c.req.valid('query'))).map(toRegraResponse), 200),
);

export const get = handler(r.get, async (c, ctx) =>
  c.json(oneRegra(await regraSelect(ctx, c.req.valid('param').id)), 200),
);

export const create = handler(r.create, async (c, ctx) => c.json(await createRegra(ctx, c.req.valid('json')), 201));

export const update = handler(r.update, async (c, ctx) =>
  c.json(await updateRegra(ctx, c.req.valid('param').id, c.req.valid('json')), 200),
);

export const remove = handler(r.remove, async (c, ctx) => {
  await deleteRegra(ctx, c.req.valid('param').id);
  return c.body(null, 204);
});

export const validar = handler(r.validar, async (c, ctx) => c.json(await validarRegra(ctx, c.req.valid('json')), 200));
