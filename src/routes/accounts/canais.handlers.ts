import { setCanais } from '../../services/accounts/canais';
import { handler } from '../route';
import * as r from './canais.routes';

export const putCanais = handler(r.putCanais, async (c, ctx) => c.json(await setCanais(ctx, c.req.valid('json')), 200));
