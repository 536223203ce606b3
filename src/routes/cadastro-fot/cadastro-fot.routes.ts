import { createRoute } from '@hono/zod-openapi';
import { auth } from '../../middleware/auth';
import { region } from '../../middleware/region';
import { requireAdmin, requireRole } from '../../middleware/require-role';
import { ADMIN_ROLES } from '../../db/schema';
import { listResponse } from '../../lib/pagination';
import { bearer, errors, IdParam, jsonBody, jsonResponse, protectedErrors, RegionHeader } from '../../lib/validation';
import { CreateFotRequest, FotListQuery, FotSchema, UpdateFotRequest } from './cadastro-fot.schemas';

const tags = ['FOT records'];
const read = [auth({ fold: true }), requireRole(...ADMIN_ROLES, 'EVENT_OWNER'), region];
const write = [auth(), requireAdmin, region];

export const list = createRoute({
  method: 'get',
  path: '/',
  tags,
  security: bearer,
  middleware: read,
  summary: "The region's FOT records, last updated first (an EVENT_OWNER sees its company's only)",
  request: { headers: RegionHeader, query: FotListQuery },
  responses: { 200: listResponse(FotSchema, 'FOT records'), ...protectedErrors },
});

export const get = createRoute({
  method: 'get',
  path: '/{id}',
  tags,
  security: bearer,
  middleware: read,
  summary: 'One FOT record',
  request: { headers: RegionHeader, params: IdParam },
  responses: { 200: jsonResponse(FotSchema, 'The FOT record'), 404: errors[404], ...protectedErrors },
});

export const create = createRoute({
  method: 'post',
  path: '/',
  tags,
  security: bearer,
  middleware: write,
  summary: 'Register a graduation class (administrators)',
  description:
    'Company, course and graduation year must exist in the region. A taken `fot` number is 400 DUPLICATE_FOT.',
  request: { headers: RegionHeader, body: jsonBody(CreateFotRequest) },
  responses: { 201: jsonResponse(FotSchema, 'Created'), 404: errors[404], 413: errors[413], ...protectedErrors },
});

export const update = createRoute({
  method: 'put',
  path: '/{id}',
  tags,
  security: bearer,
  middleware: write,
  summary: 'Change the fields sent (administrators)',
  request: { headers: RegionHeader, params: IdParam, body: jsonBody(UpdateFotRequest) },
  responses: { 200: jsonResponse(FotSchema, 'Updated'), 404: errors[404], 413: errors[413], ...protectedErrors },
});

export const remove = createRoute({
  method: 'delete',
  path: '/{id}',
  tags,
  security: bearer,
  middleware: write,
  summary: 'Delete a FOT record (administrators); 409 IN_USE while agenda events use it',
  request: { headers: RegionHeader, params: IdParam },
  responses: { 204: { description: 'Deleted' }, 404: errors[404], 409: errors[409], ...protectedErrors },
});
