import { createRoute, z } from '@hono/zod-openapi';
import { listResponse, PageQuery } from '../../lib/pagination';
import { bearer, errors, IdParam, jsonBody, jsonResponse, MessageSchema, RegionHeader } from '../../lib/validation';
import { auth } from '../../middleware/auth';
import { region } from '../../middleware/region';
import { requireAdmin } from '../../middleware/require-role';
import type { CatalogConfig, CatalogField, DeleteStyle } from './catalogs.schemas';

/** Order matters: who you are, whether you may, then which region (decisions D4, D5). */
const readMiddleware = [auth({ fold: true }), region];
const writeMiddleware = [auth(), requireAdmin, region];

const deletedMessage = { 200: jsonResponse(MessageSchema, 'Deleted') };
const deletedNoContent = { 204: { description: 'Deleted' } };
type DeleteResponses<D extends DeleteStyle> = D extends 'message' ? typeof deletedMessage : typeof deletedNoContent;

/**
 * The four routes of a simple catalog, relative to its mount path. Event types reuse them with
 * their own response schema (which adds `precos`).
 */
export function catalogRoutes<Req extends z.ZodType, Res extends z.ZodType, D extends DeleteStyle>(
  cfg: CatalogConfig<CatalogField, D>,
  schemas: { request: Req; response: Res },
) {
  const tags = [cfg.tag];
  const { noun, field } = cfg;
  const regional = `Region from x-regiao; an id of another region is 404.`;

  const list = createRoute({
    method: 'get',
    path: '/',
    tags,
    ...(cfg.publicList ? {} : { security: bearer }),
    middleware: cfg.publicList ? [region] : readMiddleware,
    summary: `Every ${noun} of the region, by ${field}`,
    description: cfg.publicList ? 'Public: no token needed; still filtered by x-regiao.' : 'Any active user.',
    request: { headers: RegionHeader, query: PageQuery },
    responses: {
      200: listResponse(schemas.response, `${noun} entries ordered by ${field} (case-insensitive)`),
      400: errors[400],
      ...(cfg.publicList ? {} : { 401: errors[401], 403: errors[403] }),
      500: errors[500],
    },
  });

  const create = createRoute({
    method: 'post',
    path: '/',
    tags,
    security: bearer,
    middleware: writeMiddleware,
    summary: `Create a ${noun} in the region (administrators)`,
    description: `${field} is unique per region, ignoring case (accented letters too) and surrounding spaces: a duplicate is 409 CONFLICT.`,
    request: { headers: RegionHeader, body: jsonBody(schemas.request) },
    responses: {
      201: jsonResponse(schemas.response, 'Created'),
      400: errors[400],
      401: errors[401],
      403: errors[403],
      409: errors[409],
      413: errors[413],
      500: errors[500],
    },
  });

  const update = createRoute({
    method: 'put',
    path: '/{id}',
    tags,
    security: bearer,
    middleware: writeMiddleware,
    summary: `Rename a ${noun} (administrators)`,
    description: `${regional} Renaming onto an existing ${field} of the region is 409 CONFLICT.`,
    request: { params: IdParam, headers: RegionHeader, body: jsonBody(schemas.request) },
    responses: {
      200: jsonResponse(schemas.response, 'Updated'),
      400: errors[400],
      401: errors[401],
      403: errors[403],
      404: errors[404],
      409: errors[409],
      413: errors[413],
      500: errors[500],
    },
  });

  const remove = createRoute({
    method: 'delete',
    path: '/{id}',
    tags,
    security: bearer,
    middleware: writeMiddleware,
    summary: `Delete a ${noun} (administrators)`,
    description: `${regional} An entry still referenced by other records is 409 IN_USE and nothing is deleted.`,
    request: { params: IdParam, headers: RegionHeader },
    responses: {
      ...((cfg.deleteStyle === 'message' ? deletedMessage : deletedNoContent) as DeleteResponses<D>),
      400: errors[400],
      401: errors[401],
      403: errors[403],
      404: errors[404],
      409: errors[409],
      500: errors[500],
    },
  });

  return { list, create, update, remove };
}

export type CatalogRoutes<Req extends z.ZodType, Res extends z.ZodType, D extends DeleteStyle> = ReturnType<
  typeof catalogRoutes<Req, Res, D>
>;
