import { sql, type SQL } from 'drizzle-orm';
import type { Context } from 'hono';
import { authorGuard, cachedAuthor, type Author } from '../db/authored';
import { runBatch, runBatchAfter, type Ready, type Results, type Statements } from '../db/cached-batch';
import { fastSelect, type Item, type SelectRows } from '../db/fast-select';
import type { Db } from '../db/client';
import type { Scope } from '../db/scope';
import type { AppEnv } from '../env';
import type { AuthUser } from '../db/schema';
import type { AccessClaims, UserCheck } from '../lib/tokens';
import { admit, confirm, selectUser } from './admission';

/**
 * Folded authentication: a read's user check travels in the read's own D1 batch (one round trip
 * instead of two). See docs/architecture.md, "Folded authentication". Routes declare it with
 * authedRoute({ fold: true }); their handlers receive `read` (routes/route.ts), never call this directly.
 */

/** The stored user has the role and company the statements were built for (the token's). */
const sameScope = (u: AuthUser, s: Scope) => u.role === s.role && u.empresaId === s.empresaId;

const subjectOf = (claims: AccessClaims): Scope => ({
  id: claims.sub,
  role: claims.role,
  empresaId: claims.empresa_id ?? null,
});

/**
 * Applies a route's role rule to the caller. Folded, the rule runs now on the token's role and
 * again on the stored user once it is read; when the token's role fails it, the stored user is
 * read at once and decides, exactly as without the fold.
 */
export async function checkUser(c: Context<AppEnv>, check: UserCheck): Promise<void> {
  const pending = c.get('pendingAuth');
  if (!pending) return check(c.get('user'));
  pending.checks.push(check);
  try {
    check({ role: pending.claims.role, ativo: true });
  } catch {
    await confirm(c, pending);
  }
}

/**
 * The handler's selects, built for the caller's scope, in one D1 batch (see db/fast-select.ts).
 * Folded, the user row is the batch's first statement and the scope is the token's: the rows are
 * returned only when that user is admitted and still has the token's role and company; when not
 * (the token predates a change), the selects run again for the stored user.
 */
export async function authorizedBatch<T extends readonly [Item, ...Item[]]>(
  c: Context<AppEnv>,
  build: (scope: Scope) => T,
): Promise<SelectRows<T>> {
  const db = c.get('db');
  const pending = c.get('pendingAuth');
  if (!pending) return fastSelect(db, build(c.get('user')));
  const guess = subjectOf(pending.claims);
  const [[user], ...rows] = await fastSelect(db, [selectUser(db, pending.claims), ...build(guess)]);
  const admitted = admit(c, user, pending.allowPending, pending.checks);
  if (sameScope(admitted, guess)) return rows as SelectRows<T>;
  return fastSelect(db, build(admitted));
}

/**
 * A folded read whose one select is the caller's own user row with more joined to it (GET /api/me:
 * the account). Folded, `live` reads it only while the token's session is live, and its `user`
 * (password hash dropped) is admitted exactly as the user row would be: one statement instead of
 * two. Not folded (the user was read already), `own` reads it by the admitted user's id.
 */
export async function authorizedSelf<R extends { user: AuthUser & { senhaHash?: string } }>(
  c: Context<AppEnv>,
  live: (db: Db, id: string, sid: string) => Ready<R[]>,
  own: (db: Db, id: string) => Ready<R[]>,
): Promise<R | undefined> {
  const db = c.get('db');
  const pending = c.get('pendingAuth');
  if (!pending) return (await fastSelect(db, [own(db, c.get('user').id)]))[0][0];
  const [[row]] = await fastSelect(db, [live(db, pending.claims.sub, pending.claims.sid)]);
  const user = row ? (({ senhaHash: _hash, ...u }) => u)(row.user) : undefined;
  admit(c, user, pending.allowPending, pending.checks);
  return row;
}

/** c.get('user') after a proven write, whose user row was never read: any use is a bug, and says so. */
const unreadUser = new Proxy({} as AuthUser, {
  get(_, key) {
    throw new Error(`c.get('user').${String(key)} after a proven write: its user row was not read`);
  },
});
const scopeOf = (u: AuthUser): Scope => ({ id: u.id, role: u.role, empresaId: u.empresaId });

/**
 * A write and its author's check in ONE atomic D1 batch (docs/architecture.md, "A folded write").
 * Folded, the statements are built for the token's scope with `author.guard` (the stored user is
 * that scope, approved, session live) in their WHERE: a refused author (deleted, pending, role or
 * company changed) writes nothing, and the stored user then answers exactly as without the fold
 * (401/403). An admitted user whose role or company differs from the token's had nothing written:
 * the write runs again for the stored user. Not folded (the user was read already), the statements
 * run with `guard` = `1`.
 *
 * The user row is the batch's first statement, unless the write says how its results `prove` the
 * author: then the batch is the write's statements alone, and when `prove` holds (a guarded
 * statement wrote: the guard held, so the stored user was the token's scope, approved and live at
 * that moment) nothing more is read. Only when it does not hold (the write's contract: nothing was
 * written then) does a second batch run, the user row and the same statements, and decide as
 * above. c.get('user') may not be used after a proven write.
 */
export async function authorizedWrite<B extends Statements>(
  c: Context<AppEnv>,
  build: (author: Author) => B,
  prove?: (results: Results<B>) => boolean,
): Promise<Results<B>> {
  const db = c.get('db');
  const requestId = c.get('requestId') ?? null;
  // `guard` is built on first use: cached batches (db/cached-batch.ts) use `cached` instead.
  const author = (scope: Scope, guard: () => SQL, sid: string | null): Author => {
    let built: SQL | undefined;
    return {
      scope,
      get guard() {
        return (built ??= guard());
      },
      log: { atorId: scope.id, atorRole: scope.role, requestId },
      cached: cachedAuthor(scope, sid),
    };
  };
  const unfolded = (u: AuthUser) => runBatch(db, build(author(scopeOf(u), () => sql`1`, null)));
  const pending = c.get('pendingAuth');
  if (!pending) return unfolded(c.get('user'));
  const guess = subjectOf(pending.claims);
  const sid = pending.claims.sid;
  const stmts = build(author(guess, () => authorGuard(db, guess, sid), sid));
  if (prove) {
    const results = await runBatch(db, stmts);
    if (prove(results)) {
      // Admitted by the guard itself; the user row was not read (a later c.get('user') fails loudly).
      c.set('pendingAuth', undefined);
      c.set('user', unreadUser);
      return results;
    }
    // Nothing was written. The user row and the same statements again, in one atomic batch: the
    // answer (401/403, the write's own refusal, or the write itself if the author was approved
    // meanwhile) comes from one moment, as without `prove`.
  }
  const [[user], results] = await runBatchAfter(db, selectUser(db, pending.claims), stmts);
  const admitted = admit(c, user, pending.allowPending, pending.checks);
  // A pending user admitted by a route that allows it had nothing written: the guard requires approval.
  return admitted.ativo && sameScope(admitted, guess) ? results : unfolded(admitted);
}
