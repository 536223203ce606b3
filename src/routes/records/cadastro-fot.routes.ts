import { requireAdmin, requireRole } from '../../middleware/require-role';
import { ADMIN_ROLES } from '../../db/schema';
import { listResponse } from '../../lib/pagination';
import { errors, IdParam, jsonBody, jsonResponse } from '../openapi';
import { CreateFotRequest, FotListQuery, FotSchema, UpdateFotRequest } from './cadastro-fot.schemas';
import { authedRoute } from '../route';

const tags = ['FOT records'];

export const list = authedRoute({
  method: 'get',
  path: '/',
  tags,
  allow: requireRole(...ADMIN_ROLES, 'EVENT_OWNER'),
  fold: true,
  regional: true,
  summary: "The region's FOT records, last updated first (an EVENT_OWNER sees its company's only)",
  request: { query: FotListQuery },
  responses: { 200: listResponse(FotSchema, 'FOT records') },
});

export const get = authedRoute({
  method: 'get',
  path: '/{id}',
  tags,
  allow: requireRole(...ADMIN_ROLES, 'EVENT_OWNER'),
  fold: true,
  regional: true,
  summary: 'One FOT record',
  request: { params: IdParam },
  responses: { 200: jsonResponse(FotSchema, 'The FOT record'), 404: errors[404] },
});

export const create = authedRoute({
  method: 'post',
  path: '/',
  tags,
  allow: requireAdmin,
  regional: true,
  fold: true,
  summary: 'Register a graduation class (administrators)',
  description:
    'Company, course and graduation year must exist in the region (404 naming the field). A taken `fot` number is 400 DUPLICATE_FOT. A reference created while the request ran is 409 CONFLICT: nothing was written, send it again.',
  request: { body: jsonBody(CreateFotRequest) },
  responses: { 201: jsonResponse(FotSchema, 'Created'), 404: errors[404], 409: errors[409] },
});

export const update = authedRoute({
  method: 'put',
  path: '/{id}',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: 'Change the fields sent (administrators)',
  request: { params: IdParam, body: jsonBody(UpdateFotRequest) },
  responses: { 200: jsonResponse(FotSchema, 'Updated'), 404: errors[404] },
});

export const remove = authedRoute({
  method: 'delete',
  path: '/{id}',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: 'Delete a FOT record (administrators); 409 IN_USE while agenda events use it',
  request: { params: IdParam },
  responses: { 204: { description: 'Deleted' }, 404: errors[404], 409: errors[409] },
});
