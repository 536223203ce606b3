import { sql } from 'drizzle-orm';
import { check, index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { cadastroFot } from './cadastro-fot';
import { timestamps, uuidPk } from './columns';

/**
 * Photo packages, orders and payment notifications (docs/decisions.md#d19; docs/guide/payments.md).
 * Money in integer cents.
 */

/** A package a company sells to each graduate, per region. */
export const pacotes = sqliteTable(
  'pacotes',
  {
    id: uuidPk(),
    regiao: text('regiao').notNull(),
    nome: text('nome').notNull(),
    descricao: text('descricao'),
    precoCentavos: integer('preco_centavos').notNull(),
    parcelasMax: integer('parcelas_max').notNull().default(1),
    ativo: integer('ativo', { mode: 'boolean' }).notNull().default(true),
    ...timestamps,
  },
  (t) => [
    index('pacotes_regiao_nome_idx').on(t.regiao, t.nome, t.id),
    check('pacotes_parcelas_max_check', sql`${t.parcelasMax} between 1 and 12`),
    check('pacotes_preco_check', sql`${t.precoCentavos} > 0`),
  ],
);

export type PacoteRow = typeof pacotes.$inferSelect;

/**
 * pendente → pago (approved payment) → estornado (its paying payment refunded or charged back);
 * pendente → expirado (scheduled job, past expira_em) or cancelado (POST /cancelar).
 * A payment approved on an expired or cancelled order still makes it pago: the money arrived.
 * Another payment approved once the order is paid changes nothing: it is a pagamentos_duplicados row.
 */
export const PEDIDO_STATUS = ['pendente', 'pago', 'expirado', 'cancelado', 'estornado'] as const;
export type PedidoStatus = (typeof PEDIDO_STATUS)[number];

export const pedidos = sqliteTable(
  'pedidos',
  {
    id: uuidPk(),
    regiao: text('regiao').notNull(),
    fotId: text('fot_id')
      .notNull()
      .references(() => cadastroFot.id, { onDelete: 'restrict' }),
    pacoteId: text('pacote_id')
      .notNull()
      .references(() => pacotes.id, { onDelete: 'restrict' }),
    pacoteNome: text('pacote_nome').notNull(),
    compradorNome: text('comprador_nome').notNull(),
    compradorEmail: text('comprador_email').notNull(),
    compradorCpf: text('comprador_cpf').notNull(),
    valorCentavos: integer('valor_centavos').notNull(),
    parcelas: integer('parcelas').notNull(),
    status: text('status', { enum: PEDIDO_STATUS }).notNull().default('pendente'),
    /** The checkout's init_point, filled by the payment consumer (null while it is being created). */
    urlPagamento: text('url_pagamento'),
    preferenciaId: text('preferencia_id'),
    /** The gateway's payment that paid the order: only its refund or chargeback reverses the order. */
    pagamentoId: text('pagamento_id'),
    /** The revenue entry its payment posted (docs/decisions.md#d18), which a refund reverses. */
    lancamentoId: text('lancamento_id'),
    expiraEm: text('expira_em').notNull(),
    pagoEm: text('pago_em'),
    estornadoEm: text('estornado_em'),
    /** Who created it and the Idempotency-Key it came with: unique per caller. */
    criadoPor: text('criado_por').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    /** SHA-256 of the canonical request (region + validated body): same key, other body → 409. */
    requestHash: text('request_hash').notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('pedidos_idempotency_idx').on(t.criadoPor, t.idempotencyKey),
    index('pedidos_regiao_created_idx').on(t.regiao, t.createdAt, t.id),
    index('pedidos_regiao_status_created_idx').on(t.regiao, t.status, t.createdAt, t.id),
    index('pedidos_fot_created_idx').on(t.fotId, t.createdAt, t.id),
    index('pedidos_status_expira_idx').on(t.status, t.expiraEm),
    index('pedidos_pacote_idx').on(t.pacoteId),
  ],
);

export type PedidoRow = typeof pedidos.$inferSelect;

/**
 * A payment approved for an order that another payment had already paid (docs/decisions.md#d19): the
 * money arrived twice and the second must be refunded. Recorded once per gateway payment (the unique
 * key is what makes its log entry and the administrators' notification happen once, however often
 * the gateway notifies it); it never changes the order. `status_gateway` follows the payment
 * (`approved`, then `refunded` / `charged_back` once it is given back).
 */
export const pagamentosDuplicados = sqliteTable(
  'pagamentos_duplicados',
  {
    id: uuidPk(),
    regiao: text('regiao').notNull(),
    pedidoId: text('pedido_id')
      .notNull()
      .references(() => pedidos.id, { onDelete: 'restrict' }),
    provedor: text('provedor').notNull(),
    pagamentoId: text('pagamento_id').notNull(),
    valorCentavos: integer('valor_centavos').notNull(),
    statusGateway: text('status_gateway').notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('pagamentos_duplicados_pagamento_uq').on(t.provedor, t.pagamentoId),
    index('pagamentos_duplicados_pedido_idx').on(t.pedidoId),
  ],
);

export type PagamentoDuplicadoRow = typeof pagamentosDuplicados.$inferSelect;

/** recebida → processada (the payment was read and applied) | ignorada (not ours, unknown) | divergente (amount mismatch). */
export const NOTIFICACAO_STATUS = ['recebida', 'processada', 'ignorada', 'divergente'] as const;

/**
 * Each verified webhook notification, once: `chave` is its signed manifest
 * (`id:<data.id>;request-id:<x-request-id>;ts:<ts>;`), so a replayed request is recorded once.
 */
export const pagamentoNotificacoes = sqliteTable(
  'pagamento_notificacoes',
  {
    id: uuidPk(),
    provedor: text('provedor').notNull(),
    pagamentoId: text('pagamento_id').notNull(),
    chave: text('chave').notNull().unique(),
    status: text('status', { enum: NOTIFICACAO_STATUS }).notNull().default('recebida'),
    pedidoId: text('pedido_id'),
    erro: text('erro'),
    ...timestamps,
  },
  (t) => [index('pagamento_notificacoes_status_idx').on(t.status, t.createdAt)],
);

export type PagamentoNotificacaoRow = typeof pagamentoNotificacoes.$inferSelect;
