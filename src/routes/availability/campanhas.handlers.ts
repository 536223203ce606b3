import {
  answerCampanha,
  createCampanha,
  encerrarCampanha,
  getCampanha,
  listCampanhas,
  resultadoCampanha,
} from '../../services/availability/campanhas';
import { handler } from '../route';
import * as r from './campanhas.routes';

export const create = handler(r.create, async (c, ctx) => c.json(await createCampanha(ctx, c.req.valid('json')), 201));

export const list = handler(r.list, async (c, ctx) => c.json(await listCampanhas(ctx), 200));

export const get = handler(r.get, async (c, ctx) => c.json(await getCampanha(ctx, c.req.valid('param').id), 200));

export const answer = handler(r.answer, async (c, ctx) =>
  c.json(await answerCampanha(ctx, c.req.valid('param').id, c.req.valid('json')), 200),
);

export const resultado = handler(r.resultado, async (c, ctx) =>
  c.json(await resultadoCampanha(ctx, c.req.valid('param').id), 200),
);

export const encerrar = handler(r.encerrar, async (c, ctx) =>
  c.json(await encerrarCampanha(ctx, c.req.valid('param').id), 200),
);
