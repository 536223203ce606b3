import { z } from '@hono/zod-openapi';
import { searchText, uf } from '../../lib/fields';
import { MAX_CIDADES } from '../../services/places/cidades';

export const CidadesQuery = z
  .object({
    uf: uf()
      .optional()
      .openapi({ param: { name: 'uf', in: 'query' }, description: 'only the cities of this state (any case)' }),
    q: searchText(60).openapi({
      param: { name: 'q', in: 'query' },
      description:
        'part of the name, ignoring case and accents ("sao jose" finds "São José"); names that start with it first',
    }),
    limit: z.coerce
      .number<number | string>()
      .int()
      .min(1)
      .max(MAX_CIDADES)
      .optional()
      .openapi({
        param: { name: 'limit', in: 'query' },
        type: 'integer',
        minimum: 1,
        maximum: MAX_CIDADES,
        description: `at most this many cities, 1 to ${MAX_CIDADES} (default ${MAX_CIDADES})`,
      }),
  })
  .partial({ q: true });

/** How an answer names a city (an event's `cidade`, an institution's); inline, so that `.nullable()` stays a plain type. */
const cidadeRefShape = {
  codigo_ibge: z.number().int().openapi({ description: "the IBGE's 7-digit municipality code", example: 3509502 }),
  nome: z.string().openapi({ example: 'Campinas' }),
  uf: z.string().openapi({ example: 'SP' }),
};
export const cidadeRefOrNull = () =>
  z.object(cidadeRefShape).nullable().openapi({ description: 'the city (GET /api/cidades), or null' });

export const CidadeSchema = z
  .object({
    ...cidadeRefShape,
    latitude: z.number().openapi({ example: -22.9053 }),
    longitude: z.number().openapi({ example: -47.0659 }),
  })
  .openapi('Cidade');

/** A city code in a body: the 7 digits of the IBGE code. */
export const cidadeIbge = () =>
  z
    .number()
    .int()
    .min(1_000_000)
    .max(9_999_999)
    .openapi({ description: 'IBGE municipality code (7 digits), see GET /api/cidades', example: 3509502 });

/** A city code in a query string (coerced from its text). */
export const cidadeIbgeQuery = () =>
  z.coerce.number<number | string>().int().min(1_000_000).max(9_999_999).openapi({
    type: 'integer',
    minimum: 1000000,
    maximum: 9999999,
    description: 'IBGE municipality code (7 digits), see GET /api/cidades',
    example: 3509502,
  });
