import type { SQL } from 'drizzle-orm';
import { SQLiteAsyncDialect } from 'drizzle-orm/sqlite-core';
import type { Db } from './client';

const dialect = new SQLiteAsyncDialect();

/**
 * Hand-written SQL statements (set-based jobs, CTE reads) in ONE D1 batch: one round trip, one
 * transaction. drizzle's `db.run(sql)` / `db.all(sql)` are not batchable with parameters (see
 * guarded.ts); these are bound through D1 directly. Answers each statement's rows (RETURNING
 * included) and its `meta.changes`.
 */
export async function rawBatch(db: Db, statements: SQL[]) {
  const client = db.$client;
  const results = await client.batch<Record<string, unknown>>(
    statements.map((s) => {
      const q = dialect.sqlToQuery(s);
      return client.prepare(q.sql).bind(...q.params);
    }),
  );
  return results.map((r) => ({ rows: r.results, changes: r.meta.changes ?? 0 }));
}
