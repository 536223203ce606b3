import { searchCidades } from '../../services/places/cidades';
import { foldedHandler } from '../route';
import * as r from './cidades.routes';

export const list = foldedHandler(r.list, async (c, ctx) => {
  const [rows] = await ctx.read(() => [searchCidades(ctx.db, c.req.valid('query'))]);
  return c.json(rows, 200);
});
