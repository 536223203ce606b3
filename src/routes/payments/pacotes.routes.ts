import { requireAdmin } from '../../middleware/require-role';
import { listResponse } from '../../lib/pagination';
import { errors, IdParam, jsonBody, jsonResponse } from '../openapi';
import { authedRoute } from '../route';
import { CreatePacoteRequest, PacoteListQuery, PacoteSchema, UpdatePacoteRequest } from './pacotes.schemas';

const tags = ['Photo packages and orders'];

export const list = authedRoute({
  method: 'get',
  path: '/',
  tags,
  regional: true,
  summary: "The region's photo packages, by name (non-administrators: the active ones)",
  request: { query: PacoteListQuery },
  responses: { 200: listResponse(PacoteSchema, 'Packages') },
});

export const get = authedRoute({
  method: 'get',
  path: '/{id}',
  tags,
  regional: true,
  summary: 'One photo package',
  request: { params: IdParam },
  responses: { 200: jsonResponse(PacoteSchema, 'The package'), 404: errors[404] },
});

export const create = authedRoute({
  method: 'post',
  path: '/',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: 'Create a photo package (administrators)',
  request: { body: jsonBody(CreatePacoteRequest) },
  responses: { 201: jsonResponse(PacoteSchema, 'Created') },
});

export const update = authedRoute({
  method: 'put',
  path: '/{id}',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: 'Change a photo package (administrators)',
  request: { params: IdParam, body: jsonBody(UpdatePacoteRequest) },
  responses: { 200: jsonResponse(PacoteSchema, 'Changed'), 404: errors[404] },
});

export const remove = authedRoute({
  method: 'delete',
  path: '/{id}',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: 'Delete a photo package that has no orders (administrators)',
  description: 'A package with orders is 409 IN_USE: set `ativo: false` instead.',
  request: { params: IdParam },
  responses: { 204: { description: 'Deleted' }, 404: errors[404], 409: errors[409] },
});
