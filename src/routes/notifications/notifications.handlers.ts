import type { RouteHandler } from '@hono/zod-openapi';
import { and, count, desc, eq, lt, sql, type SQL } from 'drizzle-orm';
import { notifications, pushTokens, type NotificationRow } from '../../db/schema';
import type { AppEnv } from '../../env';
import { authorizedBatch } from '../../middleware/auth';
import { ApiError } from '../../lib/errors';
import { encodeCursor, type NotificationResponse } from './notifications.schemas';
import type * as r from './notifications.routes';

const notFound = () => new ApiError('NOT_FOUND', 'notification not found');

const toNotification = (n: NotificationRow): NotificationResponse => ({
  id: n.id,
  tipo: n.tipo as NotificationResponse['tipo'],
  titulo: n.titulo,
  mensagem: n.mensagem,
  dados: n.dados ?? {},
  lida: n.lida,
  created_at: n.createdAt,
  updated_at: n.updatedAt,
  read_at: n.readAt,
});

const mine = (userId: string, ...more: SQL[]) => and(eq(notifications.userId, userId), ...more);

export const list: RouteHandler<typeof r.list, AppEnv> = async (c) => {
  const { db } = c.var;
  const { nao_lidas, limit, antes } = c.req.valid('query');
  const conds: SQL[] = [];
  if (nao_lidas) conds.push(eq(notifications.lida, false));
  if (antes?.id) {
    // Row-value comparison on the index order (user_id, created_at desc, id desc): exact after ties.
    conds.push(sql`(${notifications.createdAt}, ${notifications.id}) < (${antes.createdAt}, ${antes.id})`);
  } else if (antes) {
    conds.push(lt(notifications.createdAt, antes.createdAt));
  }
  const [rows] = await authorizedBatch(c, (user) => [
    db
      .select()
      .from(notifications)
      .where(mine(user.id, ...conds))
      .orderBy(desc(notifications.createdAt), desc(notifications.id))
      .limit(limit + 1),
  ]);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  if (rows.length > limit && last) c.header('X-Next-Cursor', encodeCursor(last.createdAt, last.id));
  return c.json(page.map(toNotification), 200);
};

export const unreadCount: RouteHandler<typeof r.unreadCount, AppEnv> = async (c) => {
  const { db } = c.var;
  const [[row]] = await authorizedBatch(c, (user) => [
    db
      .select({ count: count() })
      .from(notifications)
      .where(mine(user.id, eq(notifications.lida, false))),
  ]);
  return c.json({ count: row?.count ?? 0 }, 200);
};

export const readAll: RouteHandler<typeof r.readAll, AppEnv> = async (c) => {
  const { db, user } = c.var;
  const now = new Date().toISOString();
  const res = await db
    .update(notifications)
    .set({ lida: true, readAt: now, updatedAt: now })
    .where(mine(user.id, eq(notifications.lida, false)));
  const n = res.meta.changes;
  return c.json({ message: `${n} notification${n === 1 ? '' : 's'} marked as read`, count: n }, 200);
};

export const markRead: RouteHandler<typeof r.markRead, AppEnv> = async (c) => {
  const { db, user } = c.var;
  const now = new Date().toISOString();
  const [row] = await db
    .update(notifications)
    .set({ lida: true, readAt: sql`coalesce(${notifications.readAt}, ${now})`, updatedAt: now })
    .where(mine(user.id, eq(notifications.id, c.req.valid('param').id)))
    .returning();
  if (!row) throw notFound();
  return c.json(toNotification(row), 200);
};

export const remove: RouteHandler<typeof r.remove, AppEnv> = async (c) => {
  const { db, user } = c.var;
  const res = await db.delete(notifications).where(mine(user.id, eq(notifications.id, c.req.valid('param').id)));
  if (res.meta.changes === 0) throw notFound();
  return c.body(null, 204);
};

export const addPushToken: RouteHandler<typeof r.addPushToken, AppEnv> = async (c) => {
  const { db, user } = c.var;
  const { token, plataforma } = c.req.valid('json');
  const now = new Date().toISOString();
  // One statement on the unique token: a device that changes hands (logout, another login) moves with it.
  const [row] = await db
    .insert(pushTokens)
    .values({ userId: user.id, token, plataforma, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: pushTokens.token, set: { userId: user.id, plataforma, updatedAt: now } })
    .returning();
  return c.json(
    {
      id: row!.id,
      token: row!.token,
      plataforma: row!.plataforma,
      created_at: row!.createdAt,
      updated_at: row!.updatedAt,
    },
    201,
  );
};

export const removePushToken: RouteHandler<typeof r.removePushToken, AppEnv> = async (c) => {
  const { db, user } = c.var;
  await db
    .delete(pushTokens)
    .where(and(eq(pushTokens.userId, user.id), eq(pushTokens.token, c.req.valid('json').token)));
  return c.body(null, 204);
};
