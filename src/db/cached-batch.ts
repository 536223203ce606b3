import { getTableColumns, is, Param, Placeholder, type DriverValueEncoder } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Db } from './client';
import { mapperOf, selectMapper, type Selectable } from './row-mapper';

/**
 * Statements whose SQL is built once per isolate and shape, then bound per request
 * (docs/architecture.md, "A hot write"). drizzle builds a statement's SQL anew on every run, walking
 * its tree with `is()` checks: for the professional's acceptance (seven statements) that was about
 * four fifths of the request's CPU.
 *
 *     const accept = cachedBatch({
 *       params: ['id', 'now', ...],                           // every per-request value, by name
 *       build: (db, shape: { author: GuardShape }, p) => ({   // p.id, p.now: placeholders
 *         log: run(logRowWrite(...)),                         // results by name, in batch order
 *         update: run(db.update(convites).set(...).where(...)),
 *         view: rows(selectConvites(db).where(eq(convites.id, p.id))),
 *       }),
 *     });
 *     const r = await accept.run(db, shape, { id, now, ... }); // r.update.changes, r.view[0]
 *
 * A value of the request reaches the cached SQL only as a placeholder, by construction: the builder
 * sees the database, a `shape` whose type admits no wide string or number (Finite: what decides the
 * SQL, such as a role or which optional columns are present) and `p`, one placeholder per declared
 * name; `values` must have exactly those names (TypeScript checks it), and at build time every
 * placeholder in the SQL must be a declared one. The same builder given the values themselves in
 * `p` is the uncached statement set (`uncached`): test/perf/cached-batch.test.ts holds both paths'
 * SQL and parameters equal, which also catches a value made inside the builder (an id, a clock).
 *
 * Only drizzle's public API: `toSQL()` builds, D1's own `prepare().bind()` and `batch()` run.
 */

/** One statement ready for D1: its SQL, its parameters and how its result is read. */
export interface Ready<T> {
  readonly sql: string;
  readonly params: readonly unknown[];
  readonly read: (result: D1Result<Record<string, unknown>>) => T;
}

/** Statements by name, in batch order (object order; a name is never a number). */
export type Statements = Record<string, Ready<unknown>>;
export type Results<B extends Statements> = { -readonly [K in keyof B]: B[K] extends Ready<infer T> ? T : never };

interface Buildable {
  toSQL(): { sql: string; params: unknown[] };
}

const changesOf = (r: D1Result) => ({ changes: r.meta.changes ?? 0 });

/**
 * A write (insert, update, delete) whose result is `{ changes }`: rows it wrote, the triggers'
 * writes included (docs/architecture.md, "Kept by triggers"): test it as `> 0`, never `=== 1`.
 */
export const run = (q: Buildable): Ready<{ changes: number }> => ({ ...q.toSQL(), read: changesOf });

/**
 * `run()` of each write of a helper's (acceptStatements' log entry, update and fee), by its name, or
 * with `prefix` (`promoted` + `update` = `promotedUpdate`) when a batch holds two sets of them.
 */
export function runEach<K extends string, P extends string = ''>(writes: Record<K, Buildable>, prefix?: P) {
  const out: Record<string, Ready<{ changes: number }>> = {};
  for (const [name, q] of Object.entries<Buildable>(writes))
    out[prefix ? `${prefix}${name[0]!.toUpperCase()}${name.slice(1)}` : name] = run(q);
  return out as { [N in K as P extends '' ? N : `${P}${Capitalize<N>}`]: Ready<{ changes: number }> };
}

/** A select whose result is its rows, mapped as drizzle maps them (db/row-mapper.ts). */
export function rows<Q extends Selectable>(q: Q): Ready<Awaited<Q>> {
  const map = selectMapper(q);
  return { ...q.toSQL(), read: (r) => r.results.map(map) as Awaited<Q> };
}

/** A write `.returning()` every column of `table`: its result is the rows it wrote. */
export function returned<T extends SQLiteTable>(table: T, q: Buildable): Ready<T['$inferSelect'][]> {
  const map = mapperOf(getTableColumns(table));
  return { ...q.toSQL(), read: (r) => r.results.map(map) as T['$inferSelect'][] };
}

