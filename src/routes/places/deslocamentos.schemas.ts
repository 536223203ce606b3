import { z } from '@hono/zod-openapi';
import { optStr } from '../../lib/fields';
import { out } from '../openapi';
import { cidadeIbge, cidadeIbgeQuery } from './cidades.schemas';

export const MAX_MATRIX_ROWS = 200;

export const DeslocamentoSchema = z
  .object({
    id: out.id(),
    origem_ibge: z.number().int(),
    destino_ibge: z.number().int(),
    minutos: z.number().int(),
    fonte: z.string().nullable().openapi({ description: 'where the office got the figure (free text)' }),
    regiao: out.regiao(),
    created_at: out.timestamp(),
    updated_at: out.timestamp(),
  })
  .openapi('Deslocamento');

export const PutDeslocamentosRequest = z
  .object({
    itens: z
      .array(
        z.object({
          origem_ibge: cidadeIbge(),
          destino_ibge: cidadeIbge(),
          minutos: z
            .number()
            .int()
            .min(0)
            .max(24 * 60)
            .openapi({ example: 90 }),
          fonte: optStr(100).openapi({ example: 'medido pela equipe' }),
        }),
      )
      .min(1)
      .max(MAX_MATRIX_ROWS),
  })
  .openapi('PutDeslocamentosRequest');

export const EstimativaQuery = z.object({
  origem: cidadeIbgeQuery().openapi({ param: { name: 'origem', in: 'query' } }),
  destino: cidadeIbgeQuery().openapi({ param: { name: 'destino', in: 'query' } }),
});

export const EstimativaSchema = z
  .object({
    minutos: z.number().int(),
    distancia_km: z.number().openapi({ description: 'great-circle distance between the two cities, 0.1 km' }),
    fonte: z.enum(['matriz', 'mesma_cidade', 'estimado']),
  })
  .openapi('EstimativaDeslocamento');
