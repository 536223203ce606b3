import { aplicarRegras } from '../../services/operations/regras-aplicar';
import { handler } from '../route';
import * as r from './regras-aplicar.routes';

export const aplicar = handler(r.aplicar, async (c, ctx) => {
  const { created, aplicacao } = await aplicarRegras(
    ctx,
    c.req.valid('param').id,
    c.req.valid('header')['idempotency-key'],
  );
  return created ? c.json(aplicacao, 201) : c.json(aplicacao, 200);
});
