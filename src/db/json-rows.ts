import { Column, is, SQL, sql, type SQLChunk, type Subquery } from 'drizzle-orm';

/** A drizzle select as built, not yet run, that can become a subquery. */
interface Rows<Row> extends PromiseLike<Row[]> {
  readonly _: { readonly selectedFields: Record<string, unknown> };
  as(alias: string): Subquery;
}

/**
 * The rows of `rows` as ONE JSON array column: `(select json_group_array(json_object(...)) from
 * (<rows>) alias)`, an object per row keyed like the selection, in the order of `rows` (its ORDER BY:
 * SQLite keeps a subquery's order under an aggregate other than count/min/max; no
 * `json_group_array(x ORDER BY y)`, which older SQLite lacks). Correlated to an outer column, it folds
 * related rows into their parent's row instead of a select of their own in the batch. Decoded with
 * JSON.parse (no rows: `[]`); values are as JSON carries them (no column decoders: booleans stay 0/1),
 * so select text and numbers only. A flat selection whose fields are columns or aliased SQL.
 */
export function jsonRows<Row>(rows: Rows<Row>, alias: string): SQL<Row[]> {
  const sub = rows.as(alias);
  const fields = sub as unknown as Record<string, SQLChunk>;
  const pairs = Object.entries(rows._.selectedFields).map(([key, field]) => {
    if (!/^\w+$/.test(key) || !(is(field, Column) || is(field, SQL.Aliased)))
      throw new Error(`jsonRows: ${key} must be a column or aliased SQL, under a plain name`);
    // Qualified by the subquery's alias: an aliased field alone renders as its bare name.
    const value = is(field, SQL.Aliased)
      ? sql`${sql.identifier(alias)}.${sql.identifier(field.fieldAlias)}`
      : fields[key];
    return sql`${sql.raw(`'${key}'`)}, ${value}`;
  });
  return sql`(select json_group_array(json_object(${sql.join(pairs, sql`, `)})) from ${sub})`.mapWith(parseRows<Row>);
}

const parseRows = <Row>(value: unknown): Row[] =>
  typeof value === 'string' && value !== '' ? (JSON.parse(value) as Row[]) : [];
