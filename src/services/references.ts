import { sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Db } from '../env';
import { ApiError } from '../lib/errors';

type RegionalTable = SQLiteTable & { id: SQLiteColumn; regiao: SQLiteColumn };

export interface Ref {
  /** Wire name of the body field, used in the error. */
  field: string;
  table: RegionalTable;
  id: string | null | undefined;
}

/**
 * Checks in ONE query that every referenced id exists in the caller's region (decisions D5: a
 * record only references entries of its own region). 404 NOT_FOUND names the first missing field.
 */
export async function assertRefsInRegion(db: Db, regiao: string, refs: Ref[]) {
  const present = refs.filter((r): r is Ref & { id: string } => typeof r.id === 'string');
  if (present.length === 0) return;
  const cols: SQL[] = present.map(
    (r) => sql`(select 1 from ${r.table} where ${r.table.id} = ${r.id} and ${r.table.regiao} = ${regiao})`,
  );
  const row = await db.values<(number | null)[]>(sql`select ${sql.join(cols, sql`, `)}`);
  const missing = present.find((_, i) => row[0]?.[i] !== 1);
  if (missing) throw new ApiError('NOT_FOUND', `${missing.field}: not found in region ${regiao}`);
}
