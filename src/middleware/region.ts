import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env';
import { ApiError } from '../lib/errors';

/** x-regiao (docs/decisions.md#d5): missing or empty is the default region; any case; unknown is 400. */
export const region = createMiddleware<AppEnv>(async (c, next) => {
  const { REGIOES, REGIAO_PADRAO } = c.get('config');
  const regiao = (c.req.header('x-regiao') ?? '').trim().toUpperCase() || REGIAO_PADRAO;
  if (!REGIOES.includes(regiao)) {
    throw new ApiError('INVALID_REGION', `x-regiao: deve ser um de: ${REGIOES.join(', ')}`);
  }
  c.set('regiao', regiao);
  await next();
});
