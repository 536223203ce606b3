import { sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Db } from '../db/client';
import { ApiError } from '../lib/errors';

type RegionalTable = SQLiteTable & { id: SQLiteColumn; regiao: SQLiteColumn };

export interface Ref {
  /** Wire name of the body field, used in the error. */
  field: string;
  table: RegionalTable;
  id: string | null | undefined;
}

/**
 * Checks in ONE query that every referenced id exists in the caller's region (docs/decisions.md#d5: a
 * record only references entries of its own region). 404 NOT_FOUND names the first missing field.
 * `extra`, a scalar SQL expression, is computed in the same query and returned (so a lookup the
 * write needs anyway, such as the recipients of its notifications, costs no round trip of its own).
 */
export async function assertRefsInRegion(db: Db, regiao: string, refs: Ref[], extra?: SQL): Promise<unknown> {
  const present = refs.filter((r): r is Ref & { id: string } => typeof r.id === 'string');
  if (present.length === 0 && !extra) return undefined;
  const cols: SQL[] = present.map(
    (r) => sql`(select 1 from ${r.table} where ${r.table.id} = ${r.id} and ${r.table.regiao} = ${regiao})`,
  );
  const row = await db.values<unknown[]>(sql`select ${sql.join(extra ? [...cols, extra] : cols, sql`, `)}`);
  const missing = present.find((_, i) => row[0]?.[i] !== 1);
  if (missing) throw new ApiError('NOT_FOUND', `${missing.field}: not found in region ${regiao}`);
  return extra ? row[0]?.[present.length] : undefined;
}
