import { z } from '@hono/zod-openapi';
import { errors, IdParam, jsonBody, jsonResponse } from '../openapi';
import { requireAdmin } from '../../middleware/require-role';
import { catalogRoutes } from './catalogs.routes';
import {
  CreateEventoRequest,
  EventoResponse,
  PrecoResponse,
  PriceInput,
  PriceSavedResponse,
  tiposEventosConfig,
} from './tipos-eventos.schemas';
import { authedRoute } from '../route';

const tags = [tiposEventosConfig.tag];

export const { list, publicList, create, update, remove } = catalogRoutes(tiposEventosConfig, {
  request: CreateEventoRequest,
  response: EventoResponse,
});

export const setPrice = authedRoute({
  method: 'post',
  path: '/precos',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: 'Create or replace the price of an event type for a function (administrators)',
  description:
    'One price per (event type, function, region): posting again replaces valor and keeps the id. Event type and function must exist in the x-regiao region (404 otherwise).',
  request: { body: jsonBody(PriceInput) },
  responses: {
    200: jsonResponse(PriceSavedResponse, 'Saved'),
    404: errors[404],
  },
});

export const listPrices = authedRoute({
  method: 'get',
  path: '/{id}/precos',
  tags,
  regional: true,
  summary: 'The prices of one event type in the region, by function name',
  request: { params: IdParam },
  responses: {
    200: jsonResponse(z.array(PrecoResponse), 'Prices'),
    404: errors[404],
  },
});