/** Runs statements in ONE D1 batch (one round trip, atomic) and answers their results by name. */
export async function runBatch<B extends Statements>(db: Db, statements: B): Promise<Results<B>> {
  const names = Object.keys(statements);
  const raw = await execute(
    db,
    names.map((n) => statements[n]!),
  );
  const out: Record<string, unknown> = {};
  for (let i = 0; i < names.length; i++) out[names[i]!] = statements[names[i]!]!.read(raw[i]!);
  return out as Results<B>;
}

/** runBatch with `first` (a folded write's user row) in front, in the same batch. */
export async function runBatchAfter<T, B extends Statements>(
  db: Db,
  first: Ready<T>,
  statements: B,
): Promise<[T, Results<B>]> {
  const names = Object.keys(statements);
  const raw = await execute(db, [first, ...names.map((n) => statements[n]!)]);
  const out: Record<string, unknown> = {};
  for (let i = 0; i < names.length; i++) out[names[i]!] = statements[names[i]!]!.read(raw[i + 1]!);
  return [first.read(raw[0]!), out as Results<B>];
}

/** The statements through D1 itself (the request's session: db/session.ts). */
export async function execute(db: Db, list: readonly Ready<unknown>[]) {
  if (list.length === 0) return [];
  const client = db.$client;
  return client.batch<Record<string, unknown>>(list.map((s) => client.prepare(s.sql).bind(...s.params)));
}

// ------------------------------------------------------------------------------- built once

/** What a request binds to a placeholder (undefined: not used by this shape; a placeholder the SQL uses without a value is an error). */
export type Value = unknown;
export type Values<N extends string> = { readonly [K in N]: Value };
/** The builder's `p`: one placeholder per declared name. */
export type Placeholders<N extends string> = { readonly [K in N]: Placeholder<K> };
/** `V`, and no name but the declared ones. */
export type Exact<V, N extends PropertyKey> = V & { readonly [K in Exclude<keyof V, N>]: never };

/**
 * What may decide a cached statement's SQL: literal strings and numbers (a role, a count of keys),
 * booleans, and objects and arrays of them. A wide `string` or `number` is a request's value and is
 * refused (`never`): it must be a placeholder.
 */
export type Finite<S> = S extends string
  ? string extends S
    ? never
    : S
  : S extends number
    ? number extends S
      ? never
      : S
    : S extends boolean | null | undefined
      ? S
      : S extends readonly (infer E)[]
        ? readonly Finite<E>[]
        : { readonly [K in keyof S]: Finite<S[K]> };
/** The shape a cached batch is called with: `S`, where a wide string or number is `never` (a compile error). */
export type Shape<S> = S & Finite<S>;

export interface CachedBatch<N extends string, S, B extends Statements> {
  /** The declared names. */
  readonly params: readonly N[];
  /** The shapes built so far in this isolate (test/perf/cached-batch.test.ts). */
  shapes(): S[];
  /** This request's statements: the shape's SQL (built on its first use in the isolate), bound to `values`. */
  bind<V extends Values<N>>(db: Db, shape: Shape<S>, values: Exact<V, N>): B;
  /** bind, run in one batch, results by name. */
  run<V extends Values<N>>(db: Db, shape: Shape<S>, values: Exact<V, N>): Promise<Results<B>>;
  /** The same builder given the values themselves: drizzle builds the SQL now (the uncached path). */
  uncached<V extends Values<N>>(db: Db, shape: Shape<S>, values: Exact<V, N>): B;
}

interface Built {
  name: string;
  sql: string;
  fill: (values: Record<string, unknown>) => readonly unknown[];
  read: Ready<unknown>['read'];
}

