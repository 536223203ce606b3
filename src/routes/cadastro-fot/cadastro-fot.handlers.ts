import type { RouteHandler } from '@hono/zod-openapi';
import { and, asc, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import { cadastroFot } from '../../db/schema';
import type { AppEnv } from '../../env';
import { authorizedBatch, type Scope } from '../../middleware/auth';
import { ApiError } from '../../lib/errors';
import { pageBounds, setTotal } from '../../lib/pagination';
import { fotColumns, fotRefs, selectFots, toFotResponse } from '../../services/cadastro-fot';
import { assertRefsInRegion } from '../../services/references';
import type * as r from './cadastro-fot.routes';

/** What the caller may see (decisions D4): administrators the region, an EVENT_OWNER its company. */
function visible(user: Scope, regiao: string): SQL[] {
  const conds: SQL[] = [eq(cadastroFot.regiao, regiao)];
  if (user.role === 'EVENT_OWNER') conds.push(user.empresaId ? eq(cadastroFot.empresaId, user.empresaId) : sql`0`);
  return conds;
}

const notFound = () => new ApiError('NOT_FOUND', 'FOT record not found');

export const list: RouteHandler<typeof r.list, AppEnv> = async (c) => {
  const { db, regiao } = c.var;
  const { empresa_id, ...page } = c.req.valid('query');
  const { limit, offset } = pageBounds(page);
  const [rows, [total]] = await authorizedBatch(c, (user) => {
    const conds = visible(user, regiao);
    if (empresa_id) conds.push(eq(cadastroFot.empresaId, empresa_id));
    return [
      selectFots(db).where(and(...conds)).orderBy(desc(cadastroFot.updatedAt), asc(cadastroFot.id)).limit(limit).offset(offset),
      db.select({ n: count() }).from(cadastroFot).where(and(...conds)),
    ];
  });
  setTotal(c, total?.n ?? 0);
  return c.json(rows.map(toFotResponse), 200);
};

export const get: RouteHandler<typeof r.get, AppEnv> = async (c) => {
  const { db, regiao } = c.var;
  const { id } = c.req.valid('param');
  const [[row]] = await authorizedBatch(c, (user) => [selectFots(db).where(and(eq(cadastroFot.id, id), ...visible(user, regiao)))]);
  if (!row) throw notFound();
  return c.json(toFotResponse(row), 200);
};

export const create: RouteHandler<typeof r.create, AppEnv> = async (c) => {
  const { db, regiao } = c.var;
  const body = c.req.valid('json');
  await assertRefsInRegion(db, regiao, fotRefs(body));
  const id = crypto.randomUUID();
  const values = { id, regiao, ...fotColumns(body) } as typeof cadastroFot.$inferInsert;
  const [, [row]] = await db.batch([db.insert(cadastroFot).values(values), selectFots(db).where(eq(cadastroFot.id, id))]);
  return c.json(toFotResponse(row!), 201);
};

export const update: RouteHandler<typeof r.update, AppEnv> = async (c) => {
  const { db, regiao } = c.var;
  const { id } = c.req.valid('param');
  const body = c.req.valid('json');
  await assertRefsInRegion(db, regiao, fotRefs(body));
  const where = and(eq(cadastroFot.id, id), eq(cadastroFot.regiao, regiao));
  const [, [row]] = await db.batch([
    db.update(cadastroFot).set({ ...fotColumns(body), updatedAt: new Date().toISOString() }).where(where),
    selectFots(db).where(where),
  ]);
  if (!row) throw notFound();
  return c.json(toFotResponse(row), 200);
};

export const remove: RouteHandler<typeof r.remove, AppEnv> = async (c) => {
  const { db, regiao } = c.var;
  const res = await db.delete(cadastroFot).where(and(eq(cadastroFot.id, c.req.valid('param').id), eq(cadastroFot.regiao, regiao)));
  if (res.meta.changes === 0) throw notFound();
  return c.body(null, 204);
};
