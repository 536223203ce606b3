import type { RouteConfig, RouteHandler } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { fastSelect } from '../../db/fast-select';
import type { AppEnv } from '../../env';
import { isPaged, setTotal, totalOf, type Page } from '../../lib/pagination';
import { forgetCached } from '../../middleware/cached';
import {
  countCatalog,
  deleteCatalog,
  insertCatalog,
  listCatalog,
  updateCatalog,
  type CatalogPresenter,
  type CatalogRow,
} from '../../services/catalogs/catalogs';
import type { Ctx, QueryCtx, Read, ReadCtx, WriteCtx } from '../../services/core/context';
import { ctxOf } from '../route';
import { publicListEntries } from './catalogs.routes';
import type { CatalogConfig } from './catalogs.schemas';

/** What the generic handlers read from a request: the route's own Zod schemas produce exactly this. */
type CatalogInput = { in: {}; out: { param: { id: string }; json: Record<string, unknown>; query: Page } };
type CatalogContext = Context<AppEnv, string, CatalogInput>;
export type CatalogHandler = (c: CatalogContext, ctx: Ctx) => Promise<Response>;

/**
 * Hands a generic handler to `.openapi()` for one concrete route, with the request's context
 * (routes/route.ts ctxOf). TypeScript cannot evaluate a route's typed-response union inside a
 * generic factory, so the handlers are checked against CatalogInput and the presenter's output type
 * instead; the routers, and so AppType, keep the routes' precise types, and the tests check every
 * body against the response schema.
 */
export const asRouteHandler = <R extends RouteConfig>(_route: R, h: CatalogHandler) =>
  ((c: CatalogContext) => h(c, ctxOf(c))) as unknown as RouteHandler<R, AppEnv>;

/** The public list has no caller to check: its selects run as they are. */
const anonymousRead =
  ({ db }: QueryCtx): Read =>
  (build) =>
    fastSelect(db, build(undefined as never));

export function catalogHandlers<Out, Related = never>(cfg: CatalogConfig, present: CatalogPresenter<Out, Related>) {
  const { table, field, notFound: missing } = cfg;
  // A catalog with columns of its own (institutions) gives their values and explains its own failures.
  const own = (c: CatalogContext, create: boolean) => cfg.columns?.(c.req.valid('json'), create);
  const explained = (e: unknown) => {
    throw cfg.writeError?.(e) ?? e;
  };

  /**
   * After a write to a catalog whose list is public (edge-cached), this colo's cached variants of the
   * region's list go before the answer: the next anonymous reader here sees the change at once.
   */
  const forgetList = (c: CatalogContext, { regiao }: QueryCtx) =>
    cfg.publicList ? forgetCached(c, publicListEntries(cfg.path, regiao)) : undefined;

  /** One round trip, authentication included: the page, its total when paged, the related rows. */
  const listWith = async (c: CatalogContext, ctx: QueryCtx & { read: Read }) => {
    const page = c.req.valid('query');
    const paged = isPaged(page);
    const [rows, ...more] = (await ctx.read(() => [
      listCatalog(ctx, table, page),
      ...(paged ? [countCatalog(ctx, table)] : []),
      ...(present.related ? [present.related(ctx, page)] : []),
    ])) as [CatalogRow[], ...unknown[]];
    setTotal(c, totalOf(paged ? (more.shift() as { n: number }[]) : undefined, rows.length));
    return c.json(present.list(rows, (more.shift() as Related[] | undefined) ?? []), 200);
  };

  /** For foldedHandler(): the read comes with the caller's check. */
  const list = (c: CatalogContext, ctx: ReadCtx) => listWith(c, ctx);
  const publicList: CatalogHandler = (c, ctx) => listWith(c, { ...ctx, read: anonymousRead(ctx) });

  /** For foldedHandler(): the author's check travels in the insert's batch (db/authored.ts). */
  const create = async (c: CatalogContext, ctx: WriteCtx) => {
    const label = c.req.valid('json')[field] as string;
    const row = await insertCatalog(ctx, { table, label, extra: own(c, true) }).catch(explained);
    await forgetList(c, ctx);
    return c.json(await present.one(ctx, row, true), 201);
  };

  const update: CatalogHandler = async (c, ctx) => {
    const row = await updateCatalog(ctx, {
      table,
      id: c.req.valid('param').id,
      label: c.req.valid('json')[field] as string,
      missing,
      extra: own(c, false),
    }).catch(explained);
    await forgetList(c, ctx);
    return c.json(await present.one(ctx, row, false), 200);
  };

  const remove: CatalogHandler = async (c, ctx) => {
    await deleteCatalog(ctx, { table, id: c.req.valid('param').id, missing });
    await forgetList(c, ctx);
    return cfg.deleteStyle === 'message' ? c.json({ message: cfg.deleted ?? 'excluído' }, 200) : c.body(null, 204);
  };

  return { list, publicList, create, update, remove };
}
