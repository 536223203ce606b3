import { setTotal } from '../../lib/pagination';
import { sendPesquisa } from '../../services/surveys/envios';
import * as pesquisas from '../../services/surveys/pesquisas';
import { answerPesquisa, publicPesquisa } from '../../services/surveys/respostas';
import { respostasCsv, resultados as resultadosOf } from '../../services/surveys/resultados';
import { csvAnswer, handler } from '../route';
import * as r from './pesquisas.routes';

export const list = handler(r.list, async (c, ctx) => {
  const { items, total } = await pesquisas.listPesquisas(ctx, c.req.valid('query'));
  setTotal(c, total);
  return c.json(items, 200);
});

export const create = handler(r.create, async (c, ctx) =>
  c.json(await pesquisas.createPesquisa(ctx, c.req.valid('json')), 201),
);

export const get = handler(r.get, async (c, ctx) =>
  c.json(await pesquisas.getPesquisa(ctx, c.req.valid('param').id), 200),
);

export const update = handler(r.update, async (c, ctx) =>
  c.json(await pesquisas.updatePesquisa(ctx, c.req.valid('param').id, c.req.valid('json')), 200),
);

export const remove = handler(r.remove, async (c, ctx) => {
  await pesquisas.deletePesquisa(ctx, c.req.valid('param').id);
  return c.body(null, 204);
});

export const envios = handler(r.envios, async (c, ctx) =>
  c.json(await sendPesquisa(ctx, c.req.valid('param').id, c.req.valid('json')), 201),
);

export const resultados = handler(r.resultados, async (c, ctx) =>
  c.json(await resultadosOf(ctx, c.req.valid('param').id), 200),
);

export const csv = handler(r.csv, async (c, ctx) => {
  const id = c.req.valid('param').id;
  return csvAnswer(c, await respostasCsv(ctx, id), `pesquisa-${id}.csv`);
});

export const publicGet = handler(r.publicGet, async (c, ctx) =>
  c.json(await publicPesquisa(ctx, c.req.valid('param').token), 200),
);

export const publicAnswer = handler(r.publicAnswer, async (c, ctx) =>
  c.json(await answerPesquisa(ctx, c.req.valid('param').token, c.req.valid('json').respostas), 201),
);
