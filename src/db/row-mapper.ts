import { Column, getTableColumns, is, SQL, Table } from 'drizzle-orm';

/** A drizzle select as built (`db.select(...).from(...)...`), not yet run. */
export interface Selectable extends PromiseLike<unknown[]> {
  toSQL(): { sql: string; params: unknown[] };
  /** drizzle's selection, typed in its declarations (SQLiteSelectQueryBuilderBase['_']). */
  readonly _: { readonly config: { readonly fields: Record<string, unknown> } };
}

export type RowMapper = (row: Record<string, unknown>) => Record<string, unknown>;

type Decoder = { mapFromDriverValue(value: unknown): unknown };
/**
 * `sql`...`.mapWith()` keeps its decoder on the SQL object, where drizzle's own mapping reads it.
 * The one property of drizzle's that this code reads outside its typed API (no public getter
 * exists); test/perf/fast-select.test.ts holds every mapped row equal to drizzle's own.
 */
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
 * A row mapper compiled once per selection. drizzle's own mapping walks every cell through `is()`
 * checks and path iterators; on a list of 1,800 agenda events that was most of the handler's CPU
 * (3-10x more than this). Values go through the same column decoders, so results are equal.
 * `fields`: a select's (`q._.config.fields`), or a table's columns (a whole row RETURNING).
 */
export function mapperOf(fields: Record<string, unknown>): RowMapper {
  const flat = flatten(fields);
  const top: [string, number, Decoder][] = [];
  const nested = new Map<string, [string, number, Decoder][]>();
  flat.forEach(({ path, decoder }, i) => {
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
    if (values.length !== flat.length)
      throw new Error(`fastSelect: ${flat.length} columns selected, ${values.length} distinct names: alias them`);
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

/** The mapper of a drizzle select's rows. */
export const selectMapper = (q: Selectable) => mapperOf(q._.config.fields);
