import { z } from '@hono/zod-openapi';
import { errors, IdParam, jsonBody, jsonResponse } from '../openapi';
import {
  DeletePushTokenRequest,
  NotificationListQuery,
  NotificationSchema,
  PushTokenRequest,
  PushTokenSchema,
  ReadAllSchema,
  UnreadCountSchema,
} from './notifications.schemas';
import { authedRoute } from '../route';
import { nextCursorHeader } from '../../lib/cursor';

const tags = ['Notifications'];
// Every role, own notifications only (docs/decisions.md#d4, #d10); pending accounts are refused by auth().

export const list = authedRoute({
  method: 'get',
  path: '/',
  tags,
  fold: true,
  summary: "The caller's notifications, newest first",
  description:
    'Newest first (created_at, then id, descending). When more remain, the answer carries `X-Next-Cursor`: pass it as `antes` ' +
    'for the next page (exact, even among notifications created at the same instant). A malformed `antes` or `limit` is 400.',
  request: { query: NotificationListQuery },
  responses: {
    200: {
      ...jsonResponse(z.array(NotificationSchema), 'Notifications'),
      headers: nextCursorHeader,
    },
  },
});

export const unreadCount = authedRoute({
  method: 'get',
  path: '/unread-count',
  tags,
  fold: true,
  summary: 'How many of the caller’s notifications are unread',
  responses: { 200: jsonResponse(UnreadCountSchema, '{"count": N}') },
});

export const readAll = authedRoute({
  method: 'put',
  path: '/read-all',
  tags,
  summary: 'Mark every unread notification of the caller read',
  responses: { 200: jsonResponse(ReadAllSchema, 'How many were marked') },
});

export const addPushToken = authedRoute({
  method: 'post',
  path: '/push-token',
  tags,
  summary: 'Register a device push token (Expo) for the caller',
  description: 'A token belongs to one user at a time: registering a token another user held moves it to the caller.',
  request: { body: jsonBody(PushTokenRequest) },
  responses: { 201: jsonResponse(PushTokenSchema, 'Stored') },
});

export const removePushToken = authedRoute({
  method: 'delete',
  path: '/push-token',
  tags,
  summary: 'Remove one of the caller’s push tokens',
  description:
    'Idempotent: 204 also when the caller holds no such token (another user’s token is never touched or confirmed).',
  request: { body: jsonBody(DeletePushTokenRequest) },
  responses: { 204: { description: 'Removed (or not held by the caller)' } },
});

export const markRead = authedRoute({
  method: 'put',
  path: '/{id}/read',
  tags,
  summary: 'Mark one notification read',
  description: '`read_at` is set the first time only. Another user’s notification is 404.',
  request: { params: IdParam },
  responses: { 200: jsonResponse(NotificationSchema, 'The notification'), 404: errors[404] },
});

export const remove = authedRoute({
  method: 'delete',
  path: '/{id}',
  tags,
  summary: 'Delete one notification',
  request: { params: IdParam },
  responses: { 204: { description: 'Deleted' }, 404: errors[404] },
});
