import { allowAgenda, requireAdmin } from '../../middleware/require-role';
import { listResponse } from '../../lib/pagination';
import { errors, IdParam, jsonBody, jsonResponse } from '../openapi';
import { authedRoute } from '../route';
import { FeriadoRequest, FeriadoSchema, FeriadosQuery } from './feriados.schemas';

const tags = ['Rules'];

export const list = authedRoute({
  method: 'get',
  path: '/',
  tags,
  allow: allowAgenda('create'),
  regional: true,
  summary: 'Holidays and other days that are not business days (planners)',
  description:
    "National and state days of 2024-2040 (every region) and the region's own municipal and institutional days, by date. Business days skip `feriado` and `recesso`; `ponto_facultativo` counts as one (docs/decisions.md#d25).",
  request: { query: FeriadosQuery },
  responses: { 200: listResponse(FeriadoSchema, 'Days, by date') },
});

export const create = authedRoute({
  method: 'post',
  path: '/',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: 'Add a municipal or institutional day (administrators)',
  description:
    "It holds for the region's events in that city or of that institution. The same day twice for the same place is 409 CONFLICT; an unknown city is 400.",
  request: { body: jsonBody(FeriadoRequest) },
  responses: { 201: jsonResponse(FeriadoSchema, 'Added'), 404: errors[404], 409: errors[409] },
});

export const remove = authedRoute({
  method: 'delete',
  path: '/{id}',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: 'Remove a day the region added (administrators)',
  description: 'National and state days come with the API and cannot be removed: 409 INVALID_STATE.',
  request: { params: IdParam },
  responses: { 204: { description: 'Removed' }, 404: errors[404], 409: errors[409] },
});
