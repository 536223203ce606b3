import { desc } from 'drizzle-orm';
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { timestamps, uuidPk } from './columns';
import { users } from './users';

export const NOTIFICATION_PLATFORMS = ['android', 'ios', 'web'] as const;

/** In-app notifications (docs/decisions.md#d10); they go with their user. */
export const notifications = sqliteTable(
  'notifications',
  {
    id: uuidPk(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tipo: text('tipo').notNull(),
    titulo: text('titulo').notNull(),
    mensagem: text('mensagem').notNull(),
    dados: text('dados', { mode: 'json' }).$type<Record<string, unknown>>().notNull().default({}),
    lida: integer('lida', { mode: 'boolean' }).notNull().default(false),
    readAt: text('read_at'),
    ...timestamps,
  },
  (t) => [
    index('notifications_user_created_idx').on(t.userId, desc(t.createdAt), desc(t.id)),
    index('notifications_user_lida_idx').on(t.userId, t.lida),
  ],
);

/** Push tokens (Expo format); a token belongs to one user at a time. */
export const pushTokens = sqliteTable(
  'push_tokens',
  {
    id: uuidPk(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    token: text('token').notNull().unique(),
    plataforma: text('plataforma', { enum: NOTIFICATION_PLATFORMS }).notNull(),
    ...timestamps,
  },
  (t) => [index('push_tokens_user_idx').on(t.userId)],
);

export type NotificationRow = typeof notifications.$inferSelect;
