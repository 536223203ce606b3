import { z } from '@hono/zod-openapi';
import { jsonResponse } from '../openapi';
import { authedRoute } from '../route';
import { CidadeSchema, CidadesQuery } from './cidades.schemas';

export const list = authedRoute({
  method: 'get',
  path: '/',
  tags: ['Places'],
  fold: true,
  summary: 'Brazilian municipalities by name (any active user)',
  description:
    'Every municipality of the IBGE with its coordinates (docs/decisions.md#d23). `q` matches the start of any word of the name, ignoring case, accents, apostrophes and hyphens ("sao jose", "campos"): names that start with it first, then the others, each by name. Without `q`, the first names (of `uf`). At most 50. Not regional: no x-regiao.',
  request: { query: CidadesQuery },
  responses: { 200: jsonResponse(z.array(CidadeSchema), 'Cities') },
});
