import { Column, getTableColumns, is, SQL, Table } from 'drizzle-orm';
import type { Db } from '../env';

/** A drizzle select as built (`db.select(...).from(...)...`), not yet run. */
export interface Selectable extends PromiseLike<unknown[]> {
  toSQL(): { sql: string; params: unknown[] };
  readonly _: { readonly config: { readonly fields: Record<string, unknown> } };
}

export type SelectRows<T extends readonly Selectable[]> = { -readonly [K in keyof T]: Awaited<T[K]> };

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
function compile(query: Selectable): (row: Record<string, unknown>) => Record<string, unknown> {
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
    if (values.length !== fields.length) throw new Error(`fastSelect: ${fields.length} columns selected, ${values.length} distinct names: alias them`);
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
 * Runs drizzle-built selects in ONE D1 batch (one round trip) and maps their rows with compiled
 * mappers. The results equal `db.batch()`'s for selections of columns, aliased SQL and tables
 * from FROM or inner joins; a left-joined table selected as a whole object is not supported (its
 * absence would not become null), and a repeated column name is an error, never a silent overwrite.
 */
export async function fastSelect<T extends readonly [Selectable, ...Selectable[]]>(db: Db, queries: T): Promise<SelectRows<T>> {
  const client = db.$client;
  const statements = queries.map((q) => {
    const { sql, params } = q.toSQL();
    return client.prepare(sql).bind(...params);
  });
  const results = await client.batch<Record<string, unknown>>(statements);
  return results.map((r, i) => r.results.map(compile(queries[i]!))) as SelectRows<T>;
}
