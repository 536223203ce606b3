import { and, asc, count, eq, getTableColumns, getTableName, type SQL } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { AuthoredWrite, GuardShape } from '../../db/authored';
import { cachedBatch, returned, run, type Statements } from '../../db/cached-batch';
import type { Db } from '../../db/client';
import { insertColumnsWhere } from '../../db/guarded';
import type { Selectable } from '../../db/fast-select';
import type { CatalogTable } from '../../db/schema';
import { nowIso } from '../../db/schema/columns';
import { ApiError } from '../../lib/errors';
import { nameKey } from '../../lib/names';
import { pageBounds, type Page } from '../../lib/pagination';
import {
  changed,
  createdEntry,
  deleted,
  logRowWrite,
  WRITE_PARAMS,
  writerOf,
  writeValues,
  type LogCtx,
} from '../core/activity-log';

/**
 * The generic regional catalog (cursos, empresas, funcoes, tipos-servicos, anos-formaturas, and
 * the event types that reuse it): its queries and response mapper, as plain functions of
 * (db, table, regiao). Visibility is the region alone: every active user reads a region's entries.
 * A table of the same shape with columns of its own (finance categories, services/money/categorias.ts)
 * reuses the writes through `CatalogWriteOptions`: its extra values, the guard of its own rules and
 * the error that explains a refusal.
 */

/**
 * What a catalog with rules of its own adds to the generic writes. `guard` joins the write's WHERE
 * (the rule holds in the statement itself, never by a read before it); when the write changed
 * nothing, `refused` gets the entry as it is (read in the same batch) and names the error, else it
 * is 404 `notFound` (default: the `missing` sentence the write was given, e.g. "curso não encontrado").
 */
export interface CatalogWriteOptions<Row> {
  /** Values of the table's own columns (create, update). */
  extra?: Record<string, unknown>;
  /** Statements that run first in the write's batch (create), by name. */
  before?: Statements;
  guard?: SQL;
  refused?: (current: Row) => ApiError;
  notFound?: () => ApiError;
}

/** The wire name of a catalog's label column. */
export type CatalogField = 'nome' | 'ano_semestre';
export type CatalogRow = CatalogTable['$inferSelect'];

/** Read in the order of the unique index (regiao, label_key), so SQLite needs no sort step; id only makes the order explicit. */
export const listCatalog = (db: Db, table: CatalogTable, regiao: string, page: Page = {}) =>
  db
    .select()
    .from(table)
    .where(eq(table.regiao, regiao))
    .orderBy(asc(table.labelKey), asc(table.id))
    .limit(pageBounds(page).limit)
    .offset(pageBounds(page).offset);

export const countCatalog = (db: Db, table: CatalogTable, regiao: string) =>
  db.select({ n: count() }).from(table).where(eq(table.regiao, regiao));

/**
 * A duplicate name is refused by the unique index (409 CONFLICT through mapDbError), never by a read
 * first. A folded write: the insert and its log entry carry the author check (db/authored.ts).
 */
export async function insertCatalog<T extends CatalogTable>(
  db: Db,
  write: AuthoredWrite,
  table: T,
  regiao: string,
  label: string,
  opts: Pick<CatalogWriteOptions<T['$inferSelect']>, 'extra' | 'before'> = {},
): Promise<T['$inferSelect']> {
  const now = nowIso(); // one clock reading: a new entry's updated_at equals its created_at
  const values: Record<string, unknown> = {
    id: crypto.randomUUID(),
    regiao,
    label,
    labelKey: nameKey(label),
    // Every column binds (insertOf): a table with columns of its own gives each of them here.
    ...opts.extra,
    createdAt: now,
    updatedAt: now,
  };
  const results = await write(
    (author) => ({
      ...opts.before,
      ...catalogInsert(table).bind(
        db,
        { author: author.cached.shape },
        writeValues(author, values as Record<CatalogColumn, unknown>),
      ),
    }),
    // The guarded insert returned its row: the author check held (`before` only ensures fixed rows).
    (r) => r.row.length > 0,
  );
  return results.row[0] as T['$inferSelect'];
}

/**
 * A catalog table's insert and its log entry, built once per author check (db/cached-batch.ts),
 * every column a placeholder; made on the table's first create.
 */
