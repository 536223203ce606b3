import { and, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import { loginFailures, refreshTokens } from '../../db/schema';
import type { Config } from '../../env';
import type { Db } from '../../db/client';
import type { BatchItem } from 'drizzle-orm/batch';
import { cachedBatch, run, runBatch, type Ready } from '../../db/cached-batch';
import { insertWhere } from '../../db/guarded';
import { ApiError } from '../../lib/errors';
import type { Ctx } from '../core/context';
import { b64url, hmacKey, newRefreshToken, sha256Hex, signAccessToken, type TokenSubject } from '../../lib/tokens';

/** What a session's writes need of the request's context. */
type SessionCtx = Pick<Ctx, 'db' | 'config'>;

/** A presented refresh token: its stored row, the token itself and its user. */
export interface Presented {
  row: { id: string; familyId: string };
  token: string;
  user: TokenSubject;
}

async function mintTokens(
  config: Config,
  user: TokenSubject,
  { familyId, refreshToken = newRefreshToken() }: { familyId: string; refreshToken?: string },
) {
  const access = await signAccessToken(user, config.JWT_SECRET, config.ACCESS_TOKEN_TTL_SECONDS, familyId);
  return {
    id: crypto.randomUUID(),
    access,
    refreshToken,
    tokenHash: await sha256Hex(refreshToken),
    expiresAt: new Date(Date.now() + config.REFRESH_TOKEN_TTL_SECONDS * 1000).toISOString(),
  };
}

/** A new access token and a new refresh token family; the insert is returned to batch with other writes. */
export async function newSession({ db, config }: SessionCtx, user: TokenSubject) {
  const familyId = crypto.randomUUID();
  const t = await mintTokens(config, user, { familyId });
  const now = new Date().toISOString();
  const insert = sessionInsert.bind(db, undefined, {
    id: t.id,
    user_id: user.id,
    family_id: familyId,
    token_hash: t.tokenHash,
    expires_at: t.expiresAt,
    now,
  }).session;
  return { ...t, insert };
}

/** A session's first refresh token, its SQL built once per isolate (db/cached-batch.ts: login's CPU). */
const sessionInsert = cachedBatch({
  params: ['id', 'user_id', 'family_id', 'token_hash', 'expires_at', 'now'],
  build: (db, _: undefined, p) => ({
    session: run(
      db.insert(refreshTokens).values({
        id: p.id,
        userId: p.user_id,
        familyId: p.family_id,
        tokenHash: p.token_hash,
        expiresAt: p.expires_at,
        createdAt: p.now,
        updatedAt: p.now,
      }),
    ),
  }),
});

export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
/**
 * Attempt limits per 15-minute window (security review 6; policy in SECURITY.md). Wrong passwords
 * count per (e-mail, client) pair, so guessing from one client locks that client out and not the
 * owner elsewhere; a much higher ceiling per e-mail stops guessing spread over many clients (it
 * takes 10 clients to reach it); a ceiling per client across e-mails stops password spraying.
 * "Client" is the `cf-connecting-ip` header.
 */
export const LOGIN_MAX_PER_CLIENT = 5;
export const LOGIN_MAX_PER_EMAIL = 50;
export const LOGIN_MAX_PER_IP = 20;
/** Sign-ups per client and window, successful or not (security review 8). */
export const REGISTER_MAX_PER_CLIENT = 10;

/** One counter of the login_failures table and its limit in the window. */
export interface LimitKey {
  key: string;
  max: number;
}

/** The counters of a password check for `email` from client `ip` (login and PUT /api/me alike). */
export const failureKeys = (email: string, ip: string): LimitKey[] => [
  { key: `pair:${email}|${ip}`, max: LOGIN_MAX_PER_CLIENT },
  { key: `email:${email}`, max: LOGIN_MAX_PER_EMAIL },
  { key: `ip:${ip}`, max: LOGIN_MAX_PER_IP },
];

export const registerKeys = (ip: string): LimitKey[] => [{ key: `register:${ip}`, max: REGISTER_MAX_PER_CLIENT }];

/** The client a limit counts: Cloudflare's edge sets cf-connecting-ip (see SECURITY.md). */
export const clientOf = (header: string | undefined) => header?.trim() || 'unknown';

/** What the 429 of a login limit names (its sentence, followed by when to try again). */
const FAILED_LOGINS = 'muitas tentativas de login sem sucesso';

/** 429 with Retry-After when a counter has reached its limit in the window. */
export async function assertLoginAllowed(db: Db, keys: LimitKey[], what = FAILED_LOGINS) {
  const since = new Date(Date.now() - LOGIN_WINDOW_MS).toISOString();
  const rows = await db
    .select({ key: loginFailures.key, n: sql<number>`count(*)`, oldest: sql<string>`min(${loginFailures.createdAt})` })
    .from(loginFailures)
    .where(
      and(
        inArray(
          loginFailures.key,
          keys.map((k) => k.key),
        ),
        gt(loginFailures.createdAt, since),
      ),
    )
    .groupBy(loginFailures.key);
  const blocked = rows.filter((r) => r.n >= (keys.find((k) => k.key === r.key)?.max ?? Infinity));
  if (blocked.length === 0) return;
  const retryAt = Math.max(...blocked.map((r) => Date.parse(r.oldest) + LOGIN_WINDOW_MS));
  const retryAfter = Math.max(1, Math.ceil((retryAt - Date.now()) / 1000));
  throw new ApiError(
    'RATE_LIMITED',
    `${what}: tente de novo em ${retryAfter} ${retryAfter === 1 ? 'segundo' : 'segundos'}`,
    {
      headers: { 'Retry-After': String(retryAfter) },
    },
  );
}

/** An attempt in flight is stored under its key with this prefix until the password is checked. */
const IN_FLIGHT = 'try:';
/**
 * An attempt in flight counts this long: a password check takes well under a second, so an older one
 * belongs to a request that died (a 500 between reservation and verdict) and must not hold the limit.
 */
const IN_FLIGHT_MS = 60 * 1000;

/**
 * The guarded insert that takes one attempt per key, to run in a batch (alone, or first in the
 * batch of the request's first read: login, PUT /api/me). One statement for every key: each row is
 * guarded inside it by its key's recorded failures and attempts in flight of the window (SQLite
 * evaluates the SELECT before inserting, so each row counts the table as it was, as separate inserts
 * would: no two rows share a counted key). `inFlight: false` records the attempt at once (sign-ups
 * count whatever their outcome). `meta.changes` is the number of keys that took it.
 */
export function attemptStatements(db: Db, keys: LimitKey[], opts: { inFlight?: boolean } = {}) {
  const prefix = opts.inFlight === false ? '' : IN_FLIGHT;
  const now = Date.now();
  const ids = keys.map(() => crypto.randomUUID());
  const { insert } = attemptInsert.bind(
    db,
    { n: keyCount(keys) },
    {
      now: new Date(now).toISOString(),
      since: new Date(now - LOGIN_WINDOW_MS).toISOString(),
      flight_since: new Date(now - IN_FLIGHT_MS).toISOString(),
      ...numbered(
        ATTEMPT_FIELDS,
        keys.map(({ key, max }, i) => ({
          id: ids[i],
          stored: `${prefix}${key}`,
          key,
          flight: `${IN_FLIGHT}${key}`,
          max,
        })),
      ),
    },
  );
  return { ids, insert };
}

/** A cached statement of one row per key binds each key's values by number (`id0`, `key0`, ..., `id1`, ...): up to three keys. */
const KEY_INDEXES = [0, 1, 2] as const;
type KeyCount = 1 | 2 | 3;
const keyCount = (keys: readonly unknown[]) => {
  if (keys.length < 1 || keys.length > KEY_INDEXES.length) throw new Error(`sessions: ${keys.length} keys`);
  return keys.length as KeyCount;
};
type Numbered<F extends string> = `${F}${(typeof KEY_INDEXES)[number]}`;
const numberedNames = <F extends string>(fields: readonly F[]) =>
  KEY_INDEXES.flatMap((i) => fields.map((f) => `${f}${i}` as Numbered<F>));
/** The values of numberedNames: the i-th record's `field` as `${field}${i}`; past the records undefined (the shape uses none of them). */
const numbered = <F extends string>(fields: readonly F[], records: Partial<Record<F, unknown>>[]) =>
  Object.fromEntries(KEY_INDEXES.flatMap((i) => fields.map((f) => [`${f}${i}`, records[i]?.[f]]))) as Record<
    Numbered<F>,
    unknown
  >;

const ATTEMPT_FIELDS = ['id', 'stored', 'key', 'flight', 'max'] as const;

/** attemptStatements' insert for `n` keys, its SQL built once per isolate (db/cached-batch.ts: login's CPU). */
const attemptInsert = cachedBatch({
  params: ['now', 'since', 'flight_since', ...numberedNames(ATTEMPT_FIELDS)],
  build: (db, s: { n: KeyCount }, p) => {
    const f = loginFailures;
    const selects = KEY_INDEXES.slice(0, s.n).map(
      (i) =>
        sql`select ${p[`id${i}`]}, ${p[`stored${i}`]}, ${p.now} where (select count(*) from ${f} where (${f.key} = ${p[`key${i}`]} and ${f.createdAt} > ${p.since}) or (${f.key} = ${p[`flight${i}`]} and ${f.createdAt} > ${p.flight_since})) < ${p[`max${i}`]}`,
    );
    return { insert: run(db.insert(f).select(sql.join(selects, sql` union all `))) };
  },
});

/**
 * After the batch of attemptStatements (`taken`: its insert's result): the ids taken, or (when a key
 * refused) the rows taken are given back and 429 is thrown, with Retry-After from the recorded
 * attempts, else 1 second (only attempts in flight refused it).
 */
export async function settleAttempt(
  db: Db,
  { keys, ids, taken }: { keys: LimitKey[]; ids: string[]; taken: { changes: number } },
  what = FAILED_LOGINS,
): Promise<string[]> {
  if (taken.changes === ids.length) return ids;
  // Some rows may have been taken: give them back (an id that was not taken deletes nothing).
  await db.delete(loginFailures).where(inArray(loginFailures.id, ids));
  await assertLoginAllowed(db, keys, what);
  throw new ApiError('RATE_LIMITED', 'muitas tentativas ao mesmo tempo: tente de novo em um segundo', {
    headers: { 'Retry-After': '1' },
  });
}

/**
 * ... and `read` (login: the account) joins the reservation's batch, one round trip for both. A
 * refused attempt is the same 429 and its read is dropped.
 */
export async function reserveLoginAttemptAnd<R>(db: Db, keys: LimitKey[], read: Ready<R>): Promise<[string[], R]> {
  const { ids, insert } = attemptStatements(db, keys);
  const r = await runBatch(db, { taken: insert, read });
  return [await settleAttempt(db, { keys, ids, taken: r.taken }), r.read];
}

/** One sign-up of a client, counted whatever its outcome; 429 past REGISTER_MAX_PER_CLIENT. */
export async function takeRegisterAttempt(db: Db, ip: string) {
  const keys = registerKeys(ip);
  const { ids, insert } = attemptStatements(db, keys, { inFlight: false });
  const { taken } = await runBatch(db, { taken: insert });
  await settleAttempt(db, { keys, ids, taken }, 'muitos cadastros deste cliente');
}

/** A wrong password: the reserved rows become failures of the window (and rows that left it go); `also` joins the batch (the log entry). */
export async function failLoginAttempt(db: Db, ids: string[], also: BatchItem<'sqlite'>[] = []) {
  const expired = new Date(Date.now() - LOGIN_WINDOW_MS).toISOString();
  await db.batch([
    db
      .update(loginFailures)
      .set({ key: sql`substr(${loginFailures.key}, ${IN_FLIGHT.length + 1})` })
      .where(inArray(loginFailures.id, ids)),
    db.delete(loginFailures).where(sql`${loginFailures.createdAt} < ${expired}`),
    ...also,
  ]);
}

/**
 * Not a failure (right password, even of a pending account): the reserved rows go. Batchable. With
 * `pair` (the right password), the failures of its (e-mail, client) pair go too, in the same
 * statement: the per-e-mail ceiling keeps counting, so an owner signing in does not reset a
 * distributed guesser's budget.
 */
export const releaseLoginAttempt = (db: Db, ids: string[], pair?: LimitKey) =>
  attemptRelease.bind(
    db,
    { n: keyCount(ids), pair: pair !== undefined },
    {
      ...numbered(
        ['id'],
        ids.map((id) => ({ id })),
      ),
      pair: pair?.key,
    },
  ).release;

const attemptRelease = cachedBatch({
  params: ['pair', ...numberedNames(['id'])],
  build: (db, s: { n: KeyCount; pair: boolean }, p) => {
    const ids = KEY_INDEXES.slice(0, s.n).map((i) => p[`id${i}`]);
    const f = loginFailures;
    return {
      release: run(db.delete(f).where(s.pair ? or(inArray(f.id, ids), eq(f.key, p.pair)) : inArray(f.id, ids))),
    };
  },
});

export async function findRefreshToken(db: Db, token: string) {
  const [row] = await db
    .select()
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, await sha256Hex(token)))
    .limit(1);
  return row;
}

