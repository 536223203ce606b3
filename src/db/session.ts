import { DrizzleD1Database, SQLiteD1Session } from 'drizzle-orm/d1';
import { SQLiteAsyncDialect } from 'drizzle-orm/sqlite-core';
import { createDb, type Db } from './client';

/**
 * D1 read replication (Sessions API): every request runs on ONE D1 session, created here and only
 * here (app.ts). Reads may then be served by a replica, with sequential consistency per client:
 * the session's latest bookmark goes back in the `x-d1-bookmark` response header, and a client
 * that sends it back gets a session that sees at least everything it saw or wrote before.
 *
 * - GET/HEAD: the client's bookmark when it has the shape of one, else 'first-unconstrained'
 *   (any replica; a malformed header is ignored, never an error).
 * - Every other method (a write): 'first-primary', so a write never starts from a stale replica.
 *
 * Without read replication enabled on the database every query goes to the primary and the
 * bookmark still travels (docs/performance.md, "Read replicas"). A binding without withSession (a test double)
 * runs on the plain binding and answers no bookmark.
 */
export const BOOKMARK_HEADER = 'x-d1-bookmark';

/** D1's bookmark: four dash-separated hex groups (8-8-8-32), e.g. 00000000-00000008-00000000-000…0. */
const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/i;
export const isBookmark = (s: string | undefined): s is string => s !== undefined && BOOKMARK.test(s);

export interface RequestDb {
  db: Db;
  /** The session's latest bookmark after the request's queries (null when none ran or no session). */
  bookmark(): string | null;
}

export function requestDb(d1: D1Database, method: string, presented: string | undefined): RequestDb {
  if (typeof d1.withSession !== 'function') return { db: createDb(d1), bookmark: () => null };
  const read = method === 'GET' || method === 'HEAD';
  const session = d1.withSession(read ? (isBookmark(presented) ? presented : 'first-unconstrained') : 'first-primary');
  return { db: sessionDb(session), bookmark: () => session.getBookmark?.() ?? null };
}

/** drizzle's SQLite dialect holds no state of a database: one for every session client. */
const dialect = new SQLiteAsyncDialect();

/**
 * A drizzle client over a session, per request. drizzle() would rebuild the relational config of
 * every table each time (see client.ts), and even with that config cached the constructor makes one
 * relational query builder per table (about 5% of a write's CPU, measured with a CPU profile under
 * `npm run bench`). The app makes no relational queries (`db.query.*`), so the per-request client
 * gets no schema: only the two small objects that hold the session.
 */
function sessionDb(session: D1DatabaseSession): Db {
  // The session has the prepare/batch a D1 binding has, which is all drizzle and fastSelect call.
  const client = session as unknown as D1Database;
  const db = new DrizzleD1Database(
    'async',
    dialect,
    new SQLiteD1Session(client, dialect, undefined, {}),
    undefined,
  ) as unknown as Db;
  db.$client = client;
  return db;
}
