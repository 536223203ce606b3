import { setTotal } from '../../lib/pagination';
import * as vagas from '../../services/teams/vagas';
import { foldedHandler, handler, logCtx, pushOf } from '../route';
import * as r from './vagas.routes';

export const list = foldedHandler(r.list, async (c, { read }) => {
  const { limit, offset, ...filters } = c.req.valid('query');
  const [profile, rows] = await read((scope) =>
    vagas.vagasSelects(c.get('db'), scope, filters, { limit, offset }, new Date()),
  );
  const { list, total } = vagas.toVagas(profile, rows);
  setTotal(c, total);
  return c.json(list, 200);
});

export const apply = handler(r.apply, async (c) => {
  const agendaId = c.req.valid('param').id;
  const body = await vagas.apply(
    c.get('db'),
    logCtx(c),
    c.get('user'),
    agendaId,
    c.req.valid('json'),
    pushOf(c),
    new Date(),
  );
  return c.json(body, 201);
});
