import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import { loginFailures, refreshTokens } from '../db/schema';
import type { Config } from '../env';
import type { Db } from '../db/client';
import { insertWhere } from '../db/guarded';
import { ApiError } from '../lib/errors';
import { newRefreshToken, sha256Hex, signAccessToken, type TokenSubject } from '../lib/tokens';

export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const LOGIN_MAX_FAILURES = 5;

async function mintTokens(config: Config, user: TokenSubject) {
  const access = await signAccessToken(user, config.JWT_SECRET, config.ACCESS_TOKEN_TTL_SECONDS);
  const refreshToken = newRefreshToken();
  return {
    id: crypto.randomUUID(),
    access,
    refreshToken,
    tokenHash: await sha256Hex(refreshToken),
    expiresAt: new Date(Date.now() + config.REFRESH_TOKEN_TTL_SECONDS * 1000).toISOString(),
  };
}

/** A new access token and a new refresh token family; the insert is returned to batch with other writes. */
export async function newSession(db: Db, config: Config, user: TokenSubject) {
  const t = await mintTokens(config, user);
  const insert = db.insert(refreshTokens).values({
    id: t.id,
    userId: user.id,
    familyId: crypto.randomUUID(),
    tokenHash: t.tokenHash,
    expiresAt: t.expiresAt,
  });
  return { ...t, insert };
}

export const failureKeys = (email: string, ip: string) => [`email:${email}`, `ip:${ip}`];

/** 429 with Retry-After when the e-mail or the IP has 5 failures in the last 15 minutes. */
export async function assertLoginAllowed(db: Db, keys: string[]) {
  const since = new Date(Date.now() - LOGIN_WINDOW_MS).toISOString();
  const rows = await db
    .select({ key: loginFailures.key, n: sql<number>`count(*)`, oldest: sql<string>`min(${loginFailures.createdAt})` })
    .from(loginFailures)
    .where(and(inArray(loginFailures.key, keys), gt(loginFailures.createdAt, since)))
    .groupBy(loginFailures.key);
  const blocked = rows.filter((r) => r.n >= LOGIN_MAX_FAILURES);
  if (blocked.length === 0) return;
  const retryAt = Math.max(...blocked.map((r) => Date.parse(r.oldest) + LOGIN_WINDOW_MS));
  const retryAfter = Math.max(1, Math.ceil((retryAt - Date.now()) / 1000));
  throw new ApiError('RATE_LIMITED', `too many failed logins: try again in ${retryAfter} seconds`, {
    headers: { 'Retry-After': String(retryAfter) },
  });
}

/** An attempt in flight is stored under its key with this prefix until the password is checked. */
const IN_FLIGHT = 'try:';

/**
 * Takes one attempt per key BEFORE the password is checked, each insert guarded inside the statement
 * by the failures and attempts in flight of the window: of many concurrent attempts at most 5 per
 * e-mail and per IP are ever evaluated (a check followed by a later write let a burst of parallel
 * guesses through). `failLoginAttempt` then turns the rows into failures, `releaseLoginAttempt` drops them.
 */
export async function reserveLoginAttempt(db: Db, keys: string[]): Promise<string[]> {
  const now = new Date().toISOString();
  const since = new Date(Date.now() - LOGIN_WINDOW_MS).toISOString();
  const rows = keys.map((key) => ({
    id: crypto.randomUUID(),
    key: `${IN_FLIGHT}${key}`,
    createdAt: now,
    counted: key,
  }));
  const inserts = rows.map(({ counted, ...r }) =>
    insertWhere(
      db,
      loginFailures,
      r,
      sql`(select count(*) from ${loginFailures} where ${loginFailures.key} in (${counted}, ${r.key}) and ${loginFailures.createdAt} > ${since}) < ${LOGIN_MAX_FAILURES}`,
    ),
  );
  const results = await db.batch(inserts as [(typeof inserts)[number], ...(typeof inserts)[number][]]);
  const taken = rows.filter((_, i) => results[i]!.meta.changes === 1).map((r) => r.id);
  if (taken.length === rows.length) return taken;
  if (taken.length > 0) await db.delete(loginFailures).where(inArray(loginFailures.id, taken));
  // Refused by recorded failures: Retry-After from them; else only by attempts in flight: retry at once.
  await assertLoginAllowed(db, keys);
  throw new ApiError('RATE_LIMITED', 'too many login attempts at once: try again in a second', {
    headers: { 'Retry-After': '1' },
  });
}

/** A wrong password: the reserved rows become failures of the window (and rows that left it go). */
export async function failLoginAttempt(db: Db, ids: string[]) {
  const expired = new Date(Date.now() - LOGIN_WINDOW_MS).toISOString();
  await db.batch([
    db
      .update(loginFailures)
      .set({ key: sql`substr(${loginFailures.key}, ${IN_FLIGHT.length + 1})` })
      .where(inArray(loginFailures.id, ids)),
    db.delete(loginFailures).where(sql`${loginFailures.createdAt} < ${expired}`),
  ]);
}

/** Not a failure (right password, even of a pending account): the reserved rows go. Batchable. */
export const releaseLoginAttempt = (db: Db, ids: string[]) =>
  db.delete(loginFailures).where(inArray(loginFailures.id, ids));

export const clearFailures = (db: Db, key: string) => db.delete(loginFailures).where(eq(loginFailures.key, key));

export async function findRefreshToken(db: Db, token: string) {
  const [row] = await db
    .select()
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, await sha256Hex(token)))
    .limit(1);
  return row;
}

/** Theft detection: a spent token was presented, so every token of its family dies. */
export const revokeFamily = (db: Db, familyId: string) =>
  db
    .update(refreshTokens)
    .set({ revokedAt: new Date().toISOString() })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));

export const revokeAllOfUser = (db: Db, userId: string) =>
  db
    .update(refreshTokens)
    .set({ revokedAt: new Date().toISOString() })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));

/**
 * Rotation in one batch: the new token is inserted only while the old one is still unspent, then
 * the old one is spent. Of two concurrent refreshes with one token, only one gets a new token.
 */
export async function rotate(db: Db, config: Config, old: { id: string; familyId: string }, user: TokenSubject) {
  const t = await mintTokens(config, user);
  const now = new Date().toISOString();
  const [inserted] = await db.batch([
    insertWhere(
      db,
      refreshTokens,
      { id: t.id, userId: user.id, familyId: old.familyId, tokenHash: t.tokenHash, expiresAt: t.expiresAt },
      sql`exists (select 1 from ${refreshTokens} where ${refreshTokens.id} = ${old.id} and ${refreshTokens.revokedAt} is null)`,
    ),
    db
      .update(refreshTokens)
      .set({ revokedAt: now, replacedBy: t.id })
      .where(and(eq(refreshTokens.id, old.id), isNull(refreshTokens.revokedAt))),
  ]);
  if (inserted.meta.changes !== 1) throw new ApiError('INVALID_REFRESH_TOKEN', 'refresh token already used');
  return t;
}
