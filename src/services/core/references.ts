import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../db/client';
import { ApiError } from '../../lib/errors';
import type { QueryCtx } from './context';

type RegionalTable = SQLiteTable & { id: SQLiteColumn; regiao: SQLiteColumn };

export interface Ref {
  /** Wire name of the body field, used in the error. */
  field: string;
  table: RegionalTable;
  /** A placeholder in a cached batch (db/cached-batch.ts). */
  id: string | Placeholder | null | undefined;
  /** The 404's message when missing (default `<field>: not found in region <regiao>`). */
  message?: string;
}

/**
 * Checks in ONE query that every referenced id exists in the caller's region (docs/decisions.md#d5: a
 * record only references entries of its own region). 404 NOT_FOUND names the first missing field.
 * `extra`, a scalar SQL expression, is computed in the same query and returned (so a lookup the
 * write needs anyway, such as the recipients of its notifications, costs no round trip of its own).
 */
export async function assertRefsInRegion({ db, regiao }: QueryCtx, refs: Ref[], extra?: SQL): Promise<unknown> {
  const present = refs.filter((r) => r.id !== null && r.id !== undefined);
  if (present.length === 0 && !extra) return undefined;
  const cols: SQL[] = present.map(
    (r) => sql`(select 1 from ${r.table} where ${r.table.id} = ${r.id} and ${r.table.regiao} = ${regiao})`,
  );
  const row = await db.values<unknown[]>(sql`select ${sql.join(extra ? [...cols, extra] : cols, sql`, `)}`);
  const missing = present.find((_, i) => row[0]?.[i] !== 1);
  if (missing)
    throw new ApiError('NOT_FOUND', missing.message ?? `${missing.field}: registro não encontrado na região ${regiao}`);
  return extra ? row[0]?.[present.length] : undefined;
}

/**
 * The same check for a folded write, with no round trip of its own: `condition` (every referenced
 * id exists in the region) guards the write's statements, and `select` (one row, a 0/1 per ref),
 * run after a write that wrote nothing, lets `assertFound(row)` answer the same 404.
 */
export function refsInRegion(db: Db, regiao: string | Placeholder, refs: Ref[]) {
  const present = refs.filter((r) => r.id !== null && r.id !== undefined);
  const exprs = present.map(
    (r) => sql`exists (select 1 from ${r.table} where ${r.table.id} = ${r.id} and ${r.table.regiao} = ${regiao})`,
  );
  const columns: Record<string, SQL<number>> = { none: sql<number>`1` };
  exprs.forEach((e, i) => (columns[`r${i}`] = sql<number>`${e}`.mapWith(Number)));
  return {
    condition: exprs.length ? sql.join(exprs, sql` and `) : sql`1`,
    select: db.select(columns).from(sql`(select 1)`),
    assertFound(rows: Record<string, number>[]) {
      const missing = present.find((_, i) => rows[0]?.[`r${i}`] !== 1);
      if (missing)
        throw new ApiError(
          'NOT_FOUND',
          missing.message ?? `${missing.field}: registro não encontrado na região ${regiao}`,
        );
    },
  };
}

/**
 * A guarded write refused although, read again, every reference exists: one appeared between the
 * write and the explanation. Nothing was written; the client may simply send it again.
 */
export const referencesChanged = () =>
  new ApiError('CONFLICT', 'as referências mudaram enquanto isso: nada foi gravado, tente de novo');
