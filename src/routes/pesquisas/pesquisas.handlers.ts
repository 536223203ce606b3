import { setTotal } from '../../lib/pagination';
import * as pesquisas from '../../services/pesquisas';
import { csvAnswer, handler, logCtx, mailOf } from '../route';
import * as r from './pesquisas.routes';

export const list = handler(r.list, async (c) => {
  const { items, total } = await pesquisas.listPesquisas(c.var.db, c.var.regiao, c.req.valid('query'));
  setTotal(c, total);
  return c.json(items, 200);
});

export const create = handler(r.create, async (c) => {
  const { db, user, regiao } = c.var;
  return c.json(await pesquisas.createPesquisa(db, logCtx(c), user, regiao, c.req.valid('json')), 201);
});

export const get = handler(r.get, async (c) =>
  c.json(await pesquisas.getPesquisa(c.var.db, c.var.regiao, c.req.valid('param').id), 200),
);

export const update = handler(r.update, async (c) => {
  const { db, regiao } = c.var;
  return c.json(
    await pesquisas.updatePesquisa(db, logCtx(c), regiao, c.req.valid('param').id, c.req.valid('json')),
    200,
  );
});

export const remove = handler(r.remove, async (c) => {
  await pesquisas.deletePesquisa(c.var.db, logCtx(c), c.var.regiao, c.req.valid('param').id);
  return c.body(null, 204);
});

export const envios = handler(r.envios, async (c) => {
  const { db, regiao, config } = c.var;
  const id = c.req.valid('param').id;
  return c.json(await pesquisas.sendPesquisa(db, logCtx(c), config, regiao, id, c.req.valid('json'), mailOf(c)), 201);
});

export const resultados = handler(r.resultados, async (c) =>
  c.json(await pesquisas.resultados(c.var.db, c.var.regiao, c.req.valid('param').id), 200),
);

export const csv = handler(r.csv, async (c) => {
  const id = c.req.valid('param').id;
  return csvAnswer(c, await pesquisas.respostasCsv(c.var.db, c.var.regiao, id), `pesquisa-${id}.csv`);
});

export const publicGet = handler(r.publicGet, async (c) =>
  c.json(await pesquisas.publicPesquisa(c.var.db, c.req.valid('param').token), 200),
);

export const publicAnswer = handler(r.publicAnswer, async (c) =>
  c.json(await pesquisas.answerPesquisa(c.var.db, c.req.valid('param').token, c.req.valid('json').respostas), 201),
);
