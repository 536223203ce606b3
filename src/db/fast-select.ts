import { Column, fillPlaceholders, getTableColumns, is, SQL, Table } from 'drizzle-orm';
import type { Db } from './client';
import { perShape } from './per-shape';

/** A drizzle select as built (`db.select(...).from(...)...`), not yet run. */
export interface Selectable extends PromiseLike<unknown[]> {
  toSQL(): { sql: string; params: unknown[] };
  readonly _: { readonly config: { readonly fields: Record<string, unknown> } };
}

type RowMapper = (row: Record<string, unknown>) => Record<string, unknown>;

/** A select ready to run: SQL and mapper from `preparedSelect` (built once), values bound. */
export interface BoundSelect<Row> {
  readonly kind: 'bound';
  readonly sql: string;
  readonly params: unknown[];
  readonly map: RowMapper;
  /** Type only: what the mapper yields. */
  readonly row?: Row;
}

/** What fastSelect runs: a drizzle select, or a bound prepared one. */
export type Item = Selectable | BoundSelect<unknown>;

export type SelectRows<T extends readonly Item[]> = {
  -readonly [K in keyof T]: T[K] extends BoundSelect<infer R> ? R[] : Awaited<T[K]>;
};

type Decoder = { mapFromDriverValue(value: unknown): unknown };
/** `sql`...`.mapWith()` keeps its decoder on the SQL object, where drizzle's own mapping reads it (not typed). */
const sqlDecoder = (s: SQL): Decoder => (s as unknown as { decoder: Decoder }).decoder;
interface Field {
  path: string[];
  decoder: Decoder;
}

/** The selection in result-column order, as drizzle lays it out (tables expand to their columns). */
function flatten(fields: Record<string, unknown>, prefix: string[] = [], out: Field[] = []): Field[] {
  for (const [key, f] of Object.entries(fields)) {
    const path = [...prefix, key];
    if (is(f, Column)) out.push({ path, decoder: f });
    else if (is(f, SQL)) out.push({ path, decoder: sqlDecoder(f) });
    else if (is(f, SQL.Aliased)) out.push({ path, decoder: sqlDecoder(f.sql) });
    else if (is(f, Table)) flatten(getTableColumns(f), path, out);
    else flatten(f as Record<string, unknown>, path, out);
  }
  return out;
}

/**
 * A row mapper compiled once per query. drizzle's own mapping walks every cell through `is()`
 * checks and path iterators; on a list of 1,800 agenda events that was most of the handler's CPU
 * (3-10x more than this). Values go through the same column decoders, so results are equal.
 */
function compile(query: Selectable): RowMapper {
  const fields = flatten(query._.config.fields);
  const top: [string, number, Decoder][] = [];
  const nested = new Map<string, [string, number, Decoder][]>();
  fields.forEach(({ path, decoder }, i) => {
    if (path.length === 1) return top.push([path[0]!, i, decoder]);
    if (path.length !== 2) throw new Error('fastSelect: selections nest one level at most');
    const group = nested.get(path[0]!) ?? [];
    group.push([path[1]!, i, decoder]);
    nested.set(path[0]!, group);
  });
  const groups = [...nested];
  return (row) => {
    // D1 batch rows are objects keyed by column name, in column order: a repeated name collapses.
    const values = Object.values(row);
    if (values.length !== fields.length)
      throw new Error(`fastSelect: ${fields.length} columns selected, ${values.length} distinct names: alias them`);
    const out: Record<string, unknown> = {};
    for (const [key, i, d] of top) out[key] = values[i] === null ? null : d.mapFromDriverValue(values[i]);
    for (const [name, group] of groups) {
      const inner: Record<string, unknown> = {};
      for (const [key, i, d] of group) inner[key] = values[i] === null ? null : d.mapFromDriverValue(values[i]);
      out[name] = inner;
    }
    return out;
  };
}

/**
 * drizzle builds a select's SQL anew on every run, walking it with `is()` checks: 40-500 µs per
 * select here, as much as the rest of a cheap request. A prepared select is built once per
 * isolate and shape; its values go through `sql.placeholder(name)` and are bound per call. The
 * builder sees only `shape`, never a request value, so one shape always gives the same SQL.
 */
export function preparedSelect<Shape, Q extends Selectable>(build: (db: Db, shape: Shape) => Q) {
  const builtFor = perShape(
    (db: Db, shape: Shape) => {
      const q = build(db, shape);
      return { ...q.toSQL(), map: compile(q) };
    },
    (b) => b.params,
  );
  return (db: Db, shape: Shape, values: Record<string, unknown>): BoundSelect<Awaited<Q>[number]> => {
    const b = builtFor(db, shape);
    return { kind: 'bound', sql: b.sql, params: fillPlaceholders(b.params, values), map: b.map };
  };
}

/**
 * Runs selects (drizzle-built, or bound prepared ones) in ONE D1 batch (one round trip) and maps
 * their rows with compiled mappers. The results equal `db.batch()`'s for selections of columns,
 * aliased SQL and tables from FROM or inner joins; a left-joined table selected as a whole object
 * is not supported (its absence would not become null), and a repeated column name is an error,
 * never a silent overwrite.
 */
export async function fastSelect<T extends readonly [Item, ...Item[]]>(db: Db, queries: T): Promise<SelectRows<T>> {
  const client = db.$client;
  const ready = queries.map((q) => (isBound(q) ? q : { ...q.toSQL(), map: compile(q) }));
  const results = await client.batch<Record<string, unknown>>(
    ready.map((q) => client.prepare(q.sql).bind(...q.params)),
  );
  return results.map((r, i) => r.results.map(ready[i]!.map)) as SelectRows<T>;
}

const isBound = (q: Item): q is BoundSelect<unknown> => (q as BoundSelect<unknown>).kind === 'bound';
