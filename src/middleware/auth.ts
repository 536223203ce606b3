import { getCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import { eq, getTableColumns, sql, type Placeholder } from 'drizzle-orm';
import type { Context } from 'hono';
import { fastSelect, preparedSelect, type Item, type SelectRows } from '../db/fast-select';
import { users, type Role, type UserRow } from '../db/schema';
import type { AppEnv, Db } from '../env';
import { ApiError } from '../lib/errors';
import { verifyAccessToken, type AccessClaims, type TokenSubject } from '../lib/tokens';
import { accountQuery } from '../services/users';
import { assertCookieRequestOrigin } from './csrf';

export type AuthUser = Omit<UserRow, 'senhaHash'>;

/** The user fields a folded query may depend on: all of them travel in the access token. */
export type Scope = TokenSubject;

/** A scope as SQL sees it: real values, or the placeholders of a prepared select (see scopeShape). */
export interface SqlScope {
  id: string | Placeholder;
  role: Role;
  empresaId: string | Placeholder | null;
}

/**
 * What of a scope decides a prepared select's SQL (the role, whether a company is set); its values
 * bind as `uid` and `empresa` (scopeValues). placeholderScope(shape) is what the builder sees.
 */
export const scopeShape = (s: Scope) => ({ role: s.role, empresa: s.empresaId !== null });
export type ScopeShape = ReturnType<typeof scopeShape>;
export const scopeValues = (s: Scope) => ({ uid: s.id, empresa: s.empresaId });
export const placeholderScope = (shape: ScopeShape): SqlScope => ({
  id: sql.placeholder('uid'),
  role: shape.role,
  empresaId: shape.empresa ? sql.placeholder('empresa') : null,
});

/** A role rule of a route (requireRole, allowAgenda): throws when the caller may not pass. */
export type UserCheck = (user: Pick<AuthUser, 'role' | 'ativo'>) => void;

/** auth({ fold: true }) before the user row is read: the token's claims and the checks still owed. */
export interface PendingAuth {
  claims: AccessClaims;
  allowPending: boolean;
  checks: UserCheck[];
}

const { senhaHash: _omit, ...userColumns } = getTableColumns(users);
// Every authenticated request reads this row: its SQL is built once (see preparedSelect).
const userById = preparedSelect((db: Db) =>
  db
    .select(userColumns)
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .limit(1),
);
const selectUser = (db: Db, id: string) => userById(db, undefined, { id });
const accountById = preparedSelect((db: Db) => accountQuery(db, eq(users.id, sql.placeholder('id'))));
async function loadUser(db: Db, id: string): Promise<AuthUser | undefined> {
  const [[user]] = await fastSelect(db, [selectUser(db, id)]);
  return user;
}

/** Bearer header, bare header, then the access_token cookie: the header wins when present. */
function readToken(c: Context<AppEnv>): { token?: string; fromCookie: boolean } {
  const header = c.req.header('authorization')?.trim();
  if (header) {
    const m = /^Bearer\s+(.+)$/i.exec(header);
    return { token: (m ? m[1] : header)?.trim(), fromCookie: false };
  }
  return { token: getCookie(c, 'access_token'), fromCookie: true };
}

/** The stored user decides (decisions D3): gone is 401, pending is 403 unless allowed, then the route's checks. */
function admit(
  c: Context<AppEnv>,
  user: AuthUser | undefined,
  allowPending: boolean,
  checks: UserCheck[] = [],
): AuthUser {
  if (!user) throw new ApiError('UNAUTHENTICATED', 'invalid or expired access token');
  if (!user.ativo && !allowPending)
    throw new ApiError('ACCOUNT_PENDING', 'account pending approval by an administrator');
  for (const check of checks) check(user);
  c.set('user', user);
  c.set('pendingAuth', undefined);
  return user;
}

const subjectOf = (claims: AccessClaims): Scope => ({
  id: claims.sub,
  role: claims.role,
  empresaId: claims.empresa_id ?? null,
});

/** Reads the user row now (one query) and admits it: the way out of a fold that cannot fold. */
async function confirm(c: Context<AppEnv>, pending: PendingAuth): Promise<AuthUser> {
  return admit(c, await loadUser(c.var.db, pending.claims.sub), pending.allowPending, pending.checks);
}

/**
 * Authenticates and loads the user on every request, so a deleted user's token stops working and
 * a role change applies at once (decisions D3). Pending users get through only where a route says
 * so (decisions D4).
 *
 * - withAccount: the same single query also brings the company and the linked profile (GET /api/me).
 * - fold (reads only): the user row is not read here but in the handler's own batch, through
 *   `authorizedBatch()`, which saves a D1 round trip. Nothing is answered before that row is
 *   admitted: a handler that answers 2xx without it is a bug and becomes a 500, and any error it
 *   answers first (validation, region) is replaced by the authentication error the user row gives.
 *   Other methods ignore `fold`: a write must never run before its author is checked.
 */
export const auth = (opts: { allowPending?: boolean; withAccount?: boolean; fold?: boolean } = {}) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const { token, fromCookie } = readToken(c);
    if (!token)
      throw new ApiError('UNAUTHENTICATED', 'authentication required: send Authorization: Bearer <access_token>');
    const claims = await verifyAccessToken(token, c.var.config.JWT_SECRET);
    if (!claims) throw new ApiError('UNAUTHENTICATED', 'invalid or expired access token');
    if (fromCookie) assertCookieRequestOrigin(c);
    const allowPending = opts.allowPending ?? false;

    if (opts.fold && (c.req.method === 'GET' || c.req.method === 'HEAD')) {
      const pending: PendingAuth = { claims, allowPending, checks: [] };
      c.set('pendingAuth', pending);
      await next();
      if (!c.var.pendingAuth) return;
      await confirm(c, pending); // throws the authentication error, which replaces the answer
      if (c.res.status < 400) throw new Error(`${c.req.method} ${c.req.path} answered without authorizedBatch()`);
      return;
    }

    if (opts.withAccount) {
      const [[account]] = await fastSelect(c.var.db, [accountById(c.var.db, undefined, { id: claims.sub })]);
      if (account) c.set('account', account);
      const { senhaHash: _h, ...user } = account?.user ?? {};
      admit(c, account ? (user as AuthUser) : undefined, allowPending);
    } else {
      admit(c, await loadUser(c.var.db, claims.sub), allowPending);
    }
    await next();
  });

