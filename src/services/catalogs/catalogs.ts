import { and, asc, count, eq, getTableColumns, getTableName, type SQL } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { GuardShape } from '../../db/authored';
import { cachedBatch, returned, run, type Statements } from '../../db/cached-batch';
import { insertColumnsWhere } from '../../db/guarded';
import type { Selectable } from '../../db/fast-select';
import type { CatalogTable } from '../../db/schema';
import { nowIso } from '../../db/schema/columns';
import { ApiError } from '../../lib/errors';
import { nameKey } from '../../lib/names';
import { pageBounds, type Page } from '../../lib/pagination';
import { createdEntry, loggedDelete, loggedUpdate, WRITE_PARAMS, writerOf, writeValues } from '../core/activity-log';
import type { Ctx, QueryCtx, WriteCtx } from '../core/context';

/**
 * The generic regional catalog (cursos, empresas, funcoes, tipos-servicos, anos-formaturas, and
 * the event types that reuse it): its queries and response mapper, as plain functions of the
 * request's context (db, regiao) and the table. Visibility is the region alone: every active user reads a region's entries.
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
export const listCatalog = ({ db, regiao }: QueryCtx, table: CatalogTable, page: Page = {}) =>
  db
    .select()
    .from(table)
    .where(eq(table.regiao, regiao))
    .orderBy(asc(table.labelKey), asc(table.id))
    .limit(pageBounds(page).limit)
    .offset(pageBounds(page).offset);

export const countCatalog = ({ db, regiao }: QueryCtx, table: CatalogTable) =>
  db.select({ n: count() }).from(table).where(eq(table.regiao, regiao));

/** A new entry of `table`: its label, and what a catalog with columns of its own adds. */
export type CatalogCreate<T extends CatalogTable> = { table: T; label: string } & Pick<
  CatalogWriteOptions<T['$inferSelect']>,
  'extra' | 'before'
>;

/**
 * A duplicate name is refused by the unique index (409 CONFLICT through mapDbError), never by a read
 * first. A folded write: the insert and its log entry carry the author check (db/authored.ts).
 */
export async function insertCatalog<T extends CatalogTable>(
  { db, regiao, write }: Pick<WriteCtx, 'db' | 'regiao' | 'write'>,
  { table, label, extra, before }: CatalogCreate<T>,
): Promise<T['$inferSelect']> {
  const now = nowIso(); // one clock reading: a new entry's updated_at equals its created_at
  const values: Record<string, unknown> = {
    id: crypto.randomUUID(),
    regiao,
    label,
    labelKey: nameKey(label),
    // Every column binds (insertOf): a table with columns of its own gives each of them here.
    ...extra,
    createdAt: now,
    updatedAt: now,
  };
  const results = await write(
    (author) => ({
      ...before,
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
        log: run(createdEntry({ db, log }, table, { columns, row: p })),
      };
    },
  });
};
export function catalogInsert(table: CatalogTable) {
  let insert = insertsByTable.get(table);
  if (!insert) insertsByTable.set(table, (insert = insertOf(table)));
  return insert;
}

/** One entry of `table` in the caller's region, and the 404 sentence when it is not there ("curso não encontrado"). */
type CatalogEntry<T extends CatalogTable> = { table: T; id: string; missing: string };
export type CatalogUpdate<T extends CatalogTable> = CatalogEntry<T> & { label: string } & Omit<
    CatalogWriteOptions<T['$inferSelect']>,
    'before'
  >;
export type CatalogDelete<T extends CatalogTable> = CatalogEntry<T> &
  Pick<CatalogWriteOptions<T['$inferSelect']>, 'guard' | 'refused' | 'notFound'>;

/** The entry's own condition, and the write's (with the catalog's own rule). */
const entryWhere = <T extends CatalogTable>(regiao: string, w: CatalogEntry<T> & { guard?: SQL }) => {
  const mine = and(eq(w.table.id, w.id), eq(w.table.regiao, regiao));
  return { mine, where: and(mine, w.guard) };
};

export async function updateCatalog<T extends CatalogTable>(
  { db, log, regiao }: Pick<Ctx, 'db' | 'log' | 'regiao'>,
  w: CatalogUpdate<T>,
): Promise<T['$inferSelect']> {
  const { table, label } = w;
  const { mine, where } = entryWhere(regiao, w);
  const set = { label, labelKey: nameKey(label), ...w.extra };
  const entidade = getTableName(table);
  const [entry, update] = loggedUpdate(
    { db, log },
    { table: table as CatalogTable, where, set },
    { acao: `${entidade}.update`, entidade, regiao },
  );
  const [, [row], current] = (await db.batch([
    entry,
    update.returning(),
    ...(w.refused ? [db.select().from(table).where(mine)] : []),
  ] as unknown as [BatchItem<'sqlite'>])) as unknown as [unknown, T['$inferSelect'][], T['$inferSelect'][] | undefined];
  if (row) return row;
  throw refusal(w, current?.[0]);
}

const refusal = <Row>(w: CatalogWriteOptions<Row> & { missing: string }, current: Row | undefined) =>
  current && w.refused ? w.refused(current) : (w.notFound?.() ?? new ApiError('NOT_FOUND', w.missing));

/** A referenced entry is refused by its foreign keys (ON DELETE RESTRICT → 409 IN_USE through mapDbError). */
export async function deleteCatalog<T extends CatalogTable>(
  { db, log, regiao }: Pick<Ctx, 'db' | 'log' | 'regiao'>,
  w: CatalogDelete<T>,
) {
  const { table } = w;
  const { mine, where } = entryWhere(regiao, w);
  const entidade = getTableName(table);
  const [entry, remove] = loggedDelete({ db, log }, { table, where }, { acao: `${entidade}.delete`, entidade, regiao });
  const [, res, current] = (await db.batch([
    entry,
    remove,
    ...(w.refused ? [db.select().from(table).where(mine)] : []),
  ] as unknown as [BatchItem<'sqlite'>])) as unknown as [unknown, D1Result, T['$inferSelect'][] | undefined];
  if (res.meta.changes === 0) throw refusal(w, current?.[0]);
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
  related?(ctx: QueryCtx, page: Page): Selectable & PromiseLike<Related[]>;
  list(rows: CatalogRow[], related: Related[]): Out[];
  /** One entry after create (`created`, so nothing relates to it yet) or update. */
  one(ctx: QueryCtx, row: CatalogRow, created: boolean): Promise<Out> | Out;
}

export const plainPresenter = <F extends CatalogField>(
  field: F,
): CatalogPresenter<ReturnType<typeof toCatalogResponse<F>>> => ({
  list: (rows) => rows.map((row) => toCatalogResponse(field, row)),
  one: (_ctx, row) => toCatalogResponse(field, row),
});
