import { sql } from 'drizzle-orm';
import { check, index, integer, sqliteTable, text, uniqueIndex, type AnySQLiteColumn } from 'drizzle-orm/sqlite-core';
import { agenda } from './agenda';
import { cadastroFot } from './cadastro-fot';
import { timestamps, uuidPk } from './columns';
import { convites } from './convites';
import { profissionais } from './profissionais';

/** Finance (docs/decisions.md#d18-finance, README "Money"). Amounts are integer cents. */

export const TIPO_LANCAMENTO = ['receita', 'despesa'] as const;
export type TipoLancamento = (typeof TIPO_LANCAMENTO)[number];

export const LANCAMENTO_STATUS = ['previsto', 'pago', 'cancelado', 'estornado'] as const;
export type LancamentoStatus = (typeof LANCAMENTO_STATUS)[number];

export const ORIGEM_LANCAMENTO = ['manual', 'contrato', 'cache', 'pedido', 'importacao', 'estorno'] as const;
export type OrigemLancamento = (typeof ORIGEM_LANCAMENTO)[number];

/**
 * The system categories every region has (seeded by migration 0007 for the known regions, and
 * ensured in the batch of any write that needs one: services/financeiro.ts ensureSystemCategories).
 * `sistema` is their stable key: names are for people, code looks them up by key.
 */
export const CATEGORIAS_SISTEMA = {
  contrato: { nome: 'Contrato', tipo: 'receita' },
  pacotes_fotos: { nome: 'Pacotes de fotos', tipo: 'receita' },
  cache_profissional: { nome: 'Cachê profissional', tipo: 'despesa' },
  logistica: { nome: 'Logística', tipo: 'despesa' },
  equipamento: { nome: 'Equipamento', tipo: 'despesa' },
  captacao: { nome: 'Captação', tipo: 'despesa' },
} as const satisfies Record<string, { nome: string; tipo: TipoLancamento }>;
export type CategoriaSistema = keyof typeof CATEGORIAS_SISTEMA;

/** A regional catalog (same shape as the others: label + label_key) with a `tipo` and, for system ones, a key. */
export const categoriasFinanceiras = sqliteTable(
  'categorias_financeiras',
  {
    id: uuidPk(),
    regiao: text('regiao').notNull(),
    label: text('nome').notNull(),
    labelKey: text('nome_key').notNull(),
    tipo: text('tipo', { enum: TIPO_LANCAMENTO }).notNull(),
    sistema: text('sistema'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('categorias_financeiras_regiao_key_uq').on(t.regiao, t.labelKey),
    uniqueIndex('categorias_financeiras_regiao_sistema_uq')
      .on(t.regiao, t.sistema)
      .where(sql`${t.sistema} is not null`),
  ],
);

/** A class's contract: its installments are `lancamentos` with `contrato_id`. */
export const contratos = sqliteTable(
  'contratos',
  {
    id: uuidPk(),
    regiao: text('regiao').notNull(),
    fotId: text('fot_id')
      .notNull()
      .references(() => cadastroFot.id, { onDelete: 'restrict' }),
    valorTotalCentavos: integer('valor_total_centavos').notNull(),
    parcelas: integer('parcelas').notNull(),
    primeiroVencimento: text('primeiro_vencimento').notNull(),
    descricao: text('descricao'),
    ...timestamps,
  },
  (t) => [
    index('contratos_regiao_created_idx').on(t.regiao, t.createdAt, t.id),
    index('contratos_fot_idx').on(t.fotId, t.createdAt),
    check('contratos_valor_positivo', sql`${t.valorTotalCentavos} > 0`),
  ],
);

/**
 * A financial entry. Its amount never changes once `pago` (no route updates it at all); transitions
 * are guarded `UPDATE ... WHERE status = ...`. Links to events, classes and professionals survive
 * the deletion of what they point at (ON DELETE SET NULL: the money happened).
 */
export const lancamentos = sqliteTable(
  'lancamentos',
  {
    id: uuidPk(),
    regiao: text('regiao').notNull(),
    tipo: text('tipo', { enum: TIPO_LANCAMENTO }).notNull(),
    categoriaId: text('categoria_id')
      .notNull()
      .references(() => categoriasFinanceiras.id, { onDelete: 'restrict' }),
    descricao: text('descricao').notNull(),
    valorCentavos: integer('valor_centavos').notNull(),
    vencimento: text('vencimento').notNull(),
    status: text('status', { enum: LANCAMENTO_STATUS }).notNull().default('previsto'),
    pagoEm: text('pago_em'),
    fotId: text('fot_id').references(() => cadastroFot.id, { onDelete: 'set null' }),
    agendaId: text('agenda_id').references(() => agenda.id, { onDelete: 'set null' }),
    profissionalId: text('profissional_id').references(() => profissionais.id, { onDelete: 'set null' }),
    origem: text('origem', { enum: ORIGEM_LANCAMENTO }).notNull().default('manual'),
    estornoDe: text('estorno_de').references((): AnySQLiteColumn => lancamentos.id, { onDelete: 'restrict' }),
    contratoId: text('contrato_id').references(() => contratos.id, { onDelete: 'restrict' }),
    parcela: integer('parcela'),
    /** The fee of one invitation (origem `cache`): at most one not `cancelado` per invitation (partial unique index). */
    conviteId: text('convite_id').references(() => convites.id, { onDelete: 'set null' }),
    /** Caller-chosen key (imports, orders): unique per region when present. */
    chaveExterna: text('chave_externa'),
    ...timestamps,
  },
  (t) => [
    index('lancamentos_regiao_vencimento_idx').on(t.regiao, t.vencimento, t.id),
    index('lancamentos_regiao_status_vencimento_idx').on(t.regiao, t.status, t.vencimento),
    index('lancamentos_categoria_idx').on(t.categoriaId),
    index('lancamentos_fot_idx').on(t.fotId),
    index('lancamentos_agenda_idx').on(t.agendaId),
    index('lancamentos_profissional_idx').on(t.profissionalId, t.vencimento),
    index('lancamentos_contrato_idx').on(t.contratoId, t.parcela),
    uniqueIndex('lancamentos_estorno_de_uq').on(t.estornoDe),
    uniqueIndex('lancamentos_convite_uq')
      .on(t.conviteId)
      .where(sql`${t.conviteId} is not null and ${t.status} <> 'cancelado'`),
    uniqueIndex('lancamentos_regiao_chave_externa_uq')
      .on(t.regiao, t.chaveExterna)
      .where(sql`${t.chaveExterna} is not null`),
    check('lancamentos_valor_positivo', sql`${t.valorCentavos} > 0`),
  ],
);

export type CategoriaFinanceiraRow = typeof categoriasFinanceiras.$inferSelect;
export type ContratoRow = typeof contratos.$inferSelect;
export type LancamentoRow = typeof lancamentos.$inferSelect;
