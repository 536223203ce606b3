import type { RouteConfig, RouteHandler } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AuthoredWrite } from '../../db/authored';
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
import type { Read } from '../../services/core/context';
import { logCtx } from '../route';
import { publicListEntries } from './catalogs.routes';
import type { CatalogConfig } from './catalogs.schemas';

/** What the generic handlers read from a request: the route's own Zod schemas produce exactly this. */
type CatalogInput = { in: {}; out: { param: { id: string }; json: Record<string, string>; query: Page } };
type CatalogContext = Context<AppEnv, string, CatalogInput>;
export type CatalogHandler = (c: CatalogContext) => Promise<Response>;

/**
 * Hands a generic handler to `.openapi()` for one concrete route. TypeScript cannot evaluate a
 * route's typed-response union inside a generic factory, so the handlers are checked against
 * CatalogInput and the presenter's output type instead; the routers, and so AppType, keep the
 * routes' precise types, and the tests check every body against the response schema.
 */
export const asRouteHandler = <R extends RouteConfig>(_route: R, handler: CatalogHandler) =>
  handler as unknown as RouteHandler<R, AppEnv>;

/** The public list has no caller to check: its selects run as they are. */
const anonymousRead =
  (c: CatalogContext): Read =>
  (build) =>
    fastSelect(c.get('db'), build(undefined as never));

export function catalogHandlers<Out, Related = never>(cfg: CatalogConfig, present: CatalogPresenter<Out, Related>) {
  const { table, field, notFound } = cfg;

  /**
   * After a write to a catalog whose list is public (edge-cached), this colo's cached variants of the
   * region's list go before the answer: the next anonymous reader here sees the change at once.
   */
  const forgetList = (c: CatalogContext) =>
    cfg.publicList ? forgetCached(c, publicListEntries(cfg.path, c.get('regiao'))) : undefined;

  /** One round trip, authentication included: the page, its total when paged, the related rows. */
  const listWith = async (c: CatalogContext, read: Read) => {
    const db = c.get('db');
    const regiao = c.get('regiao');
    const page = c.req.valid('query');
    const paged = isPaged(page);
    const [rows, ...more] = (await read(() => [
      listCatalog(db, table, regiao, page),
      ...(paged ? [countCatalog(db, table, regiao)] : []),
      ...(present.related ? [present.related(db, regiao, page)] : []),
    ])) as [CatalogRow[], ...unknown[]];
    setTotal(c, totalOf(paged ? (more.shift() as { n: number }[]) : undefined, rows.length));
    return c.json(present.list(rows, (more.shift() as Related[] | undefined) ?? []), 200);
  };

  /** For foldedHandler(): the read comes with the caller's check. */
  const list = (c: CatalogContext, { read }: { read: Read }) => listWith(c, read);
  const publicList: CatalogHandler = (c) => listWith(c, anonymousRead(c));

  /** For foldedHandler(): the author's check travels in the insert's batch (db/authored.ts). */
  const create = async (c: CatalogContext, { write }: { write: AuthoredWrite }) => {
    const db = c.get('db');
    const regiao = c.get('regiao');
    const row = await insertCatalog(db, write, table, regiao, c.req.valid('json')[field]!);
    await forgetList(c);
    return c.json(await present.one(db, regiao, row, true), 201);
  };

  const update: CatalogHandler = async (c) => {
    const db = c.get('db');
    const regiao = c.get('regiao');
    const row = await updateCatalog(
      db,
      logCtx(c),
      table,
      regiao,
      c.req.valid('param').id,
      c.req.valid('json')[field]!,
      notFound,
    );
    await forgetList(c);
    return c.json(await present.one(db, regiao, row, false), 200);
  };

  const remove: CatalogHandler = async (c) => {
    await deleteCatalog(c.get('db'), logCtx(c), table, c.get('regiao'), c.req.valid('param').id, notFound);
    await forgetList(c);
    return cfg.deleteStyle === 'message' ? c.json({ message: cfg.deleted ?? 'excluído' }, 200) : c.body(null, 204);
  };

  return { list, publicList, create, update, remove };
}
