import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { timestamps, uuidPk } from './columns';
import { agenda } from './agenda';
import { convites } from './convites';
import { profissionais } from './profissionais';

/**
 * The WhatsApp messages the API sends (docs/decisions.md#d30): approved templates (an invitation with
 * its two quick replies, the D-2/D-1 reminders, a call-sheet change, a payout paid) and the free text
 * that answers a button reply.
 */
export const WHATSAPP_TIPOS = [
  'convite_evento',
  'lembrete_d2',
  'lembrete_d1',
  'logistica_alterada',
  'repasse_pago',
  'resposta',
] as const;
export type WhatsappTipo = (typeof WHATSAPP_TIPOS)[number];

/**
 * pendente → enviando (claimed by one consumer) → enviado (Meta accepted it) → entregue → lido, the
 * last two from the webhook's statuses; back to pendente for a retry after a transient failure;
 * falhou when Meta refuses it, the attempts run out or a status says so.
 */
export const WHATSAPP_STATUS = ['pendente', 'enviando', 'enviado', 'entregue', 'lido', 'falhou'] as const;
export type WhatsappStatus = (typeof WHATSAPP_STATUS)[number];

/**
 * The WhatsApp outbox, like the e-mail one (src/db/schema/mail.ts): a write inserts its row in its own batch,
 * enqueues the id on WHATSAPP_QUEUE, and src/queue/whatsapp-consumer.ts claims and sends it. `chave`
 * is the message's once-only key (kind, cause, recipient): a retried write or job inserts nothing the
 * second time. `wamid` is Meta's message id, which the webhook's statuses name.
 */
export const whatsappOutbox = sqliteTable(
  'whatsapp_outbox',
  {
    id: uuidPk(),
    chave: text('chave').notNull(),
    tipo: text('tipo', { enum: WHATSAPP_TIPOS }).notNull(),
    /** E.164 (`+55...`), copied from the consented profile when the row is written. */
    para: text('para').notNull(),
    profissionalId: text('profissional_id').references(() => profissionais.id, { onDelete: 'set null' }),
    conviteId: text('convite_id').references(() => convites.id, { onDelete: 'set null' }),
    /** The invitation's event: the office's view reads one event's rows from its index. */
    agendaId: text('agenda_id').references(() => agenda.id, { onDelete: 'cascade' }),
    /** Template parameters (or the text of a `resposta`). */
    dados: text('dados', { mode: 'json' }).$type<Record<string, unknown>>().notNull().default({}),
    status: text('status', { enum: WHATSAPP_STATUS }).notNull().default('pendente'),
    tentativas: integer('tentativas').notNull().default(0),
    disponivelEm: text('disponivel_em').notNull(),
    wamid: text('wamid'),
    erro: text('erro'),
    enviadoEm: text('enviado_em'),
    entregueEm: text('entregue_em'),
    lidoEm: text('lido_em'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('whatsapp_outbox_chave_idx').on(t.chave),
    uniqueIndex('whatsapp_outbox_wamid_idx')
      .on(t.wamid)
      .where(sql`${t.wamid} is not null`),
    index('whatsapp_outbox_status_disponivel_idx').on(t.status, t.disponivelEm),
    index('whatsapp_outbox_agenda_tipo_idx').on(t.agendaId, t.tipo),
    // The foreign keys' own lookups (an invitation's or a profile's deletion sets them null).
    index('whatsapp_outbox_convite_idx').on(t.conviteId),
    index('whatsapp_outbox_profissional_idx').on(t.profissionalId),
  ],
);

export type WhatsappOutboxRow = typeof whatsappOutbox.$inferSelect;

/** Inbound message ids already handled by the webhook: each is processed once (the primary key). */
export const whatsappRecebidas = sqliteTable('whatsapp_recebidas', {
  id: text('id').primaryKey(),
  de: text('de').notNull(),
  createdAt: text('created_at').notNull(),
});

/**
 * The invitations answered with their WhatsApp buttons: the quick-reply token is single use because
 * this primary key admits one row per invitation, inserted in the answer's own batch (a second tap
 * aborts that batch: services/whatsapp/webhook.ts). A reply refused by the rules removes its row.
 */
export const whatsappRespostas = sqliteTable('whatsapp_respostas', {
  conviteId: text('convite_id')
    .primaryKey()
    .references(() => convites.id, { onDelete: 'cascade' }),
  mensagemId: text('mensagem_id').notNull(),
  createdAt: text('created_at').notNull(),
});

/** The statuses of a sent message the webhook tracks (Meta's names). */
export const WHATSAPP_STATUS_RECEBIDOS = ['delivered', 'read', 'failed'] as const;

/**
 * Statuses that arrived before their message's `wamid` was written (Meta may call the webhook before
 * the consumer's settle lands): kept here by wamid, once per kind, and applied by the consumer in the
 * batch that writes the wamid, which deletes them. The webhook writes a row only while no outbox row
 * has the wamid, in the batch that would have updated it; D1 runs the two batches one after the
 * other, so each status is applied exactly once, by one side or the other (services/core/whatsapp.ts).
 * A row whose wamid never appears (a message sent outside the API) is deleted after a day by the
 * scheduled requeue-pending-whatsapp.
 */
export const whatsappStatusPendentes = sqliteTable(
  'whatsapp_status_pendentes',
  {
    wamid: text('wamid').notNull(),
    status: text('status', { enum: WHATSAPP_STATUS_RECEBIDOS }).notNull(),
    /** When it happened (Meta's timestamp). */
    em: text('em').notNull(),
    erro: text('erro'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.wamid, t.status] }), index('whatsapp_status_pendentes_created_idx').on(t.createdAt)],
);
