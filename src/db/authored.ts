import { and, eq, exists, isNull, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Placeholders, Results, Statements, Values } from './cached-batch';
import type { Db } from './client';
import { refreshTokens, users } from './schema';
import { SCOPE_PARAMS, scopeOf, scopeShape, scopeValues, type Scope, type ScopeShape, type SqlScope } from './scope';

/**
 * Who writes, as a folded write's statements see it (middleware/folded.ts, authorizedWrite): the
 * scope the statements are built for, a SQL condition that holds exactly when the stored user is
 * that scope, approved and with a live session, and who acts for the activity log (the fields of
 * services' LogCtx). Every statement of a folded write puts `guard` in its WHERE (an
 * `insertWhere(..., and(author.guard, ...))`, an `UPDATE ... WHERE guard AND ...`, a log entry's
 * `when`), so a refused author writes nothing and the write costs no round trip before it.
 * Outside a fold (the user was already read) `guard` is `1`.
 */
export interface Author {
  scope: Scope;
  guard: SQL;
  log: { atorId: string | null; atorRole: string | null; requestId: string | null };
  /**
   * The same check in a cached batch (db/cached-batch.ts): which check its shape carries, and the
   * values of its placeholders (AUTHOR_PARAMS; `guardOf(db, shape, p)` builds it).
   */
  cached: { shape: GuardShape; values: AuthorValues };
}

/**
 * Which author check a cached statement carries: none (the user was read already), or the folded
 * one for the author's scope shape (db/scope.ts: its role, whether a company is set).
 */
export type GuardShape = 'none' | ScopeShape;

/** The placeholders of the author check: the scope's (db/scope.ts) and the session's. */
export const AUTHOR_PARAMS = [...SCOPE_PARAMS, 'author_sid'] as const;
export type AuthorParam = (typeof AUTHOR_PARAMS)[number];
export type AuthorValues = Values<AuthorParam>;

/**
 * Runs a write built for its author in one atomic batch, the author's check included. `prove`, when
 * given, tells from the results that a guarded statement wrote (so the author check held, and the
 * user row need not be read: middleware/folded.ts authorizedWrite); the write must then write
 * nothing at all when it does not hold.
 */
export type AuthoredWrite = <B extends Statements>(
  build: (author: Author) => B,
  prove?: (results: Results<B>) => boolean,
) => Promise<Results<B>>;

/** The session `sid` of the user is live (same rule as the authentication query, middleware/admission.ts). */
export const liveSession = (sid: string | SQL | Placeholder) =>
  sql`exists (select 1 from ${refreshTokens} where ${refreshTokens.familyId} = ${sid} and ${refreshTokens.userId} = ${users.id} and ${refreshTokens.revokedAt} is null)`;

/**
 * `exists (the approved user with this id, role and company, session live)`: uses the users primary
 * key and refresh_tokens_family_idx, so it reads two or three rows whatever the data. Values, or
 * the placeholders of a cached statement (guardOf).
 */
export function authorGuard(db: Db, who: SqlScope, sid: string | Placeholder): SQL {
  return exists(
    db
      .select({ one: sql`1` })
      .from(users)
      .where(
        and(
          eq(users.id, who.id),
          eq(users.role, who.role),
          who.empresaId === null ? isNull(users.empresaId) : eq(users.empresaId, who.empresaId),
          eq(users.ativo, true),
          liveSession(sid),
        ),
      ),
  );
}

/** The author check of `shape` in a cached batch, from its placeholders (`author.cached.values`). */
export const guardOf = (db: Db, shape: GuardShape, p: Placeholders<AuthorParam>): SQL =>
  shape === 'none' ? sql`1` : authorGuard(db, scopeOf(shape, p), p.author_sid);

/** The cached check for the author `scope`: folded with session `sid`, or none (`sid` null: the user was read). */
export const cachedAuthor = (scope: Scope, sid: string | null): Author['cached'] => ({
  shape: sid === null ? 'none' : scopeShape(scope),
  values: { ...scopeValues(scope), author_sid: sid },
});
