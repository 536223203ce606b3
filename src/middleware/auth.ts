import { getCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import type { Context } from 'hono';
import type { AppEnv } from '../env';
import { ApiError } from '../lib/errors';
import { verifyAccessToken, type PendingAuth } from '../lib/tokens';
import { admit, confirm, loadUser } from './admission';
import { assertCookieRequestOrigin } from './csrf';

/** The session cookie that carries the access token (set by /auth/login, /auth/refresh, /auth/register). */
export const ACCESS_COOKIE = 'access_token';

/** Bearer header, bare header, then the access_token cookie: the header wins when present. */
function readToken(c: Context<AppEnv>): { token?: string; fromCookie: boolean } {
  const header = c.req.header('authorization')?.trim();
  if (header) {
    const m = /^Bearer\s+(.+)$/i.exec(header);
    return { token: (m ? m[1] : header)?.trim(), fromCookie: false };
  }
  return { token: getCookie(c, ACCESS_COOKIE), fromCookie: true };
}

/**
 * Whether the request carries a credential (what auth() would read: the Authorization header or the
 * session cookie), valid or not. A public route's shared edge cache never answers such a request
 * nor stores its answer (middleware/cached.ts).
 */
export const carriesCredential = (c: Context<AppEnv>) => !!readToken(c).token;

export interface AuthOptions {
  /** A pending account may pass (its own /api/me and profile: docs/decisions.md#d4). */
  allowPending?: boolean;
  /**
   * Folded: the user row is read in the handler's own batch (middleware/folded.ts: a read's
   * authorizedBatch, a write's authorizedWrite, whose statements are guarded by the author check)
   * instead of here, saving a D1 round trip. Declared by authedRoute({ fold: true }), never by hand.
   */
  fold?: boolean;
}

/**
 * Authenticates and loads the user on every request, so a deleted user's token stops working and
 * a role change applies at once (docs/decisions.md#d3).
 *
 * Folded, nothing is answered before the user row is admitted: a handler that answers 2xx without
 * reading it is a bug and becomes a 500, and any error it answers first (validation, region) is
 * replaced by the authentication error the user row gives. A folded write never runs unchecked:
 * each of its statements carries the author check in its WHERE (db/authored.ts).
 */
export const auth = (opts: AuthOptions = {}) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const { token, fromCookie } = readToken(c);
    if (!token)
      throw new ApiError('UNAUTHENTICATED', 'autenticação necessária: envie Authorization: Bearer <access_token>');
    const claims = await verifyAccessToken(token, c.get('config').JWT_SECRET);
    if (!claims) throw new ApiError('UNAUTHENTICATED', 'token de acesso inválido ou expirado');
    if (fromCookie) assertCookieRequestOrigin(c);
    const allowPending = opts.allowPending ?? false;

    if (opts.fold) {
      const pending: PendingAuth = { claims, allowPending, checks: [] };
      c.set('pendingAuth', pending);
      await next();
      if (!c.get('pendingAuth')) return;
      await confirm(c, pending); // throws the authentication error, which replaces the answer
      if (c.res.status < 400) throw new Error(`${c.req.method} ${c.req.path} answered without reading its user`);
      return;
    }

    admit(c, await loadUser(c.get('db'), claims), allowPending);
    await next();
  });
