import { listEquipamentos, saveEquipamentos } from '../../services/planning/equipamentos';
import { handler } from '../route';
import * as r from './equipamentos.routes';

export const list = handler(r.list, async (c, ctx) => c.json(await listEquipamentos(ctx), 200));

export const put = handler(r.put, async (c, ctx) =>
  c.json(await saveEquipamentos(ctx, c.req.valid('json').itens), 200),
);
