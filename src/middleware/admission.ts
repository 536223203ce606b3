import { eq, getTableColumns, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import type { Db } from '../db/client';
import { fastSelect, preparedSelect } from '../db/fast-select';
import { users, type AuthUser } from '../db/schema';
import type { AppEnv } from '../env';
import { ApiError } from '../lib/errors';
import type { PendingAuth, UserCheck } from '../lib/tokens';

const { senhaHash: _omit, ...userColumns } = getTableColumns(users);

// Every authenticated request reads this row: its SQL is built once (see db/fast-select.ts).
const userById = preparedSelect((db: Db) =>
  db
    .select(userColumns)
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .limit(1),
);

/** The stored user row of a token's subject, as a batchable select. */
export const selectUser = (db: Db, id: string) => userById(db, undefined, { id });

export async function loadUser(db: Db, id: string): Promise<AuthUser | undefined> {
  const [[user]] = await fastSelect(db, [selectUser(db, id)]);
  return user;
}

/**
 * The stored user decides (docs/decisions.md#d3): gone is 401, pending is 403 unless the route
 * allows it (docs/decisions.md#d4), then the route's role rules. Sets c.var.user.
 */
export function admit(c: Context<AppEnv>, user: AuthUser | undefined, allowPending: boolean, checks: UserCheck[] = []) {
  if (!user) throw new ApiError('UNAUTHENTICATED', 'invalid or expired access token');
  if (!user.ativo && !allowPending)
    throw new ApiError('ACCOUNT_PENDING', 'account pending approval by an administrator');
  for (const check of checks) check(user);
  c.set('user', user);
  c.set('pendingAuth', undefined);
  return user;
}

/** Reads the user row now (one query) and admits it: the way out of a fold that cannot fold. */
export async function confirm(c: Context<AppEnv>, pending: PendingAuth): Promise<AuthUser> {
  return admit(c, await loadUser(c.var.db, pending.claims.sub), pending.allowPending, pending.checks);
}
