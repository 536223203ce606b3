import { fillPlaceholders } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { Db } from './client';
import { perShape } from './per-shape';

/**
 * A statement for drizzle's `db.batch` (an insert, update, delete or select) whose SQL is built
 * once per isolate and shape: the write-side twin of `preparedSelect` (fast-select.ts).
 *
 * drizzle builds a statement's SQL anew every time it runs, walking its tree with `is()` checks: a
 * folded write's insert, its author check and its log entry cost about 30% of the request's CPU
 * (POST /api/cursos, Node profile of the whole app). Here the builder runs once per shape with
 * `sql.placeholder(name)` for every value, and each call only binds `values`. The builder sees only
 * `shape`, never a request value, so one shape always gives the same SQL: anything that varies per
 * request (ids, times, names) must be a placeholder, or it would be frozen into the cached SQL.
 *
 * The result is batchable and awaitable like the drizzle query it was built from, with the same
 * result mapping (drizzle's prepared query does it).
 */

/** What drizzle's builders expose to db.batch (not in drizzle's public types). */
interface Preparable {
  _prepare(isOneTimeQuery?: boolean): DrizzlePrepared;
}
interface DrizzlePrepared {
  query: { sql: string; params: unknown[] };
  fields: unknown;
  executeMethod: 'run' | 'all' | 'get' | 'values';
  _isResponseInArrayMode: boolean;
  customResultMapper: unknown;
  joinsNotNullableMap?: Record<string, boolean>;
  run(): Promise<unknown>;
  all(): Promise<unknown>;
  get(): Promise<unknown>;
  values(): Promise<unknown>;
}
interface Session {
  prepareQuery(
    query: { sql: string; params: unknown[] },
    fields: unknown,
    executeMethod: string,
    isResponseInArrayMode: boolean,
    customResultMapper: unknown,
  ): DrizzlePrepared;
}

type Built = Omit<DrizzlePrepared, 'run' | 'all' | 'get' | 'values'>;

export function preparedStatement<Shape, Q extends BatchItem<'sqlite'>>(build: (db: Db, shape: Shape) => Q) {
  const batch = preparedBatch((db: Db, shape: Shape) => [build(db, shape)] as const);
  return (db: Db, shape: Shape, values: Record<string, unknown>): Q => batch(db, shape, values)[0];
}

/**
 * `preparedStatement` for several statements built together (one write's whole batch, whose
 * statements share values such as the new row's id): one cache entry per shape, every statement
 * bound from the same `values`.
 */
export function preparedBatch<Shape, const T extends readonly BatchItem<'sqlite'>[]>(
  build: (db: Db, shape: Shape) => T,
) {
  const builtFor = perShape(
    (db: Db, shape: Shape): Built[] =>
      build(db, shape).map((q) => {
        const p = (q as unknown as Preparable)._prepare();
        return {
          query: p.query,
          fields: p.fields,
          executeMethod: p.executeMethod,
          _isResponseInArrayMode: p._isResponseInArrayMode,
          customResultMapper: p.customResultMapper,
          joinsNotNullableMap: p.joinsNotNullableMap,
        };
      }),
    (built) => built.flatMap((b) => b.query.params),
  );
  return (db: Db, shape: Shape, values: Record<string, unknown>): T =>
    builtFor(db, shape).map((ready) => bound(db, ready, values)) as unknown as T;
}

/** One cached statement with this request's values: batchable and awaitable. */
function bound(db: Db, ready: Built, values: Record<string, unknown>) {
  const prepare = () => {
    const session = (db as unknown as { session: Session }).session;
    const p = session.prepareQuery(
      { sql: ready.query.sql, params: fillPlaceholders(ready.query.params, values) },
      ready.fields,
      ready.executeMethod,
      ready._isResponseInArrayMode,
      ready.customResultMapper,
    );
    p.joinsNotNullableMap = ready.joinsNotNullableMap;
    return p;
  };
  return {
    _prepare: prepare,
    then(resolve: (v: unknown) => unknown, reject: (e: unknown) => unknown) {
      return prepare()[ready.executeMethod]().then(resolve, reject);
    },
  };
}
