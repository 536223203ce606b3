import { createMiddleware } from 'hono/factory';
import type { Context } from 'hono';
import type { AppEnv } from '../env';
import { inBackground } from '../lib/background';
import { sha256Hex } from '../lib/tokens';
import { carriesCredential } from './auth';

/**
 * Edge caching of a public GET (docs/architecture.md "An edge-cached public GET"):
 *
 * - Every 200 answer gets a strong `ETag` (SHA-256 of the body); a request whose `If-None-Match`
 *   holds it is answered 304 with no body.
 * - The 200 answer is kept in the colo's Cache API (`caches.default`) for `ttl` seconds under the
 *   request's ENTRY (`entry(c)`): a name out of a small set the route can list, so that a write can
 *   drop every entry it makes stale (`forgetCached`) instead of guessing URLs. A request whose entry
 *   is undefined (a paged list, a malformed token) is answered by the handler and never stored. A
 *   hit answers without running the handler or touching D1. Only 200 answers are kept.
 * - A request that carries a credential (Authorization or the session cookie: `carriesCredential`)
 *   never meets the shared cache, neither read nor written: its caller may have just written and
 *   must read that back, and nothing it sent may shape what strangers get. It gets its answer from
 *   the handler with `private, no-cache`.
 * - Staleness: the colo that runs a write drops its entries at once (`forgetCached`, before the
 *   write answers); the Cache API has no global purge, so another colo that held an answer may
 *   serve it for up to `ttl` seconds, and an anonymous GET that read D1 before the write may store
 *   its answer again for at most `ttl`. Clients get `Cache-Control: no-cache` (`private, no-cache`
 *   with `private: true`), so they revalidate every time (cheap: 304) and add no TTL of their own.
 *   (A version bumped by every write would need a read per request, the round trip this saves.)
 *
 * Use it only on public answers that are the same for everyone with the same entry. Runs after the
 * route's region middleware (publicRoute puts it there), so `entry` may read the region.
 */
export interface CacheOptions {
  /** Seconds an answer may be served from the edge cache (capped by the var EDGE_CACHE_TTL_SECONDS; 0 there: off). */
  ttl: number;
  /**
   * The cache entry this request may be answered from and stored under, or undefined (not cached).
   * Everything the answer depends on (path, query, region) must be in it, and the set of entries a
   * write can make stale must be one the writer can list.
   */
  entry: (c: Context<AppEnv>) => string | undefined;
  /** The answer is one person's (a feed): clients get `private, no-cache`, so no shared cache stores it. */
  private?: boolean;
}

/** Answer headers that belong to one request, never to a cached copy. */
const PER_REQUEST = ['x-request-id', 'x-d1-bookmark', 'set-cookie'];
const CACHE_ORIGIN = 'https://edge-cache.internal';

const matches = (ifNoneMatch: string | undefined, etag: string) =>
  !!ifNoneMatch && (ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((t) => t.trim() === etag));

/** The Cache API key of an entry. */
const cacheKeyOf = (entry: string) => new Request(`${CACHE_ORIGIN}/${encodeURIComponent(entry)}`);

/** The colo's cache, unless the TTL (already capped by EDGE_CACHE_TTL_SECONDS) turns it off. */
const edgeCache = (ttl: number) => (ttl === 0 || typeof caches === 'undefined' ? undefined : caches.default);

/**
 * Drops this colo's cached answers of these entries (e.g. every variant of a region's list after a
 * write to it, or a rotated token's feed): done before the write answers, so this colo serves the
 * change at once. Other colos keep theirs until the TTL ends. Never fails.
 */
export async function forgetCached(c: Context<AppEnv>, entries: readonly string[]) {
  const cache = edgeCache(c.get('config').EDGE_CACHE_TTL_SECONDS);
  if (cache) await Promise.all(entries.map((e) => cache.delete(cacheKeyOf(e)).catch(() => false)));
}

export const cachedPublicGet = (opts: CacheOptions) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const credentialed = carriesCredential(c);
    const entry = credentialed ? undefined : opts.entry(c);
    const ttl = Math.min(opts.ttl, c.get('config').EDGE_CACHE_TTL_SECONDS);
    const cache = entry === undefined ? undefined : edgeCache(ttl);
    const cacheKey = entry === undefined ? undefined : cacheKeyOf(entry);
    let stored = cache && cacheKey ? await cache.match(cacheKey) : undefined;
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
      if (cache && cacheKey) inBackground(c)(cache.put(cacheKey, stored.clone()).catch(() => {}));
    }
    const etag = stored.headers.get('etag')!;
    const notModified = matches(c.req.header('if-none-match'), etag);
    // Hono merges the headers already set on this request (CORS, request id) into the new answer.
    c.res = notModified ? new Response(null, { status: 304 }) : new Response(stored.body, stored);
    c.res.headers.set('etag', etag);
    c.res.headers.set('cache-control', opts.private || credentialed ? 'private, no-cache' : 'no-cache');
    if (notModified) for (const h of ['content-type', 'content-length', 'x-total-count']) c.res.headers.delete(h);
    else if (stored.headers.has('x-total-count'))
      c.res.headers.set('x-total-count', stored.headers.get('x-total-count')!);
  });
