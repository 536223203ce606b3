import type { RouteConfig, RouteHandler } from '@hono/zod-openapi';
import { and, asc, count, eq } from 'drizzle-orm';
import type { Selectable } from '../../db/fast-select';
import type { Context } from 'hono';
import type { CatalogTable } from '../../db/schema';
import { nowIso } from '../../db/schema/columns';
import type { AppEnv, Db } from '../../env';
import { authorizedBatch } from '../../middleware/auth';
import { ApiError } from '../../lib/errors';
import { nameKey } from '../../lib/names';
import { isPaged, pageBounds, setTotal, totalOf, type Page } from '../../lib/pagination';
import { toCatalogResponse, type CatalogConfig, type CatalogField, type CatalogRow } from './catalogs.schemas';

// Data access: plain functions of (db, table, regiao), shared with the event types.

/** Read in the order of the unique index (regiao, label_key), so SQLite needs no sort step; id only makes the order explicit. */
export const listCatalog = (db: Db, table: CatalogTable, regiao: string, page: Page = {}) =>
  db
    .select()
    .from(table)
    .where(eq(table.regiao, regiao))
    .orderBy(asc(table.labelKey), asc(table.id))
    .limit(pageBounds(page).limit)
    .offset(pageBounds(page).offset);

const countCatalog = (db: Db, table: CatalogTable, regiao: string) =>
  db.select({ n: count() }).from(table).where(eq(table.regiao, regiao));

/** A duplicate name is refused by the unique index (409 CONFLICT through mapDbError), never by a read first. */
export async function insertCatalog(db: Db, table: CatalogTable, regiao: string, label: string): Promise<CatalogRow> {
  const now = nowIso(); // one clock reading: a new entry's updated_at equals its created_at
  const [row] = await db
    .insert(table)
    .values({ regiao, label, labelKey: nameKey(label), createdAt: now, updatedAt: now })
    .returning();
  return row!;
}

export async function updateCatalog(
  db: Db,
  table: CatalogTable,
  regiao: string,
  id: string,
  label: string,
  noun: string,
) {
  const [row] = await db
    .update(table)
    .set({ label, labelKey: nameKey(label) })
    .where(and(eq(table.id, id), eq(table.regiao, regiao)))
    .returning();
  if (!row) throw new ApiError('NOT_FOUND', `${noun} not found`);
  return row;
}

/** A referenced entry is refused by its foreign keys (ON DELETE RESTRICT → 409 IN_USE through mapDbError). */
export async function deleteCatalog(db: Db, table: CatalogTable, regiao: string, id: string, noun: string) {
  const res = await db.delete(table).where(and(eq(table.id, id), eq(table.regiao, regiao)));
  if (res.meta.changes === 0) throw new ApiError('NOT_FOUND', `${noun} not found`);
}

/** Turns rows into response bodies; event types add their prices here. */
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

/** What the generic handlers read from a request: the route's own Zod schemas produce exactly this. */
type CatalogInput = { in: {}; out: { param: { id: string }; json: Record<string, string>; query: Page } };
export type CatalogHandler = (c: Context<AppEnv, string, CatalogInput>) => Promise<Response>;

/**
 * Hands a generic handler to `.openapi()` for one concrete route. TypeScript cannot evaluate a
 * route's typed-response union inside a generic factory, so the handlers are checked against
 * CatalogInput and the presenter's output type instead; the routers, and so AppType, keep the
 * routes' precise types, and the tests check every body against the response schema.
 */
export const asRouteHandler = <R extends RouteConfig>(_route: R, handler: CatalogHandler) =>
  handler as unknown as RouteHandler<R, AppEnv>;

export function catalogHandlers<Out, Related = never>(cfg: CatalogConfig, present: CatalogPresenter<Out, Related>) {
  const { table, field, noun } = cfg;

  /** One round trip, authentication included: the page, its total when paged, the related rows. */
  const list: CatalogHandler = async (c) => {
    const { db, regiao } = c.var;
    const page = c.req.valid('query');
    const paged = isPaged(page);
    const [rows, ...more] = (await authorizedBatch(c, () => [
      listCatalog(db, table, regiao, page),
      ...(paged ? [countCatalog(db, table, regiao)] : []),
      ...(present.related ? [present.related(db, regiao, page)] : []),
    ])) as [CatalogRow[], ...unknown[]];
    setTotal(c, totalOf(paged ? (more.shift() as { n: number }[]) : undefined, rows.length));
    return c.json(present.list(rows, (more.shift() as Related[] | undefined) ?? []), 200);
  };

  const create: CatalogHandler = async (c) => {
    const { db, regiao } = c.var;
    const row = await insertCatalog(db, table, regiao, c.req.valid('json')[field]!);
    return c.json(await present.one(db, regiao, row, true), 201);
  };

  const update: CatalogHandler = async (c) => {
    const { db, regiao } = c.var;
    const row = await updateCatalog(db, table, regiao, c.req.valid('param').id, c.req.valid('json')[field]!, noun);
    return c.json(await present.one(db, regiao, row, false), 200);
  };

  const remove: CatalogHandler = async (c) => {
    await deleteCatalog(c.var.db, table, c.var.regiao, c.req.valid('param').id, noun);
    return cfg.deleteStyle === 'message' ? c.json({ message: `${noun} deleted` }, 200) : c.body(null, 204);
  };

  return { list, create, update, remove };
}
