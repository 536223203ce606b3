import { createRoute, z } from '@hono/zod-openapi';
import { bearer, errors, IdParam, jsonBody, jsonResponse, RegionHeader } from '../../lib/validation';
import { auth } from '../../middleware/auth';
import { region } from '../../middleware/region';
import { requireAdmin } from '../../middleware/require-role';
import { catalogRoutes } from '../catalogs/catalogs.routes';
import {
  CreateEventoRequest,
  EventoResponse,
  PrecoResponse,
  PriceInput,
  PriceSavedResponse,
  tiposEventosConfig,
} from './tipos-eventos.schemas';

const tags = [tiposEventosConfig.tag];

export const { list, create, update, remove } = catalogRoutes(tiposEventosConfig, {
  request: CreateEventoRequest,
  response: EventoResponse,
});

export const setPrice = createRoute({
  method: 'post',
  path: '/precos',
  tags,
  security: bearer,
  middleware: [auth(), requireAdmin, region],
  summary: 'Create or replace the price of an event type for a function (administrators)',
  description:
    'One price per (event type, function, region): posting again replaces valor and keeps the id. Event type and function must exist in the x-regiao region (404 otherwise).',
  request: { headers: RegionHeader, body: jsonBody(PriceInput) },
  responses: {
    200: jsonResponse(PriceSavedResponse, 'Saved'),
    400: errors[400],
    401: errors[401],
    403: errors[403],
    404: errors[404],
    413: errors[413],
    500: errors[500],
  },
});

export const listPrices = createRoute({
  method: 'get',
  path: '/{id}/precos',
  tags,
  security: bearer,
  middleware: [auth(), region],
  summary: 'The prices of one event type in the region, by function name',
  request: { params: IdParam, headers: RegionHeader },
  responses: {
    200: jsonResponse(z.array(PrecoResponse), 'Prices'),
    400: errors[400],
    401: errors[401],
    403: errors[403],
    404: errors[404],
    500: errors[500],
  },
});
