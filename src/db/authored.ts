import { and, eq, exists, isNull, sql, type SQL } from 'drizzle-orm';
import type { BatchItem, BatchResponse } from 'drizzle-orm/batch';
import type { Db } from './client';
import { refreshTokens, users } from './schema';
import type { Scope } from './scope';

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
}

/** Runs a write built for its author in one atomic batch, the author's check included. */
export type AuthoredWrite = <const T extends readonly [Stmt, ...Stmt[]]>(
  build: (author: Author) => T,
) => Promise<BatchResponse<[...T]>>;

/** The session `sid` of the user is live (same rule as the authentication query, middleware/admission.ts). */
export const liveSession = (sid: string | SQL) =>
  sql`exists (select 1 from ${refreshTokens} where ${refreshTokens.familyId} = ${sid} and ${refreshTokens.userId} = ${users.id} and ${refreshTokens.revokedAt} is null)`;

/**
 * `exists (the approved user with this id, role and company, session live)`: uses the users primary
 * key and refresh_tokens_family_idx, so it reads two or three rows whatever the data.
 */
export function authorGuard(db: Db, scope: Scope, sid: string): SQL {
  return exists(
    db
      .select({ one: sql`1` })
      .from(users)
      .where(
        and(
          eq(users.id, scope.id),
          eq(users.role, scope.role),
          scope.empresaId === null ? isNull(users.empresaId) : eq(users.empresaId, scope.empresaId),
          eq(users.ativo, true),
          liveSession(sid),
        ),
      ),
  );
}
