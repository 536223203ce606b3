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
 *   the URL (path and query) plus `key(c)` (what else the answer depends on: the region). A path
 *   that carries a credential (a calendar feed's token) is its own key: another token, or the new
 *   token of a rotated feed, never meets this one's entry. A hit answers without running the handler
 *   or touching D1. Only 200 answers are kept (never a 4xx/5xx).
 * - Staleness is bounded by the TTL alone: a change (a write to the list, a rotated or disabled
 *   token) is served stale for at most `ttl` seconds by a colo that already held the answer, never
 *   longer. `forgetCached()` drops an entry at once, but only in the colo that runs it (the Cache
 *   API has no global purge), so it shortens the window there and bounds nothing elsewhere.
 *   Clients get `Cache-Control: no-cache` (`private, no-cache` with `private: true`), so they
 *   revalidate every time (cheap: 304) and add no TTL of their own. (A version bumped by every
 *   write would need a read per request, the round trip this saves.)
 *
 * Use it only on public answers that are the same for everyone with the same URL and key: no
 * cookie, no Authorization. Runs after the route's region middleware (publicRoute puts it there).
 */
export interface CacheOptions {
  /** Seconds an answer may be served from the edge cache (capped by the var EDGE_CACHE_TTL_SECONDS; 0 there: off). */
  ttl: number;
  /** What besides the URL the answer depends on (e.g. the region). */
  key?: (c: Context<AppEnv>) => string;
  /** The answer is one person's (a feed): clients get `private, no-cache`, so no shared cache stores it. */
  private?: boolean;
}

/** Answer headers that belong to one request, never to a cached copy. */
const PER_REQUEST = ['x-request-id', 'x-d1-bookmark', 'set-cookie'];
const CACHE_ORIGIN = 'https://edge-cache.internal';

const matches = (ifNoneMatch: string | undefined, etag: string) =>
  !!ifNoneMatch && (ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((t) => t.trim() === etag));

/** The Cache API key of a request: path, sorted query and what `key(c)` adds. */
const cacheKeyOf = (url: URL, extra: string) =>
  new Request(
    `${CACHE_ORIGIN}${url.pathname}?${new URLSearchParams([...url.searchParams].sort()).toString()}&__k=${encodeURIComponent(extra)}`,
  );

/** The colo's cache, unless the TTL (already capped by EDGE_CACHE_TTL_SECONDS) turns it off. */
const edgeCache = (ttl: number) => (ttl === 0 || typeof caches === 'undefined' ? undefined : caches.default);

/**
 * Drops this colo's cached answer of a GET of `path` (no query, no `key`), e.g. the feed url of a
 * rotated token: done before the answer, so this colo refuses the old url at once. Other colos keep
 * theirs until the TTL ends (a GET in flight may also store its answer again, for at most the TTL).
 * Never fails.
 */
export async function forgetCached(c: Context<AppEnv>, path: string) {
  await edgeCache(c.get('config').EDGE_CACHE_TTL_SECONDS)
    ?.delete(cacheKeyOf(new URL(path, CACHE_ORIGIN), ''))
    .catch(() => false);
}

export const cachedPublicGet = (opts: CacheOptions) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const extra = opts.key ? `|${opts.key(c)}` : '';
    const cacheKey = cacheKeyOf(new URL(c.req.url), extra);
    const ttl = Math.min(opts.ttl, c.get('config').EDGE_CACHE_TTL_SECONDS);
    const cache = edgeCache(ttl);
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
    c.res.headers.set('cache-control', opts.private ? 'private, no-cache' : 'no-cache');
    if (notModified) for (const h of ['content-type', 'content-length', 'x-total-count']) c.res.headers.delete(h);
    else if (stored.headers.has('x-total-count'))
      c.res.headers.set('x-total-count', stored.headers.get('x-total-count')!);
  });
