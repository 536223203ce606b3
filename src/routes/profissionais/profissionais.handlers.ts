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
} from '../../services/profissionais';
import { minhasAvaliacoes as minhas } from '../../services/avaliacoes';
import { foldedHandler, handler, logCtx, mailOf } from '../route';
import * as r from './profissionais.routes';

export const list = foldedHandler(r.list, async (c, read) => {
  const [profiles, held, ratings, counted] = await read((scope) =>
    profissionaisListSelects(c.var.db, scope, c.var.regiao, c.req.valid('query')),
  );
  setTotal(c, totalOf(counted, profiles.length));
  return c.json(profissionaisList(profiles, held, ratings), 200);
});

export const contagem = foldedHandler(r.contagem, async (c, read) => {
  const [rows] = await read(() => [contagemSelect(c.var.db, c.var.regiao)]);
  return c.json(rows, 200);
});

export const get = foldedHandler(r.get, async (c, read) => {
  const [profiles, held, ratings] = await read((scope) =>
    profissionalByIdSelects(c.var.db, scope, c.var.regiao, c.req.valid('param').id),
  );
  return c.json(profissionalOne(profiles, held, ratings), 200);
});

export const create = handler(r.create, async (c) => {
  const { db, user, regiao, config } = c.var;
  const mail = { config, send: mailOf(c), now: new Date() };
  return c.json(await createProfissional(db, logCtx(c), user, regiao, c.req.valid('json'), mail), 201);
});

export const update = handler(r.update, async (c) => {
  const { db, user, regiao } = c.var;
  return c.json(
    await updateProfissional(db, logCtx(c), user, regiao, c.req.valid('param').id, c.req.valid('json')),
    200,
  );
});

export const remove = handler(r.remove, async (c) => {
  await deleteProfissional(c.var.db, logCtx(c), c.var.user, c.var.regiao, c.req.valid('param').id);
  return c.json({ message: 'professional deleted' }, 200);
});

export const minhasAvaliacoes = handler(r.minhasAvaliacoes, async (c) =>
  c.json(await minhas(c.var.db, c.var.user.id), 200),
);
