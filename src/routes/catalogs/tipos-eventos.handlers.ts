import { eventoPresenter, listPrices as pricesOf, savePrice } from '../../services/catalogs/tipos-eventos';
import { catalogHandlers } from './catalogs.handlers';
import { handler } from '../route';
import * as r from './tipos-eventos.routes';
import { tiposEventosConfig } from './tipos-eventos.schemas';

export const { list, publicList, create, update, remove } = catalogHandlers(tiposEventosConfig, eventoPresenter);

export const setPrice = handler(r.setPrice, async (c, ctx) =>
  c.json({ message: 'preço salvo', id: await savePrice(ctx, c.req.valid('json')) }, 200),
);

export const listPrices = handler(r.listPrices, async (c, ctx) =>
  c.json(await pricesOf(ctx, c.req.valid('param').id), 200),
);
