import { z } from '@hono/zod-openapi';
import { allowAgenda, requireAdmin } from '../../middleware/require-role';
import { jsonBody, jsonResponse } from '../openapi';
import { authedRoute } from '../route';
import {
  DeslocamentoSchema,
  EstimativaQuery,
  EstimativaSchema,
  MAX_MATRIX_ROWS,
  PutDeslocamentosRequest,
} from './deslocamentos.schemas';

const tags = ['Places'];

export const list = authedRoute({
  method: 'get',
  path: '/',
  tags,
  allow: requireAdmin,
  fold: true,
  regional: true,
  summary: "The region's travel matrix (administrators)",
  description:
    'Minutes from one city to another as the office keeps them (docs/guide/places.md). A row serves both ways unless the reverse direction has its own row.',
  responses: { 200: jsonResponse(z.array(DeslocamentoSchema), 'The matrix, by origin then destination') },
});

export const put = authedRoute({
  method: 'put',
  path: '/',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: 'Create or replace rows of the travel matrix (administrators)',
  description: `At most ${MAX_MATRIX_ROWS} rows, each keyed by (origem_ibge, destino_ibge): a new pair is added, a known one replaced; rows not sent stay. All or nothing: an unknown city code is 400 and nothing is written. Answers the whole matrix of the region.`,
  request: { body: jsonBody(PutDeslocamentosRequest) },
  responses: { 200: jsonResponse(z.array(DeslocamentoSchema), 'The matrix after the change') },
});

export const estimativa = authedRoute({
  method: 'get',
  path: '/estimativa',
  tags,
  allow: allowAgenda('create'),
  fold: true,
  regional: true,
  summary: 'Travel minutes between two cities, by the rule the acceptance uses (planners)',
  description:
    'First match wins: the matrix (`fonte: matriz`, either direction unless the reverse has its own row), the same city (`mesma_cidade`, DESLOCAMENTO_MESMA_CIDADE_MIN minutes), else great-circle km x 1.3 at 60 km/h rounded up to 5 minutes (`estimado`). An unknown city code is 400.',
  request: { query: EstimativaQuery },
  responses: { 200: jsonResponse(EstimativaSchema, 'The estimate') },
});
