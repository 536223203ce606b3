import { eventoPresenter, listPrices as pricesOf, savePrice } from '../../services/catalogs/tipos-eventos';
import { catalogHandlers } from './catalogs.handlers';
import { handler, logCtx } from '../route';
import * as r from './tipos-eventos.routes';
import { tiposEventosConfig } from './tipos-eventos.schemas';

export const { list, publicList, create, update, remove } = catalogHandlers(tiposEventosConfig, eventoPresenter);

export const setPrice = handler(r.setPrice, async (c) => {
  const id = await savePrice(c.get('db'), logCtx(c), c.get('regiao'), c.req.valid('json'));
  return c.json({ message: 'preço salvo', id }, 200);
});

export const listPrices = handler(r.listPrices, async (c) =>
  c.json(await pricesOf(c.get('db'), c.get('regiao'), c.req.valid('param').id), 200),
);