/**
 * Applies a route's role rule to the caller. Folded, the rule runs now on the token's role and
 * again on the stored user once it is read; when the token's role fails it, the stored user is
 * read at once and decides, exactly as without the fold.
 */
export async function checkUser(c: Context<AppEnv>, check: UserCheck): Promise<void> {
  const pending = c.var.pendingAuth;
  if (!pending) return check(c.var.user);
  pending.checks.push(check);
  try {
    check({ role: pending.claims.role, ativo: true });
  } catch {
    await confirm(c, pending);
  }
}

/**
 * The handler's selects, built for the caller's scope, in one D1 batch (see fastSelect). Folded,
 * the user row is the batch's first statement and the scope is the token's: the rows are returned
 * only when that user is admitted and still has the token's role and company; when not (the token
 * predates a change), the selects run again for the stored user.
 */
export async function authorizedBatch<T extends readonly [Item, ...Item[]]>(
  c: Context<AppEnv>,
  build: (scope: Scope) => T,
): Promise<SelectRows<T>> {
  const { db } = c.var;
  const pending = c.var.pendingAuth;
  if (!pending) return fastSelect(db, build(c.var.user));
  const guess = subjectOf(pending.claims);
  const [[user], ...rows] = await fastSelect(db, [selectUser(db, guess.id), ...build(guess)]);
  const admitted = admit(c, user, pending.allowPending, pending.checks);
  if (admitted.role === guess.role && admitted.empresaId === guess.empresaId) return rows as SelectRows<T>;
  return fastSelect(db, build(admitted));
}