type CatalogColumn = string & keyof CatalogTable['$inferInsert'];
const insertsByTable = new WeakMap<CatalogTable, ReturnType<typeof insertOf>>();
const insertOf = (table: CatalogTable) => {
  const columns = Object.keys(getTableColumns(table)) as CatalogColumn[];
  return cachedBatch({
    params: [...WRITE_PARAMS, ...columns],
    build: (db, s: { author: GuardShape }, p) => {
      const { guard, log } = writerOf(db, s.author, p);
      return {
        row: returned(table, insertColumnsWhere(db, table, columns, p, guard).returning()),
        log: run(createdEntry(db, log, table, columns, p)),
      };
    },
  });
};
export function catalogInsert(table: CatalogTable) {
  let insert = insertsByTable.get(table);
  if (!insert) insertsByTable.set(table, (insert = insertOf(table)));
  return insert;
}

export async function updateCatalog<T extends CatalogTable>(
  db: Db,
  log: LogCtx,
  table: T,
  regiao: string,
  id: string,
  label: string,
  missing: string,
  opts: Omit<CatalogWriteOptions<T['$inferSelect']>, 'before'> = {},
): Promise<T['$inferSelect']> {
  const mine = and(eq(table.id, id), eq(table.regiao, regiao));
  const where = and(mine, opts.guard);
  const set = { label, labelKey: nameKey(label), ...opts.extra };
  const entidade = getTableName(table);
  const [, [row], current] = (await db.batch([
    logRowWrite(db, log, table, where, { acao: `${entidade}.update`, entidade, regiao, dados: changed(table, set) }),
    db
      .update(table as CatalogTable)
      .set(set)
      .where(where)
      .returning(),
    ...(opts.refused ? [db.select().from(table).where(mine)] : []),
  ] as unknown as [BatchItem<'sqlite'>])) as unknown as [unknown, T['$inferSelect'][], T['$inferSelect'][] | undefined];
  if (row) return row;
  throw refusal(opts, current?.[0], missing);
}

const refusal = <Row>(opts: CatalogWriteOptions<Row>, current: Row | undefined, missing: string) =>
  current && opts.refused ? opts.refused(current) : (opts.notFound?.() ?? new ApiError('NOT_FOUND', missing));

/** A referenced entry is refused by its foreign keys (ON DELETE RESTRICT → 409 IN_USE through mapDbError). */
export async function deleteCatalog<T extends CatalogTable>(
  db: Db,
  log: LogCtx,
  table: T,
  regiao: string,
  id: string,
  missing: string,
  opts: Pick<CatalogWriteOptions<T['$inferSelect']>, 'guard' | 'refused' | 'notFound'> = {},
) {
  const mine = and(eq(table.id, id), eq(table.regiao, regiao));
  const where = and(mine, opts.guard);
  const entidade = getTableName(table);
  const [, res, current] = (await db.batch([
    logRowWrite(db, log, table, where, { acao: `${entidade}.delete`, entidade, regiao, dados: deleted(table) }),
    db.delete(table).where(where),
    ...(opts.refused ? [db.select().from(table).where(mine)] : []),
  ] as unknown as [BatchItem<'sqlite'>])) as unknown as [unknown, D1Result, T['$inferSelect'][] | undefined];
  if (res.meta.changes === 0) throw refusal(opts, current?.[0], missing);
}

type LabelShape<F extends CatalogField, S> = { [K in F]: S };

export type CatalogResponse<F extends CatalogField> = {
  id: string;
  regiao: string;
  created_at: string;
  updated_at: string;
} & LabelShape<F, string>;

export const toCatalogResponse = <F extends CatalogField>(field: F, row: CatalogRow) =>
  ({
    id: row.id,
    [field]: row.label,
    regiao: row.regiao,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  }) as CatalogResponse<F>;

/** Turns rows into response bodies; event types add their prices here (services/catalogs/tipos-eventos.ts). */
export interface CatalogPresenter<Out, Related = never> {
  /** One query for the related rows of the whole list or page, run in the list's batch (never one per row). */
  related?(db: Db, regiao: string, page: Page): Selectable & PromiseLike<Related[]>;
  list(rows: CatalogRow[], related: Related[]): Out[];
  /** One entry after create (`created`, so nothing relates to it yet) or update. */
  one(db: Db, regiao: string, row: CatalogRow, created: boolean): Promise<Out> | Out;
}

export const plainPresenter = <F extends CatalogField>(
  field: F,
): CatalogPresenter<ReturnType<typeof toCatalogResponse<F>>> => ({
  list: (rows) => rows.map((row) => toCatalogResponse(field, row)),
  one: (_db, _regiao, row) => toCatalogResponse(field, row),
});
