import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env';

/**
 * An empty body is no body. `POST /auth/logout` with `Content-Type: application/json` and nothing
 * after it (what many HTTP clients send for a call without arguments) would otherwise be parsed as
 * JSON and refused with 400 INVALID_JSON, although the body of that route is optional. Such a
 * request continues without its Content-Type: an optional body is then absent, and a required one
 * is still refused (400 VALIDATION_FAILED naming its first missing field). Only bodies that declare
 * no length, or a length of 0, are read here; any other body is left to the route.
 */
export const emptyBodyIsNoBody: MiddlewareHandler<AppEnv> = async (c, next) => {
  const length = c.req.header('content-length');
  if (c.req.header('content-type') && (length === undefined || length === '0')) {
    // Decoded as .text() would (a lone BOM is empty too), but without workerd's warning about reading
    // a body whose Content-Type is not text, logged for every such request.
    const empty = c.req.raw.body === null || new TextDecoder().decode(await c.req.raw.clone().arrayBuffer()) === '';
    if (empty) {
      const headers = new Headers(c.req.raw.headers);
      headers.delete('content-type');
      headers.delete('content-length');
      c.req.raw = new Request(c.req.raw.url, { method: c.req.method, headers });
    }
  }
  await next();
};
