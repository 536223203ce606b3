import * as inbox from '../../services/core/notifications';
import { foldedHandler, handler, logCtx } from '../route';
import { pageWithCursor } from '../../lib/cursor';
import { encodeNotificationCursor } from './notifications.schemas';
import * as r from './notifications.routes';

export const list = foldedHandler(r.list, async (c, { read }) => {
  const q = c.req.valid('query');
  const [rows] = await read((scope) => [inbox.inboxPageSelect(c.get('db'), scope, q)]);
  const page = pageWithCursor(c, rows, q.limit, (last) => encodeNotificationCursor(last.createdAt, last.id));
  return c.json(page.map(inbox.toNotification), 200);
});

export const unreadCount = foldedHandler(r.unreadCount, async (c, { read }) => {
  const [[row]] = await read((scope) => [inbox.unreadCountSelect(c.get('db'), scope)]);
  return c.json({ count: row?.n ?? 0 }, 200);
});

export const readAll = handler(r.readAll, async (c) => {
  const n = await inbox.markAllRead(c.get('db'), logCtx(c), c.get('user').id);
  return c.json(
    { message: n === 1 ? '1 notificação marcada como lida' : `${n} notificações marcadas como lidas`, count: n },
    200,
  );
});

export const markRead = handler(r.markRead, async (c) =>
  c.json(await inbox.markRead(c.get('db'), logCtx(c), c.get('user').id, c.req.valid('param').id), 200),
);

export const remove = handler(r.remove, async (c) => {
  await inbox.deleteNotification(c.get('db'), logCtx(c), c.get('user').id, c.req.valid('param').id);
  return c.body(null, 204);
});

export const addPushToken = handler(r.addPushToken, async (c) => {
  const { token, plataforma } = c.req.valid('json');
  return c.json(await inbox.savePushToken(c.get('db'), logCtx(c), c.get('user').id, token, plataforma), 201);
});

export const removePushToken = handler(r.removePushToken, async (c) => {
  await inbox.deletePushToken(c.get('db'), logCtx(c), c.get('user').id, c.req.valid('json').token);
  return c.body(null, 204);
});
