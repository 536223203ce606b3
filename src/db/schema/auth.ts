import { index, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { timestamps, uuidPk } from './columns';
import { users } from './users';

/** Only the SHA-256 of a refresh token is stored. `family_id` ties every rotation of one login. */
export const refreshTokens = sqliteTable(
  'refresh_tokens',
  {
    id: uuidPk(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    familyId: text('family_id').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: text('expires_at').notNull(),
    revokedAt: text('revoked_at'),
    replacedBy: text('replaced_by'),
    ...timestamps,
  },
  (t) => [index('refresh_tokens_user_idx').on(t.userId), index('refresh_tokens_family_idx').on(t.familyId)],
);

/** One row per failed login, keyed `email:<e>` and `ip:<ip>`; counted over a sliding window. */
export const loginFailures = sqliteTable(
  'login_failures',
  {
    id: uuidPk(),
    key: text('key').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [
    index('login_failures_key_created_idx').on(t.key, t.createdAt),
    index('login_failures_created_idx').on(t.createdAt),
  ],
);
