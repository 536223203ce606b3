import { createMiddleware } from 'hono/factory';
import type { Context } from 'hono';
import type { AppEnv } from '../env';
import { inBackground } from '../lib/background';
import { sha256Hex } from '../lib/tokens';

/**
 * Edge caching of a public GET (README "Performance", docs/architecture.md "Adding things"):
 *
 * - Every 200 answer gets a strong `ETag` (SHA-256 of the body); a request whose `If-None-Match`
 *   holds it is answered 304 with no body.
 * - The 200 answer is kept in the colo's Cache API (`caches.default`) for `ttl` seconds, keyed by
 *   the URL (path and query) plus `key(c)` (what else the answer depends on: the region, a feed's
 *   token hash). A hit answers without running the handler or touching D1.
 * - Staleness is bounded by the TTL alone: a change (a write to the list, a rotated token) is
 *   served stale for at most `ttl` seconds by this colo, never longer. Clients get
 *   `Cache-Control: no-cache`, so they revalidate every time (cheap: 304) and add no TTL of their own.
 *   (A version bumped by every write would need a read per request, the round trip this saves.)
 *
 * Use it only on public answers that are the same for everyone with the same URL and key: no
 * cookie, no Authorization. Runs after the route's region middleware (publicRoute puts it there).
 */
export interface CacheOptions {
  /** Seconds an answer may be served from the edge cache (capped by the var EDGE_CACHE_TTL_SECONDS; 0 there: off). */
  ttl: number;
  /** What besides the URL the answer depends on (e.g. the region). */
  key?: (c: Context<AppEnv>) => string;
}

/** Answer headers that belong to one request, never to a cached copy. */
const PER_REQUEST = ['x-request-id', 'x-d1-bookmark', 'set-cookie'];
const CACHE_ORIGIN = 'https://edge-cache.internal';

const matches = (ifNoneMatch: string | undefined, etag: string) =>
  !!ifNoneMatch && (ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((t) => t.trim() === etag));

export const cachedPublicGet = (opts: CacheOptions) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const url = new URL(c.req.url);
    const extra = opts.key ? `|${opts.key(c)}` : '';
    const cacheKey = new Request(
      `${CACHE_ORIGIN}${url.pathname}?${new URLSearchParams([...url.searchParams].sort()).toString()}&__k=${encodeURIComponent(extra)}`,
    );
    const ttl = Math.min(opts.ttl, c.var.config.EDGE_CACHE_TTL_SECONDS);
    const cache = ttl === 0 || typeof caches === 'undefined' ? undefined : caches.default;
    let stored = await cache?.match(cacheKey);
    if (!stored) {
      await next();
      if (c.res.status !== 200) return;
      const body = await c.res.clone().arrayBuffer();
      const etag = `"${(await sha256Hex(new TextDecoder().decode(body))).slice(0, 32)}"`;
      const headers = new Headers(c.res.headers);
      for (const h of PER_REQUEST) headers.delete(h);
      headers.set('etag', etag);
      headers.set('cache-control', `public, max-age=${ttl}`);
      stored = new Response(body, { status: 200, headers });
      if (cache) inBackground(c)(cache.put(cacheKey, stored.clone()).catch(() => {}));
    }
    const etag = stored.headers.get('etag')!;
    const notModified = matches(c.req.header('if-none-match'), etag);
    // Hono merges the headers already set on this request (CORS, request id) into the new answer.
    c.res = notModified ? new Response(null, { status: 304 }) : new Response(stored.body, stored);
    c.res.headers.set('etag', etag);
    c.res.headers.set('cache-control', 'no-cache');
    if (notModified) for (const h of ['content-type', 'content-length', 'x-total-count']) c.res.headers.delete(h);
    else if (stored.headers.has('x-total-count'))
      c.res.headers.set('x-total-count', stored.headers.get('x-total-count')!);
  });
