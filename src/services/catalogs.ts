import { and, asc, count, eq, getTableName } from 'drizzle-orm';
import type { AuthoredWrite } from '../db/authored';
import type { Db } from '../db/client';
import { insertWhere } from '../db/guarded';
import type { Selectable } from '../db/fast-select';
import type { CatalogTable } from '../db/schema';
import { nowIso } from '../db/schema/columns';
import { ApiError } from '../lib/errors';
import { nameKey } from '../lib/names';
import { pageBounds, type Page } from '../lib/pagination';
import { changed, created, deleted, logRowWrite, logStatement, type LogCtx } from './activity-log';

/**
 * The generic regional catalog (cursos, empresas, funcoes, tipos-servicos, anos-formaturas, and
 * the event types that reuse it): its queries and response mapper, as plain functions of
 * (db, table, regiao). Visibility is the region alone: every active user reads a region's entries.
 */

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
export async function insertCatalog(
  db: Db,
  write: AuthoredWrite,
  table: CatalogTable,
  regiao: string,
  label: string,
): Promise<CatalogRow> {
  const now = nowIso(); // one clock reading: a new entry's updated_at equals its created_at
  const values = { id: crypto.randomUUID(), regiao, label, labelKey: nameKey(label), createdAt: now, updatedAt: now };
  const entidade = getTableName(table);
  const [[row]] = await write((author) => [
    insertWhere(db, table, values, author.guard).returning(),
    logStatement(db, author.log, {
      acao: `${entidade}.create`,
      entidade,
      entidadeId: values.id,
      regiao,
      dados: created(table, values),
      when: author.guard,
    }),
  ]);
  return row!;
}

export async function updateCatalog(
  db: Db,
  log: LogCtx,
  table: CatalogTable,
  regiao: string,
  id: string,
  label: string,
  noun: string,
) {
  const where = and(eq(table.id, id), eq(table.regiao, regiao));
  const set = { label, labelKey: nameKey(label) };
  const entidade = getTableName(table);
  const [, [row]] = await db.batch([
    logRowWrite(db, log, table, where, { acao: `${entidade}.update`, entidade, regiao, dados: changed(table, set) }),
    db.update(table).set(set).where(where).returning(),
  ]);
  if (!row) throw new ApiError('NOT_FOUND', `${noun} not found`);
  return row;
}

/** A referenced entry is refused by its foreign keys (ON DELETE RESTRICT → 409 IN_USE through mapDbError). */
export async function deleteCatalog(
  db: Db,
  log: LogCtx,
  table: CatalogTable,
  regiao: string,
  id: string,
  noun: string,
) {
  const where = and(eq(table.id, id), eq(table.regiao, regiao));
  const entidade = getTableName(table);
  const [, res] = await db.batch([
    logRowWrite(db, log, table, where, { acao: `${entidade}.delete`, entidade, regiao, dados: deleted(table) }),
    db.delete(table).where(where),
  ]);
  if (res.meta.changes === 0) throw new ApiError('NOT_FOUND', `${noun} not found`);
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
