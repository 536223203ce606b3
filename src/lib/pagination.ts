import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';

/** The largest page any list answers; without `limit` a list is whole, as the interface promises. */
export const MAX_PAGE = 500;

/** Optional `limit` and `offset` of every list route (spread into the route's query schema). */
export const pageFields = {
  // <number | string>: the typed client (hc) may pass numbers; the query string is coerced here.
  limit: z.coerce
    .number<number | string>()
    .int()
    .min(1)
    .max(MAX_PAGE)
    .optional()
    // With an explicit type the generator drops the bounds: state them, so clients see the maximum.
    .openapi({
      param: { name: 'limit', in: 'query' },
      type: 'integer',
      minimum: 1,
      maximum: MAX_PAGE,
      description: `page size, 1 to ${MAX_PAGE}; without it the whole list`,
    }),
  offset: z.coerce
    .number<number | string>()
    .int()
    .min(0)
    .max(1_000_000)
    .optional()
    .openapi({
      param: { name: 'offset', in: 'query' },
      type: 'integer',
      minimum: 0,
      maximum: 1_000_000,
      description: 'rows to skip (default 0)',
    }),
};

export const PageQuery = z.object(pageFields);

// The page and its total are the database's (db/list-total.ts); lib never defines what db/ needs.
export { isPaged, totalOf, whenPaged, type Page } from '../db/list-total';
import type { Page } from '../db/list-total';

/** No page size given: SQLite needs a LIMIT before an OFFSET (drizzle drops a negative one). */
const NO_LIMIT = 2_147_483_647;

/** LIMIT/OFFSET of a page; without `limit`, every row. */
export const pageBounds = (p: Page) => ({ limit: p.limit ?? NO_LIMIT, offset: p.offset ?? 0 });

/** Every list answers its total matching rows in X-Total-Count (exposed to browsers by CORS). */
export function setTotal(c: Context, total: number) {
  c.header('X-Total-Count', String(total));
}

/** The header documented on every list response. */
export const totalHeader = {
  'X-Total-Count': {
    description: 'number of rows matching the filters, whatever the page',
    schema: { type: 'integer' as const },
  },
};

/** A list response: the array plus the X-Total-Count header. */
export const listResponse = <T extends z.ZodType>(item: T, description: string) => ({
  description,
  headers: totalHeader,
  content: { 'application/json': { schema: z.array(item) } },
});
