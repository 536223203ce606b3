import { desc } from 'drizzle-orm';
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * The activity log (docs/decisions.md#d15): one row per change made through the API, written in the
 * change's own batch by services/core/activity-log.ts. Append-only: triggers (migration
 * 0004_activity_log_append_only) refuse UPDATE and DELETE. No foreign keys: an entry outlives its
 * actor and its entity (a FK with ON DELETE SET NULL would be an UPDATE, which the trigger refuses).
 *
 * `seq` is the order of the hash chain: AUTOINCREMENT never reuses a value and, D1 writing one batch
 * at a time, commit order is seq order. `dados` is JSON text `{campo: {antes, depois}}`.
 */
export const logsAtividade = sqliteTable(
  'logs_atividade',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    id: text('id').notNull().unique(),
    createdAt: text('created_at').notNull(),
    atorId: text('ator_id'),
    atorRole: text('ator_role'),
    acao: text('acao').notNull(),
    entidade: text('entidade').notNull(),
    entidadeId: text('entidade_id'),
    /** null: a global resource (users, sessions, notifications). */
    regiao: text('regiao'),
    requestId: text('request_id'),
    dados: text('dados').notNull().default('{}'),
  },
  // The list is newest first (seq desc) under each filter: one index per filter, seq last.
  (t) => [
    index('logs_atividade_entidade_idx').on(t.entidade, t.entidadeId, desc(t.seq)),
    index('logs_atividade_ator_idx').on(t.atorId, desc(t.seq)),
    index('logs_atividade_acao_idx').on(t.acao, desc(t.seq)),
    index('logs_atividade_regiao_idx').on(t.regiao, desc(t.seq)),
    index('logs_atividade_created_idx').on(t.createdAt),
  ],
);

/**
 * The hash chain, sealed by the scheduled job (src/scheduled/seal-activity-log.ts) in seq order.
 * `versao` says which rule sealed the row (docs/decisions.md#d15): 0, the first rule, without a key:
 * hash = SHA-256(hash_anterior + canonical JSON of the entry); n >= 1, HMAC-SHA256 of the same text
 * under version n of LOG_CHAIN_SECRET (a Worker secret, never in D1). Rows sealed before the key
 * existed keep version 0 and are never sealed again. Append-only too; the primary key on seq and
 * the job's guard ("only the entry right after the last seal") make a second seal of an entry
 * impossible, whatever the number of overlapping runs.
 */
export const logsAtividadeSelos = sqliteTable('logs_atividade_selos', {
  seq: integer('seq').primaryKey(),
  hashAnterior: text('hash_anterior').notNull(),
  hash: text('hash').notNull(),
  seladoEm: text('selado_em').notNull(),
  versao: integer('versao').notNull().default(0),
});

/**
 * The head of the chain published once per São Paulo day (the e-mail to the SUPERADMINs): the day
 * is the primary key, so overlapping runs publish one head and send one e-mail; `id` is the run
 * that got in (its e-mails are written only with its row). Append-only (triggers). A copy in D1 is
 * no proof: the e-mail is; this row is what made it exactly once.
 */
export const logsAtividadeCabecas = sqliteTable('logs_atividade_cabecas', {
  dia: text('dia').primaryKey(),
  id: text('id').notNull(),
  seq: integer('seq').notNull(),
  hash: text('hash').notNull(),
  versao: integer('versao').notNull(),
  createdAt: text('created_at').notNull(),
});

export type LogAtividadeRow = typeof logsAtividade.$inferSelect;
