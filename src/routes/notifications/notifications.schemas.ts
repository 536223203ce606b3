import { z } from '@hono/zod-openapi';
import { out } from '../openapi';
import { NOTIFICATION_PLATFORMS } from '../../db/schema';
import { reqStr, UUID_RE } from '../../lib/fields';
import { NOTIFICATION_TIPOS } from '../../services/notifications';

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
 * The `antes` cursor: base64url of "<created_at>|<id>" of the last notification of a page, so the next
 * page starts exactly after it even when many share one created_at. Also accepted: a bare ISO-8601
 * timestamp (notifications created strictly before it).
 */
export interface Cursor {
  createdAt: string;
  id?: string;
}

const ISO_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;
const isIso = (s: string) => ISO_RE.test(s) && !Number.isNaN(Date.parse(s));

export const encodeCursor = (createdAt: string, id: string) =>
  btoa(`${createdAt}|${id}`).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

export function decodeCursor(s: string): Cursor | undefined {
  if (isIso(s)) return { createdAt: new Date(s).toISOString() };
  if (!/^[A-Za-z0-9_-]+$/.test(s)) return undefined;
  let decoded: string;
  try {
    decoded = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    return undefined;
  }
  const [createdAt, id, ...rest] = decoded.split('|');
  if (rest.length || !createdAt || !id || !isIso(createdAt) || !UUID_RE.test(id)) return undefined;
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
  limit: z
    .string()
    .regex(/^\d{1,4}$/, 'must be an integer from 1 to 200')
    .transform(Number)
    .refine((n) => n >= 1 && n <= 200, 'must be an integer from 1 to 200')
    .optional()
    .transform((n) => n ?? 50)
    .openapi({ param: { name: 'limit', in: 'query' }, type: 'integer', minimum: 1, maximum: 200, default: 50 }),
  antes: z
    .string()
    .max(200)
    .transform((s, ctx) => {
      const cursor = decodeCursor(s.trim());
      if (!cursor) {
        ctx.addIssue({
          code: 'custom',
          message: 'must be the X-Next-Cursor of the previous page or an ISO-8601 timestamp',
        });
        return z.NEVER;
      }
      return cursor;
    })
    .optional()
    .openapi({
      param: { name: 'antes', in: 'query' },
      type: 'string',
      description:
        'The `X-Next-Cursor` header of the previous page (exact paging), or an ISO-8601 timestamp: only notifications created before it',
    }),
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
