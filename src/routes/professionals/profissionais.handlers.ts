import { setTotal, totalOf } from '../../lib/pagination';
import {
  contagemSelect,
  createProfissional,
  deleteProfissional,
  profissionaisList,
  profissionaisListSelects,
  profissionalByIdSelects,
  profissionalOne,
  updateProfissional,
} from '../../services/professionals/profissionais';
import { minhasAvaliacoes as minhas } from '../../services/professionals/avaliacoes';
import { forgetFeed } from '../operations/calendario.handlers';
import { foldedHandler, handler } from '../route';
import * as r from './profissionais.routes';

export const list = foldedHandler(r.list, async (c, ctx) => {
  const [profiles, counted] = await ctx.read((scope) => profissionaisListSelects(ctx, scope, c.req.valid('query')));
  setTotal(c, totalOf(counted, profiles.length));
  return c.json(profissionaisList(profiles), 200);
});

export const contagem = foldedHandler(r.contagem, async (c, ctx) => {
  const [rows] = await ctx.read(() => [contagemSelect(ctx)]);
  return c.json(rows, 200);
});

export const get = foldedHandler(r.get, async (c, ctx) => {
  const [profiles] = await ctx.read((scope) => profissionalByIdSelects(ctx, scope, c.req.valid('param').id));
  return c.json(profissionalOne(profiles), 200);
});

export const create = handler(r.create, async (c, ctx) =>
  c.json(await createProfissional(ctx, c.req.valid('json')), 201),
);

export const update = handler(r.update, async (c, ctx) =>
  c.json(await updateProfissional(ctx, c.req.valid('param').id, c.req.valid('json')), 200),
);

export const remove = handler(r.remove, async (c, ctx) => {
  await forgetFeed(c, await deleteProfissional(ctx, c.req.valid('param').id));
  return c.json({ message: 'profissional excluído' }, 200);
});

export const minhasAvaliacoes = handler(r.minhasAvaliacoes, async (c, ctx) => c.json(await minhas(ctx), 200));
