import { setTotal } from '../../lib/pagination';
import * as pesquisas from '../../services/surveys/pesquisas';
import { csvAnswer, handler, logCtx, mailOf } from '../route';
import * as r from './pesquisas.routes';

export const list = handler(r.list, async (c) => {
  const { items, total } = await pesquisas.listPesquisas(c.get('db'), c.get('regiao'), c.req.valid('query'));
  setTotal(c, total);
  return c.json(items, 200);
});

export const create = handler(r.create, async (c) => {
  const db = c.get('db');
  const user = c.get('user');
  const regiao = c.get('regiao');
  return c.json(await pesquisas.createPesquisa(db, logCtx(c), user, regiao, c.req.valid('json')), 201);
});

export const get = handler(r.get, async (c) =>
  c.json(await pesquisas.getPesquisa(c.get('db'), c.get('regiao'), c.req.valid('param').id), 200),
);

export const update = handler(r.update, async (c) => {
  const db = c.get('db');
  const regiao = c.get('regiao');
  return c.json(
    await pesquisas.updatePesquisa(db, logCtx(c), regiao, c.req.valid('param').id, c.req.valid('json')),
    200,
  );
});

export const remove = handler(r.remove, async (c) => {
  await pesquisas.deletePesquisa(c.get('db'), logCtx(c), c.get('regiao'), c.req.valid('param').id);
  return c.body(null, 204);
});

export const envios = handler(r.envios, async (c) => {
  const db = c.get('db');
  const regiao = c.get('regiao');
  const config = c.get('config');
  const id = c.req.valid('param').id;
  return c.json(await pesquisas.sendPesquisa(db, logCtx(c), config, regiao, id, c.req.valid('json'), mailOf(c)), 201);
});

export const resultados = handler(r.resultados, async (c) =>
  c.json(await pesquisas.resultados(c.get('db'), c.get('regiao'), c.req.valid('param').id), 200),
);

export const csv = handler(r.csv, async (c) => {
  const id = c.req.valid('param').id;
  return csvAnswer(c, await pesquisas.respostasCsv(c.get('db'), c.get('regiao'), id), `pesquisa-${id}.csv`);
});

export const publicGet = handler(r.publicGet, async (c) =>
  c.json(await pesquisas.publicPesquisa(c.get('db'), c.req.valid('param').token), 200),
);

export const publicAnswer = handler(r.publicAnswer, async (c) =>
  c.json(await pesquisas.answerPesquisa(c.get('db'), c.req.valid('param').token, c.req.valid('json').respostas), 201),
);
