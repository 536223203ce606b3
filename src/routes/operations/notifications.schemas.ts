import { z } from '@hono/zod-openapi';
import { out } from '../openapi';
import { NOTIFICATION_PLATFORMS } from '../../db/schema';
import { reqStr, UUID_RE } from '../../lib/fields';
import { NOTIFICATION_TIPOS } from '../../services/core/notifications';
import { cursorAntes, cursorLimit, cursorParts, encodeCursor } from '../../lib/cursor';
import { isIsoInstant } from '../../lib/dates';

export const NotificationSchema = z
  .object({
    id: out.id(),
    tipo: z.enum(NOTIFICATION_TIPOS),
    titulo: z.string(),
    mensagem: z.string(),
    dados: z
      .record(z.string(), z.unknown())
      .openapi({ example: { agenda_id: '2b1f0c9e-5b7a-4c8e-9a51-0f4f7a3a9e10' } }),
    lida: z.boolean(),
    created_at: out.timestamp(),
    updated_at: out.timestamp(),
    read_at: out.timestamp().nullable(),
  })
  .openapi('Notification');

export type NotificationResponse = z.infer<typeof NotificationSchema>;

/**
 * The `antes` cursor (src/lib/cursor.ts): base64url of "<created_at>|<id>" of the last notification of a
 * page, so the next page starts exactly after it even when many share one created_at. Also accepted: a
 * bare ISO-8601 timestamp (notifications created strictly before it).
 */
export interface Cursor {
  createdAt: string;
  id?: string;
}

export const encodeNotificationCursor = (createdAt: string, id: string) => encodeCursor(createdAt, id);

export function decodeNotificationCursor(s: string): Cursor | undefined {
  if (isIsoInstant(s)) return { createdAt: new Date(s).toISOString() };
  const parts = cursorParts(s);
  if (!parts) return undefined;
  const [createdAt, id, ...rest] = parts;
  if (rest.length || !createdAt || !id || !isIsoInstant(createdAt) || !UUID_RE.test(id)) return undefined;
  return { createdAt, id: id.toLowerCase() };
}

export const NotificationListQuery = z.object({
  nao_lidas: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true')
    .openapi({
      param: { name: 'nao_lidas', in: 'query' },
      type: 'string',
      enum: ['true', 'false'],
      description: 'true: unread only',
    }),
  limit: cursorLimit,
  antes: cursorAntes(decodeNotificationCursor, 'notifications'),
});

export const UnreadCountSchema = z.object({ count: z.number().int() }).openapi('UnreadCount');

export const ReadAllSchema = z.object({ message: z.string(), count: z.number().int() }).openapi('ReadAllResult');

export const PushTokenRequest = z
  .object({
    token: reqStr(255).openapi({ example: 'ExponentPushToken[xxxxxxxxxxxxxxxxxxxxxx]' }),
    plataforma: z.enum(NOTIFICATION_PLATFORMS),
  })
  .openapi('PushTokenRequest');

export const DeletePushTokenRequest = z.object({ token: reqStr(255) }).openapi('DeletePushTokenRequest');

export const PushTokenSchema = z
  .object({
    id: out.id(),
    token: z.string(),
    plataforma: z.enum(NOTIFICATION_PLATFORMS),
    created_at: out.timestamp(),
    updated_at: out.timestamp(),
  })
  .openapi('PushToken');
