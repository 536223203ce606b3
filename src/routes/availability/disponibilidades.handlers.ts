import {
  createDisponibilidade,
  deleteDisponibilidade,
  listDisponibilidades,
} from '../../services/availability/disponibilidades';
import { resumoDisponibilidade } from '../../services/availability/resumo';
import { handler } from '../route';
import * as r from './disponibilidades.routes';

const ME = { me: true } as const;

export const listMine = handler(r.listMine, async (c, ctx) =>
  c.json(await listDisponibilidades(ctx, ME, c.req.valid('query')), 200),
);

export const createMine = handler(r.createMine, async (c, ctx) =>
  c.json(await createDisponibilidade(ctx, ME, c.req.valid('json')), 201),
);

export const removeMine = handler(r.removeMine, async (c, ctx) => {
  await deleteDisponibilidade(ctx, ME, c.req.valid('param').id);
  return c.body(null, 204);
});

export const listOf = handler(r.listOf, async (c, ctx) =>
  c.json(await listDisponibilidades(ctx, { id: c.req.valid('param').id }, c.req.valid('query')), 200),
);

export const createFor = handler(r.createFor, async (c, ctx) =>
  c.json(await createDisponibilidade(ctx, { id: c.req.valid('param').id }, c.req.valid('json')), 201),
);

export const removeFor = handler(r.removeFor, async (c, ctx) => {
  const { id, disp_id } = c.req.valid('param');
  await deleteDisponibilidade(ctx, { id }, disp_id);
  return c.body(null, 204);
});

export const resumo = handler(r.resumo, async (c, ctx) =>
  c.json(await resumoDisponibilidade(ctx, c.req.valid('query')), 200),
);