export function cachedBatch<const N extends string, S, B extends Statements>(def: {
  /** Every value of a request, by name. */
  params: readonly N[];
  /** The statements, by name in batch order, from the shape and `p`'s placeholders (or, uncached, the values). */
  build: (db: Db, shape: S, p: Placeholders<N>) => B;
}): CachedBatch<N, S, B> {
  const declared = new Set<string>(def.params);
  // A name declared twice would bind one value for two meanings (a write's own `uid` and its author's).
  if (declared.size !== def.params.length) throw new Error(`cachedBatch: a name is declared twice: ${def.params}`);
  const placeholders = Object.fromEntries(def.params.map((n) => [n, new Placeholder(n)])) as Placeholders<N>;
  const byShape = new Map<string, { shape: S; built: Built[] }>();
  const builtFor = (db: Db, shape: S) => {
    const key = JSON.stringify(shape) ?? '';
    let entry = byShape.get(key);
    if (!entry) {
      const statements = def.build(db, shape, placeholders);
      const built = Object.entries(statements).map(([name, s]) => {
        if (/^\d+$/.test(name)) throw new Error(`cachedBatch: statement name ${name} would reorder the batch`);
        return { name, sql: s.sql, fill: filler(s.params, declared, name), read: s.read };
      });
      byShape.set(key, (entry = { shape: structuredClone(shape), built }));
    }
    return entry.built;
  };
  const bind = (db: Db, shape: S, values: Values<N>): B => {
    const out: Record<string, Ready<unknown>> = {};
    for (const b of builtFor(db, shape)) out[b.name] = { sql: b.sql, params: b.fill(values), read: b.read };
    return out as B;
  };
  const batch: CachedBatch<N, S, B> = {
    params: def.params,
    shapes: () => [...byShape.values()].map((e) => e.shape),
    bind,
    run: (db, shape, values) => runBatch(db, bind(db, shape, values)),
    uncached(db, shape, values) {
      const statements = def.build(db, shape, values as unknown as Placeholders<N>);
      for (const [name, s] of Object.entries(statements))
        for (const p of s.params)
          if (is(p, Placeholder) || (is(p, Param) && is(p.value, Placeholder)))
            throw new Error(`cachedBatch: ${name} binds a placeholder that is not in p`);
      return statements;
    },
  };
  everyBatch.push(batch as unknown as CachedBatch<string, unknown, Statements>);
  return batch;
}

const everyBatch: CachedBatch<string, unknown, Statements>[] = [];
/** Every cached batch made so far in the isolate (test/perf/cached-batch.test.ts holds each shape's SQL equal to its uncached path's). */
export const everyCachedBatch = (): readonly CachedBatch<string, unknown, Statements>[] => everyBatch;

/**
 * The parameters of a statement built with placeholders, for one request's values: constants as
 * built, each placeholder its value (through its column's encoder when drizzle bound it to one; a
 * null stays null, as drizzle binds a null value). Refuses a placeholder that is not declared.
 */
function filler(params: readonly unknown[], declared: ReadonlySet<string>, statement: string) {
  type Slot = { value: unknown } | { name: string; encoder?: DriverValueEncoder<unknown, unknown> };
  const slots: Slot[] = params.map((p) => {
    const [placeholder, encoder] = is(p, Param) && is(p.value, Placeholder) ? [p.value, p.encoder] : [p, undefined];
    if (!is(placeholder, Placeholder)) return { value: p };
    if (!declared.has(placeholder.name))
      throw new Error(`cachedBatch: ${statement} uses the placeholder ${placeholder.name}, which is not declared`);
    return { name: placeholder.name, encoder };
  });
  if (slots.every((s) => 'value' in s)) return () => params;
  return (values: Record<string, unknown>) =>
    slots.map((s) => {
      if ('value' in s) return s.value;
      const v = values[s.name];
      if (v === undefined) throw new Error(`cachedBatch: no value for ${s.name} (${statement})`);
      return v === null || !s.encoder ? v : s.encoder.mapToDriverValue(v);
    });
}

/**
 * A select built once per isolate and shape (a cached batch of one statement), for `fastSelect`
 * or a write's batch: the hot reads' SQL costs nothing after the first request.
 */
export function cachedSelect<const N extends string, S, Q extends Selectable>(def: {
  params: readonly N[];
  build: (db: Db, shape: S, p: Placeholders<N>) => Q;
}) {
  const batch = cachedBatch({
    params: def.params,
    build: (db: Db, shape: S, p: Placeholders<N>) => ({ rows: rows(def.build(db, shape, p)) }),
  });
  const select = <V extends Values<N>>(db: Db, shape: Shape<S>, values: Exact<V, N>) =>
    batch.bind(db, shape, values).rows;
  return select;
}
