import { and, eq, getTableColumns } from 'drizzle-orm';
import type { Context } from 'hono';
import type { Db } from '../db/client';
import { liveSession } from '../db/authored';
import { cachedSelect } from '../db/cached-batch';
import { fastSelect } from '../db/fast-select';
import { users, type AuthUser } from '../db/schema';
import type { AppEnv } from '../env';
import { ApiError } from '../lib/errors';
import type { AccessClaims, PendingAuth, UserCheck } from '../lib/tokens';

const { senhaHash: _omit, ...userColumns } = getTableColumns(users);

/**
 * The user row by id while session `sid` is live: its refresh-token family still has an unrevoked
 * token (security review 3), so an ended session (logout, password change, theft detection) is no
 * row and 401, at no extra round trip (refresh_tokens_family_idx). Every authenticated request
 * reads it, so its SQL is built once (db/cached-batch.ts).
 */
const userById = cachedSelect({
  params: ['id', 'sid'],
  build: (db, _: undefined, p) =>
    db
      .select(userColumns)
      .from(users)
      .where(and(eq(users.id, p.id), liveSession(p.sid)))
      .limit(1),
});

/** The stored user row of a token's subject, if the token's session is live: for a read's or a write's batch. */
export const selectUser = (db: Db, claims: AccessClaims) =>
  userById(db, undefined, { id: claims.sub, sid: claims.sid });

export async function loadUser(db: Db, claims: AccessClaims): Promise<AuthUser | undefined> {
  const [[user]] = await fastSelect(db, [selectUser(db, claims)]);
  return user;
}

/**
 * The stored user decides (docs/decisions.md#d3): gone is 401, pending is 403 unless the route
 * allows it (docs/decisions.md#d4), then the route's role rules. Sets c.get('user').
 */
export function admit(c: Context<AppEnv>, user: AuthUser | undefined, allowPending: boolean, checks: UserCheck[] = []) {
  // The stored user has been read: whatever it decides (pass or the error below) is final, so a
  // folded route's auth() does not read it again after the answer.
  c.set('pendingAuth', undefined);
  if (!user) throw new ApiError('UNAUTHENTICATED', 'token de acesso inválido ou expirado');
  if (!user.ativo && !allowPending)
    throw new ApiError('ACCOUNT_PENDING', 'conta aguardando aprovação de um administrador');
  for (const check of checks) check(user);
  c.set('user', user);
  return user;
}

/** Reads the user row now (one query) and admits it: the way out of a fold that cannot fold. */
export async function confirm(c: Context<AppEnv>, pending: PendingAuth): Promise<AuthUser> {
  return admit(c, await loadUser(c.get('db'), pending.claims), pending.allowPending, pending.checks);
}
