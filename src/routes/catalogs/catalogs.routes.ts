import type { z } from '@hono/zod-openapi';
import { listResponse, PageQuery } from '../../lib/pagination';
import { cachedPublicGet } from '../../middleware/cached';
import { requireAdmin } from '../../middleware/require-role';

import { errors, IdParam, jsonBody, jsonResponse, MessageSchema } from '../openapi';
import { authedRoute, publicRoute } from '../route';
import type { CatalogConfig, CatalogField, DeleteStyle } from './catalogs.schemas';

/** Seconds the public function list may be served from the edge cache (middleware/cached.ts). */
export const PUBLIC_LIST_TTL = 60;

/**
 * The query strings of a public list that the edge cache keeps: a fixed set, so that a write can
 * drop every cached variant of its region (publicListEntries). Only the whole list (no query: the
 * interface's call); a page (`?limit=`) or any other query is answered from D1 each time.
 */
const CACHED_QUERIES: readonly string[] = [''];
const entryOf = (path: string, regiao: string, query: string) => `${path}?${query}|${regiao}`;
/** Every edge-cache entry of a catalog's public list in a region: what a write to it drops. */
export const publicListEntries = (path: string, regiao: string) => CACHED_QUERIES.map((q) => entryOf(path, regiao, q));

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
  const inRegion = `Region from x-regiao; an id of another region is 404.`;

  const listDef = {
    method: 'get',
    path: '/',
    tags,
    regional: true,
    summary: `Every ${noun} of the region, by ${field}`,
    request: { query: PageQuery },
    responses: { 200: listResponse(schemas.response, `${noun} entries ordered by ${field} (case-insensitive)`) },
  } as const;

  const list = authedRoute({ ...listDef, fold: true, description: 'Any active user.' });
  /** Only /api/funcoes (docs/decisions.md#d4): the same list with no token needed. */
  const publicList = publicRoute({
    ...listDef,
    middleware: [
      cachedPublicGet({
        ttl: PUBLIC_LIST_TTL,
        entry: (c) => {
          const query = new URL(c.req.url).search.slice(1);
          return CACHED_QUERIES.includes(query) ? entryOf(cfg.path, c.get('regiao'), query) : undefined;
        },
      }),
    ],
    description: `Public: no token needed; still filtered by x-regiao. Answers a strong \`ETag\` and honours \`If-None-Match\` (304, empty body). Without a query, an anonymous request may be served from the edge cache for up to ${PUBLIC_LIST_TTL} s: a write shows at once in the location that made it and within ${PUBLIC_LIST_TTL} s elsewhere. A request with a token (Authorization or the session cookie) or with a query (a page) is never answered from the cache: an administrator sees its own change at once.`,
    responses: {
      ...listDef.responses,
      304: { description: 'Not modified: the `If-None-Match` ETag is current (no body)' },
    },
  });

  const create = authedRoute({
    method: 'post',
    path: '/',
    tags,
    allow: requireAdmin,
    fold: true,
    regional: true,
    summary: `Create a ${noun} in the region (administrators)`,
    description: `${field} is unique per region, ignoring case (accented letters too) and surrounding spaces: a duplicate is 409 CONFLICT.`,
    request: { body: jsonBody(schemas.request) },
    responses: { 201: jsonResponse(schemas.response, 'Created'), 409: errors[409] },
  });

  const update = authedRoute({
    method: 'put',
    path: '/{id}',
    tags,
    allow: requireAdmin,
    regional: true,
    summary: `Rename a ${noun} (administrators)`,
    description: `${inRegion} Renaming onto an existing ${field} of the region is 409 CONFLICT.`,
    request: { params: IdParam, body: jsonBody(schemas.request) },
    responses: { 200: jsonResponse(schemas.response, 'Updated'), 404: errors[404], 409: errors[409] },
  });

  const remove = authedRoute({
    method: 'delete',
    path: '/{id}',
    tags,
    allow: requireAdmin,
    regional: true,
    summary: `Delete a ${noun} (administrators)`,
    description: `${inRegion} An entry still referenced by other records is 409 IN_USE and nothing is deleted.`,
    request: { params: IdParam },
    responses: {
      ...((cfg.deleteStyle === 'message' ? deletedMessage : deletedNoContent) as DeleteResponses<D>),
      404: errors[404],
      409: errors[409],
    },
  });

  return { list, publicList, create, update, remove };
}
