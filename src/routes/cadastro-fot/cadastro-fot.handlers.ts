import type { RouteHandler } from '@hono/zod-openapi';
import { and, asc, count, desc, eq, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { cadastroFot } from '../../db/schema';
import type { AppEnv, Db } from '../../env';
import {
  authorizedBatch,
  placeholderScope,
  scopeShape,
  scopeValues,
  type ScopeShape,
  type SqlScope,
} from '../../middleware/auth';
import { preparedSelect } from '../../db/fast-select';
import { ApiError } from '../../lib/errors';
import { isPaged, pageBounds, setTotal, totalOf } from '../../lib/pagination';
import { fotColumns, fotRefs, selectFots, toFotResponse } from '../../services/cadastro-fot';
import { assertRefsInRegion } from '../../services/references';
import type * as r from './cadastro-fot.routes';

/** What the caller may see (decisions D4): administrators the region, an EVENT_OWNER its company. */
function visible(user: SqlScope, regiao: string | Placeholder): SQL[] {
  const conds: SQL[] = [eq(cadastroFot.regiao, regiao)];
  if (user.role === 'EVENT_OWNER') conds.push(user.empresaId ? eq(cadastroFot.empresaId, user.empresaId) : sql`0`);
  return conds;
}

const notFound = () => new ApiError('NOT_FOUND', 'FOT record not found');

// The reads' selects, prepared per scope shape (and filter) so their SQL is built once.
const ph = sql.placeholder;
type ListShape = ScopeShape & { filtro: boolean };
const listWhere = (s: ListShape) =>
  and(...visible(placeholderScope(s), ph('regiao')), s.filtro ? eq(cadastroFot.empresaId, ph('filtro')) : undefined);
const fotPage = preparedSelect((db: Db, s: ListShape) =>
  selectFots(db)
    .where(listWhere(s))
    .orderBy(desc(cadastroFot.updatedAt), asc(cadastroFot.id))
    .limit(ph('limit'))
    .offset(ph('offset')),
);
const fotCount = preparedSelect((db: Db, s: ListShape) =>
  db.select({ n: count() }).from(cadastroFot).where(listWhere(s)),
);
const fotById = preparedSelect((db: Db, s: ScopeShape) =>
  selectFots(db).where(and(eq(cadastroFot.id, ph('id')), ...visible(placeholderScope(s), ph('regiao')))),
);

export const list: RouteHandler<typeof r.list, AppEnv> = async (c) => {
  const { db, regiao } = c.var;
  const { empresa_id, ...page } = c.req.valid('query');
  const [rows, counted] = await authorizedBatch(c, (user) => {
    const shape = { ...scopeShape(user), filtro: empresa_id !== undefined };
    const values = { ...scopeValues(user), regiao, filtro: empresa_id ?? null, ...pageBounds(page) };
    return [fotPage(db, shape, values), ...(isPaged(page) ? [fotCount(db, shape, values)] : [])];
  });
  setTotal(c, totalOf(counted, rows.length));
  return c.json(rows.map(toFotResponse), 200);
};

export const get: RouteHandler<typeof r.get, AppEnv> = async (c) => {
  const { db, regiao } = c.var;
  const { id } = c.req.valid('param');
  const [[row]] = await authorizedBatch(c, (user) => [
    fotById(db, scopeShape(user), { ...scopeValues(user), regiao, id }),
  ]);
  if (!row) throw notFound();
  return c.json(toFotResponse(row), 200);
};

export const create: RouteHandler<typeof r.create, AppEnv> = async (c) => {
  const { db, regiao } = c.var;
  const body = c.req.valid('json');
  await assertRefsInRegion(db, regiao, fotRefs(body));
  const id = crypto.randomUUID();
  const values = { id, regiao, ...fotColumns(body) } as typeof cadastroFot.$inferInsert;
  const [, [row]] = await db.batch([
    db.insert(cadastroFot).values(values),
    selectFots(db).where(eq(cadastroFot.id, id)),
  ]);
  return c.json(toFotResponse(row!), 201);
};

export const update: RouteHandler<typeof r.update, AppEnv> = async (c) => {
  const { db, regiao } = c.var;
  const { id } = c.req.valid('param');
  const body = c.req.valid('json');
  await assertRefsInRegion(db, regiao, fotRefs(body));
  const where = and(eq(cadastroFot.id, id), eq(cadastroFot.regiao, regiao));
  const [, [row]] = await db.batch([
    db
      .update(cadastroFot)
      .set({ ...fotColumns(body), updatedAt: new Date().toISOString() })
      .where(where),
    selectFots(db).where(where),
  ]);
  if (!row) throw notFound();
  return c.json(toFotResponse(row), 200);
};

export const remove: RouteHandler<typeof r.remove, AppEnv> = async (c) => {
  const { db, regiao } = c.var;
  const res = await db
    .delete(cadastroFot)
    .where(and(eq(cadastroFot.id, c.req.valid('param').id), eq(cadastroFot.regiao, regiao)));
  if (res.meta.changes === 0) throw notFound();
  return c.body(null, 204);
};