/**
 * Logout: the session of the presented refresh token (any token of its family, spent or not) ends,
 * so every access token issued in it stops at once; the user's other sessions stay.
 */
export const endSession = (db: Db, tokenHash: string) =>
  db
    .update(refreshTokens)
    .set({ revokedAt: new Date().toISOString() })
    .where(
      and(
        sql`${refreshTokens.familyId} = (select ${refreshTokens.familyId} from ${refreshTokens} where ${refreshTokens.tokenHash} = ${tokenHash})`,
        isNull(refreshTokens.revokedAt),
      ),
    );

export const revokeAllOfUser = (db: Db, userId: string) =>
  db
    .update(refreshTokens)
    .set({ revokedAt: new Date().toISOString() })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));

/**
 * How long a just-replaced refresh token still answers its successor instead of counting as theft
 * (security review 5): two tabs or a retried request refreshing with one token at the same moment.
 */
export const REFRESH_GRACE_MS = 10_000;

/**
 * The successor of a refresh token is derived from it, not drawn at random:
 * base64url(HMAC-SHA256(JWT_SECRET, "refresh-successor\0" + token)). So a second refresh with the
 * same token within the grace window can answer THE SAME successor without its raw value ever being
 * stored (only hashes are; the alternative, storing the successor encrypted, needs a column and a key
 * to manage). Only the server can compute it: without JWT_SECRET a spent token reveals nothing about
 * its successor, and whoever holds JWT_SECRET can mint access tokens anyway. Tokens from a login stay
 * 32 random bytes; each token is rotated once (guarded), so successors are as unique as their parents.
 */
