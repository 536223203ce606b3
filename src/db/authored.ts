import { and, eq, exists, isNull, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { BatchItem, BatchResponse } from 'drizzle-orm/batch';
import type { Db } from './client';
import { refreshTokens, users } from './schema';
import { placeholderScope, scopeShape, scopeValues, type Scope, type ScopeShape, type SqlScope } from './scope';

type Stmt = BatchItem<'sqlite'>;

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
   * The same check for a statement built once per shape (db/prepared-statement.ts): its SQL is
   * `guardTemplate(db, shape)`, its values `binds`.
   */
  template: { shape: GuardShape; binds: Record<string, unknown> };
}

/**
 * Which author check a cached statement carries: none (the user was read already), or the folded
 * one for the author's scope shape (db/scope.ts: its role, whether a company is set).
 */
export type GuardShape = 'none' | ScopeShape;

/**
 * Runs a write built for its author in one atomic batch, the author's check included. `prove`, when
 * given, tells from the results that a guarded statement wrote (so the author check held, and the
 * user row need not be read: middleware/folded.ts authorizedWrite); the write must then write
 * nothing at all when it does not hold.
 */
export type AuthoredWrite = <const T extends readonly [Stmt, ...Stmt[]]>(
  build: (author: Author) => T,
  prove?: (results: BatchResponse<[...T]>) => boolean,
) => Promise<BatchResponse<[...T]>>;

/** The session `sid` of the user is live (same rule as the authentication query, middleware/admission.ts). */
export const liveSession = (sid: string | SQL | Placeholder) =>
  sql`exists (select 1 from ${refreshTokens} where ${refreshTokens.familyId} = ${sid} and ${refreshTokens.userId} = ${users.id} and ${refreshTokens.revokedAt} is null)`;

/**
 * `exists (the approved user with this id, role and company, session live)`: uses the users primary
 * key and refresh_tokens_family_idx, so it reads two or three rows whatever the data. Values, or
 * the placeholders of a cached statement (guardTemplate).
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

/** The check of `shape` with placeholders for the author's values (`template.binds`: scope.ts's and `author_sid`). */
export const guardTemplate = (db: Db, shape: GuardShape): SQL =>
  shape === 'none' ? sql`1` : authorGuard(db, placeholderScope(shape), sql.placeholder('author_sid'));

/** The values of `guardTemplate` for the folded author `scope` with session `sid`. */
export const guardBinds = (scope: Scope, sid: string): Author['template'] => ({
  shape: scopeShape(scope),
  binds: { ...scopeValues(scope), author_sid: sid },
});
