import { and, asc, count, eq, getTableName, type SQL } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { guardTemplate, type AuthoredWrite, type GuardShape } from '../db/authored';
import type { Db } from '../db/client';
import { insertWhereTemplate } from '../db/guarded';
import { preparedStatement } from '../db/prepared-statement';
import type { Selectable } from '../db/fast-select';
import type { CatalogTable } from '../db/schema';
import { nowIso } from '../db/schema/columns';
import { ApiError } from '../lib/errors';
import { nameKey } from '../lib/names';
import { pageBounds, type Page } from '../lib/pagination';
import { changed, createdLogTemplate, deleted, logRowWrite, writeBinds, type LogCtx } from './activity-log';

/**
 * The generic regional catalog (cursos, empresas, funcoes, tipos-servicos, anos-formaturas, and
 * the event types that reuse it): its queries and response mapper, as plain functions of
 * (db, table, regiao). Visibility is the region alone: every active user reads a region's entries.
 * A table of the same shape with columns of its own (finance categories, services/lancamentos.ts)
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
  /** Statements that run first in the write's batch (create). */
  before?: BatchItem<'sqlite'>[];
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
    // An extra left undefined keeps its column's default, as an insert would (a template binds no undefined).
    ...Object.fromEntries(Object.entries(opts.extra ?? {}).filter(([, v]) => v !== undefined)),
    createdAt: now,
    updatedAt: now,
  };
  const statements = catalogInserts(table);
  const before = opts.before ?? [];
  const inserted = (results: unknown[]) => (results[before.length] as T['$inferSelect'][])[0];
  const results = await write(
    (author) => {
      const columns = Object.keys(values);
      const binds = writeBinds(author, values);
      return [
        ...before,
        statements.row(db, { columns, author: author.template.shape }, binds),
        statements.log(db, { columns }, binds),
      ] as unknown as [BatchItem<'sqlite'>];
    },
    // The guarded insert returned its row: the author check held (`before` only ensures fixed rows).
    (results) => inserted(results) !== undefined,
  );
  return inserted(results)!;
}

/**
 * A catalog table's insert and its log entry, each built once per column set (and author check)
 * (db/prepared-statement.ts); made on the table's first create.
 */
const insertsByTable = new WeakMap<CatalogTable, ReturnType<typeof insertsOf>>();
const insertsOf = (table: CatalogTable) => ({
  row: preparedStatement((db: Db, s: { columns: string[]; author: GuardShape }) =>
    insertWhereTemplate(db, table, s.columns, guardTemplate(db, s.author)).returning(),
  ),
  log: preparedStatement((db: Db, s: { columns: string[] }) => createdLogTemplate(db, table, s.columns)),
});
function catalogInserts(table: CatalogTable) {
  let inserts = insertsByTable.get(table);
  if (!inserts) insertsByTable.set(table, (inserts = insertsOf(table)));
  return inserts;
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

/** Turns rows into response bodies; event types add their prices here (services/tipos-eventos.ts). */
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
