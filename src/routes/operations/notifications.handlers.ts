import * as inbox from '../../services/operations/notifications';
import { foldedHandler, handler } from '../route';
import { pageWithCursor } from '../../lib/cursor';
import { encodeNotificationCursor } from './notifications.schemas';
import * as r from './notifications.routes';

export const list = foldedHandler(r.list, async (c, ctx) => {
  const q = c.req.valid('query');
  const [rows] = await ctx.read((scope) => [inbox.inboxPageSelect(ctx, scope, q)]);
  const page = pageWithCursor(c, rows, q.limit, (last) => encodeNotificationCursor(last.createdAt, last.id));
  return c.json(page.map(inbox.toNotification), 200);
});

export const unreadCount = foldedHandler(r.unreadCount, async (c, ctx) => {
  const [[row]] = await ctx.read((scope) => [inbox.unreadCountSelect(ctx, scope)]);
  return c.json({ count: row?.n ?? 0 }, 200);
});

export const readAll = handler(r.readAll, async (c, ctx) => {
  const n = await inbox.markAllRead(ctx);
  return c.json(
    { message: n === 1 ? '1 notificação marcada como lida' : `${n} notificações marcadas como lidas`, count: n },
    200,
  );
});

export const markRead = handler(r.markRead, async (c, ctx) =>
  c.json(await inbox.markRead(ctx, c.req.valid('param').id), 200),
);

export const remove = handler(r.remove, async (c, ctx) => {
  await inbox.deleteNotification(ctx, c.req.valid('param').id);
  return c.body(null, 204);
});

export const addPushToken = handler(r.addPushToken, async (c, ctx) =>
  c.json(await inbox.savePushToken(ctx, c.req.valid('json')), 201),
);

export const removePushToken = handler(r.removePushToken, async (c, ctx) => {
  await inbox.deletePushToken(ctx, c.req.valid('json').token);
  return c.body(null, 204);
});
