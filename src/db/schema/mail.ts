import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { timestamps, uuidPk } from './columns';
import { users } from './users';

/** The e-mails the API sends (docs/decisions.md#d14); each has one template in services/core/mail.ts. */
export const EMAIL_TIPOS = [
  'redefinir_senha',
  'senha_alterada',
  'convite_acesso',
  'pesquisa',
  'cabeca_log',
  'chave_pix_alterada',
] as const;
export type EmailTipo = (typeof EMAIL_TIPOS)[number];

/**
 * pendente → enviando (claimed by one consumer) → enviado; back to pendente for a retry after a
 * transient provider failure; falhou when the provider refuses it or the attempts run out.
 */
export const EMAIL_STATUS = ['pendente', 'enviando', 'enviado', 'falhou'] as const;
export type EmailStatus = (typeof EMAIL_STATUS)[number];

/**
 * The e-mail outbox: a request inserts its row in the same D1 batch as its change, then enqueues
 * the row's id on EMAIL_QUEUE; src/queue/email-consumer.ts claims the row (guarded UPDATE) and
 * sends it, with the row id as the provider's idempotency key. The body is rendered by the
 * consumer from `tipo` + `dados`; a link's secret token is kept only encrypted (`segredo`,
 * AES-GCM under a key derived from JWT_SECRET), never in plain form.
 */
export const emailOutbox = sqliteTable(
  'email_outbox',
  {
    id: uuidPk(),
    para: text('para').notNull(),
    tipo: text('tipo', { enum: EMAIL_TIPOS }).notNull(),
    dados: text('dados', { mode: 'json' }).$type<Record<string, unknown>>().notNull().default({}),
    segredo: text('segredo'),
    status: text('status', { enum: EMAIL_STATUS }).notNull().default('pendente'),
    tentativas: integer('tentativas').notNull().default(0),
    /** When the row may be (re)sent: now at creation, now + backoff after a failed attempt. */
    disponivelEm: text('disponivel_em').notNull(),
    enviadoEm: text('enviado_em'),
    providerId: text('provider_id'),
    erro: text('erro'),
    ...timestamps,
  },
  (t) => [
    // The hourly cap of forgot-password e-mails per address counts these rows.
    index('email_outbox_para_tipo_created_idx').on(t.para, t.tipo, t.createdAt),
    index('email_outbox_status_disponivel_idx').on(t.status, t.disponivelEm),
  ],
);

export type EmailOutboxRow = typeof emailOutbox.$inferSelect;

export const RESET_TOKEN_TIPOS = ['redefinir', 'convite'] as const;

/**
 * Single-use tokens of POST /auth/reset-password (a forgot-password link or an access invitation):
 * only the SHA-256 of the token is stored. `used_at` when redeemed, `revoked_at` when a newer token
 * of the same user (or a reset) voided it.
 */
export const passwordResetTokens = sqliteTable(
  'password_reset_tokens',
  {
    id: uuidPk(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tipo: text('tipo', { enum: RESET_TOKEN_TIPOS }).notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: text('expires_at').notNull(),
    usedAt: text('used_at'),
    revokedAt: text('revoked_at'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('password_reset_tokens_user_idx').on(t.userId)],
);
