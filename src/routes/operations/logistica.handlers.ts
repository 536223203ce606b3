import { logisticaSelect, oneLogistica, putLogistica } from '../../services/operations/logistica';
import { foldedHandler, handler, logCtx, pushOf } from '../route';
import * as r from './logistica.routes';

export const get = foldedHandler(r.get, async (c, { read }) => {
  const [rows] = await read((scope) => [logisticaSelect(c.get('db'), scope, c.get('regiao'), c.req.valid('param').id)]);
  return c.json(oneLogistica(rows), 200);
});

export const put = handler(r.put, async (c) => {
  const db = c.get('db');
  const user = c.get('user');
  const regiao = c.get('regiao');
  const id = c.req.valid('param').id;
  return c.json(await putLogistica(db, logCtx(c), user, regiao, id, c.req.valid('json'), pushOf(c)), 200);
});
