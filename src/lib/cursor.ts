import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { INSTANT_PATTERN } from './fields';

/**
 * Cursor paging, shared by the lists that page newest first (notifications, the activity log):
 * `limit` (1-200, default 50), `antes` (the `X-Next-Cursor` header of the previous page, or an
 * ISO-8601 timestamp), and the header itself. A cursor is base64url of its parts joined by `|`;
 * each list decides what the parts are and validates them (`cursorQuery(parse)`).
 */

export const CURSOR_MAX_PAGE = 200;
export const CURSOR_DEFAULT_PAGE = 50;

export const encodeCursor = (...parts: (string | number)[]) =>
  btoa(parts.join('|')).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** The parts of a cursor made by encodeCursor, or undefined when it is not one. */
export function cursorParts(s: string): string[] | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(s)) return undefined;
  try {
    return atob(s.replace(/-/g, '+').replace(/_/g, '/')).split('|');
  } catch {
    return undefined;
  }
}

/** `limit`: 1 to 200, default 50. */
export const cursorLimit = z
  .string()
  .regex(/^\d{1,4}$/, `deve ser um inteiro de 1 a ${CURSOR_MAX_PAGE}`)
  .transform(Number)
  .refine((n) => n >= 1 && n <= CURSOR_MAX_PAGE, `deve ser um inteiro de 1 a ${CURSOR_MAX_PAGE}`)
  .optional()
  .transform((n) => n ?? CURSOR_DEFAULT_PAGE)
  .openapi({
    param: { name: 'limit', in: 'query' },
    type: 'integer',
    minimum: 1,
    maximum: CURSOR_MAX_PAGE,
    default: CURSOR_DEFAULT_PAGE,
  });

/** `antes`: decoded by `parse` (undefined = malformed: 400). */
export const cursorAntes = <T>(parse: (s: string) => T | undefined, what: string) =>
  z
    .string()
    .max(200)
    .transform((s, ctx) => {
      const cursor = parse(s.trim());
      if (cursor === undefined) {
        ctx.addIssue({
          code: 'custom',
          message: 'deve ser o X-Next-Cursor da página anterior ou um instante ISO-8601',
        });
        return z.NEVER;
      }
      return cursor;
    })
    .optional()
    .openapi({
      param: { name: 'antes', in: 'query' },
      type: 'string',
      maxLength: 200,
      // A cursor (opaque base64url) or an instant as the API writes them, on a real day (lib/dates.ts).
      anyOf: [{ format: 'date-time', pattern: INSTANT_PATTERN }, { pattern: '^[A-Za-z0-9_-]+$' }],
      description: `The \`X-Next-Cursor\` header of the previous page (exact paging), or an ISO-8601 timestamp: only ${what} created before it`,
    });

/** The documented header of a cursor-paged answer. */
export const nextCursorHeader = z.object({
  'X-Next-Cursor': z
    .string()
    .optional()
    .openapi({ description: 'The `antes` of the next page; absent on the last page' }),
});

/**
 * Answers the page: the query read `limit + 1` rows, so a row beyond the page means more remain,
 * and the header carries the cursor of the page's last row.
 */
export function pageWithCursor<T>(c: Context, rows: T[], limit: number, cursorOf: (last: T) => string): T[] {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  if (rows.length > limit && last !== undefined) c.header('X-Next-Cursor', cursorOf(last));
  return page;
}
