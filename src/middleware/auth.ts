import { getCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import { eq, getTableColumns } from 'drizzle-orm';
import type { Context } from 'hono';
import { users, type UserRow } from '../db/schema';
import type { AppEnv } from '../env';
import { ApiError } from '../lib/errors';
import { verifyAccessToken } from '../lib/tokens';
import { accountQuery } from '../services/users';
import { assertCookieRequestOrigin } from './csrf';

export type AuthUser = Omit<UserRow, 'senhaHash'>;

const { senhaHash: _omit, ...userColumns } = getTableColumns(users);

/** Bearer header, bare header, then the access_token cookie: the header wins when present. */
function readToken(c: Context<AppEnv>): { token?: string; fromCookie: boolean } {
  const header = c.req.header('authorization')?.trim();
  if (header) {
    const m = /^Bearer\s+(.+)$/i.exec(header);
    return { token: (m ? m[1] : header)?.trim(), fromCookie: false };
  }
  return { token: getCookie(c, 'access_token'), fromCookie: true };
}

/**
 * Authenticates and loads the user on every request (one indexed query), so a deleted user's
 * token stops working and a role change applies at once. Pending users get through only where a
 * route says so (decisions D4).
 */
export const auth = (opts: { allowPending?: boolean; withAccount?: boolean } = {}) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const { token, fromCookie } = readToken(c);
    if (!token) throw new ApiError('UNAUTHENTICATED', 'authentication required: send Authorization: Bearer <access_token>');
    const claims = await verifyAccessToken(token, c.var.config.JWT_SECRET);
    if (!claims) throw new ApiError('UNAUTHENTICATED', 'invalid or expired access token');
    if (fromCookie) assertCookieRequestOrigin(c);
    // withAccount: the same single query also brings the company and the linked profile (GET /api/me).
    let user: AuthUser | undefined;
    if (opts.withAccount) {
      const [account] = await accountQuery(c.var.db, eq(users.id, claims.sub));
      if (account) {
        const { senhaHash: _h, ...rest } = account.user;
        user = rest;
        c.set('account', account);
      }
    } else {
      [user] = await c.var.db.select(userColumns).from(users).where(eq(users.id, claims.sub)).limit(1);
    }
    if (!user) throw new ApiError('UNAUTHENTICATED', 'invalid or expired access token');
    if (!user.ativo && !opts.allowPending) {
      throw new ApiError('ACCOUNT_PENDING', 'account pending approval by an administrator');
    }
    c.set('user', user);
    await next();
  });