async function successorOf(spent: string, secret: string): Promise<string> {
  // The JWT key, domain-separated: a JWT's signed input (base64url text) never holds a NUL byte.
  const mac = await crypto.subtle.sign(
    'HMAC',
    await hmacKey(secret),
    new TextEncoder().encode(`refresh-successor\0${spent}`),
  );
  return b64url(new Uint8Array(mac));
}

/** The spent token was replaced less than REFRESH_GRACE_MS ago (by rotation, not by logout). */
export const inGraceWindow = (row: { revokedAt: string | null; replacedBy: string | null }) =>
  row.revokedAt !== null && row.replacedBy !== null && Date.now() - Date.parse(row.revokedAt) <= REFRESH_GRACE_MS;

/**
 * Rotation in one batch: the new token is inserted only while the old one is still unspent, then
 * the old one is spent. Of concurrent refreshes with one token only one rotates; the others get
 * undefined and answer the same successor through `replayRotation`.
 */
export async function rotate(
  { db, config }: SessionCtx,
  { row: old, token: oldToken, user }: Presented,
  /** Statements written only if this rotation happens (the log entry), given the new token's id. */
  also: (newId: string) => BatchItem<'sqlite'>[] = () => [],
) {
  const t = await mintTokens(config, user, {
    familyId: old.familyId,
    refreshToken: await successorOf(oldToken, config.JWT_SECRET),
  });
  const now = new Date().toISOString();
  const [inserted] = await db.batch([
    insertWhere(
      db,
      refreshTokens,
      { id: t.id, userId: user.id, familyId: old.familyId, tokenHash: t.tokenHash, expiresAt: t.expiresAt },
      sql`exists (select 1 from ${refreshTokens} where ${refreshTokens.id} = ${old.id} and ${refreshTokens.revokedAt} is null)`,
    ),
    ...also(t.id),
    db
      .update(refreshTokens)
      .set({ revokedAt: now, replacedBy: t.id })
      .where(and(eq(refreshTokens.id, old.id), isNull(refreshTokens.revokedAt))),
  ]);
  return inserted.meta.changes === 1 ? t : undefined;
}

/**
 * A refresh with a token just rotated (within the grace window, or a concurrent request that lost
 * the rotation): the successor it derives is answered again, with a fresh access token, if that
 * successor is still the live token of the family. Otherwise undefined (it was rotated again or the
 * session ended): the caller answers 401.
 */
export async function replayRotation({ db, config }: SessionCtx, { row: spent, token: spentToken, user }: Presented) {
  const successor = await successorOf(spentToken, config.JWT_SECRET);
  const [live] = await db
    .select({ id: refreshTokens.id, expiresAt: refreshTokens.expiresAt })
    .from(refreshTokens)
    .where(
      and(
        eq(refreshTokens.tokenHash, await sha256Hex(successor)),
        eq(refreshTokens.familyId, spent.familyId),
        isNull(refreshTokens.revokedAt),
      ),
    )
    .limit(1);
  if (!live) return undefined;
  const access = await signAccessToken(user, config.JWT_SECRET, config.ACCESS_TOKEN_TTL_SECONDS, spent.familyId);
  return { access, refreshToken: successor };
}
