import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  primaryKey,
  real,
  sqliteTable,
  text,
  uniqueIndex,
  type AnySQLiteColumn,
} from 'drizzle-orm/sqlite-core';
import { agenda } from './agenda';
import { cadastroFot } from './cadastro-fot';
import { timestamps, uuidPk } from './columns';
import { convites } from './convites';
import { profissionais } from './profissionais';

/** Finance (docs/decisions.md#d18-finance, docs/guide/money.md). Amounts are integer cents. */

export const TIPO_LANCAMENTO = ['receita', 'despesa'] as const;
export type TipoLancamento = (typeof TIPO_LANCAMENTO)[number];

export const LANCAMENTO_STATUS = ['previsto', 'pago', 'cancelado', 'estornado'] as const;
export type LancamentoStatus = (typeof LANCAMENTO_STATUS)[number];

// `regra`: an institution's fee written by the rules' application (docs/decisions.md#d25).
export const ORIGEM_LANCAMENTO = ['manual', 'contrato', 'cache', 'pedido', 'importacao', 'estorno', 'regra'] as const;
export type OrigemLancamento = (typeof ORIGEM_LANCAMENTO)[number];

/**
 * The system categories every region has (seeded by migration 0007 for the known regions, and
 * ensured in the batch of any write that needs one: services/money/financeiro.ts ensureSystemCategories).
 * `sistema` is their stable key: names are for people, code looks them up by key.
 */
export const CATEGORIAS_SISTEMA = {
  contrato: { nome: 'Contrato', tipo: 'receita' },
  pacotes_fotos: { nome: 'Pacotes de fotos', tipo: 'receita' },
  cache_profissional: { nome: 'Cachê profissional', tipo: 'despesa' },
  logistica: { nome: 'Logística', tipo: 'despesa' },
  equipamento: { nome: 'Equipamento', tipo: 'despesa' },
  captacao: { nome: 'Captação', tipo: 'despesa' },
  // Institutions' fees written by the rules' application (docs/decisions.md#d25).
  taxa_instituicao: { nome: 'Taxa de instituição', tipo: 'despesa' },
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
    /** Caller-chosen key (imports, orders): unique per region when present; SYSTEM_KEY_PREFIXES are the system's. */
    chaveExterna: text('chave_externa'),
    /**
     * Kept by triggers (drizzle/0035_result_sums.sql): the FOT record of the entry's event, so that
     * the class's kept result sums move with the row's own values (an event deleted or moved).
     * Never written by the application.
     */
    agendaFotId: text('agenda_fot_id'),
    ...timestamps,
  },
  (t) => [
    index('lancamentos_regiao_vencimento_idx').on(t.regiao, t.vencimento, t.id),
    index('lancamentos_regiao_status_vencimento_idx').on(t.regiao, t.status, t.vencimento),
    index('lancamentos_categoria_idx').on(t.categoriaId),
    // A class's or an event's entries in the list's order (vencimento, created_at, id): a page reads
    // its own rows instead of sorting them all.
    index('lancamentos_fot_vencimento_idx').on(t.fotId, t.vencimento, t.createdAt, t.id),
    index('lancamentos_agenda_vencimento_idx').on(t.agendaId, t.vencimento, t.createdAt, t.id),
    index('lancamentos_profissional_idx').on(t.profissionalId, t.vencimento),
    index('lancamentos_contrato_idx').on(t.contratoId, t.parcela),
    // Deleting an invitation sets its fees' convite_id to null: the foreign key needs a full index (the partial unique one does not serve it).
    index('lancamentos_convite_idx').on(t.conviteId),
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

/**
 * The `chave_externa` prefixes the system writes itself: `pedido:<order id>` on an order's revenue
 * entry (services/payments/pagamentos.ts), `taxa:<event id>:<fee>` on an institution's fee
 * (services/operations/regras-aplicar.ts). A client's key may not start with one, in any case (400 on
 * `POST /api/financeiro/lancamentos` and in the import): an administrator's entry holding an order's
 * key in advance would make that order's real payment fail on the unique key for ever. System keys
 * are built only by `systemKey`, so a new kind of key is added to this one list.
 */
export const SYSTEM_KEY_PREFIXES = ['pedido:', 'taxa:'] as const;
export type SystemKeyPrefix = (typeof SYSTEM_KEY_PREFIXES)[number];

export const systemKey = (prefix: SystemKeyPrefix, id: string) => `${prefix}${id}`;

/** The reserved prefix `key` starts with (any case), or undefined. */
export const reservedKeyPrefix = (key: string) => SYSTEM_KEY_PREFIXES.find((p) => key.toLowerCase().startsWith(p));

export type CategoriaFinanceiraRow = typeof categoriasFinanceiras.$inferSelect;
export type ContratoRow = typeof contratos.$inferSelect;
export type LancamentoRow = typeof lancamentos.$inferSelect;

/** Tax tables (docs/decisions.md#d18-finance "Tax"): data, one per `vigencia` (the date it takes effect). */
export const tabelasTributarias = sqliteTable('tabelas_tributarias', {
  vigencia: text('vigencia').primaryKey(),
  /** Percentages as given (11 = 11%); lib/money.ts turns them into exact integers. */
  inssAliquota: real('inss_aliquota').notNull(),
  inssTetoCentavos: integer('inss_teto_centavos').notNull(),
  /** JSON `[{ate_centavos, aliquota, deducao_centavos}]`, ascending, `ate_centavos` null on the last. */
  irrfFaixas: text('irrf_faixas').notNull(),
  issAliquota: real('iss_aliquota').notNull(),
  ...timestamps,
});

export const REPASSE_STATUS = ['rascunho', 'aprovado', 'pago', 'cancelado'] as const;
export type RepasseStatus = (typeof REPASSE_STATUS)[number];

/**
 * A payout batch. `qtd_lancamentos` is how many fees it was built from; `lancamentos_vinculados`,
 * set in the same batch from the link rows actually written, must equal it (CHECK): a fee taken
 * meanwhile by another batch or no longer `previsto` fails the whole creation.
 */
export const repasses = sqliteTable(
  'repasses',
  {
    id: uuidPk(),
    regiao: text('regiao').notNull(),
    de: text('de').notNull(),
    ate: text('ate').notNull(),
    status: text('status', { enum: REPASSE_STATUS }).notNull().default('rascunho'),
    tabelaVigencia: text('tabela_vigencia'),
    totalBrutoCentavos: integer('total_bruto_centavos').notNull(),
    totalInssCentavos: integer('total_inss_centavos').notNull(),
    totalIrrfCentavos: integer('total_irrf_centavos').notNull(),
    totalIssCentavos: integer('total_iss_centavos').notNull(),
    totalLiquidoCentavos: integer('total_liquido_centavos').notNull(),
    qtdLancamentos: integer('qtd_lancamentos').notNull(),
    lancamentosVinculados: integer('lancamentos_vinculados'),
    aprovadoEm: text('aprovado_em'),
    pagoEm: text('pago_em'),
    canceladoEm: text('cancelado_em'),
    ...timestamps,
  },
  (t) => [
    index('repasses_regiao_created_idx').on(t.regiao, t.createdAt, t.id),
    check(
      'repasses_vinculos',
      sql`${t.lancamentosVinculados} is null or ${t.lancamentosVinculados} = ${t.qtdLancamentos}`,
    ),
  ],
);

/** One professional's line of a batch, with the figures frozen at creation. */
export const repasseItens = sqliteTable(
  'repasse_itens',
  {
    id: uuidPk(),
    repasseId: text('repasse_id')
      .notNull()
      .references(() => repasses.id, { onDelete: 'cascade' }),
    profissionalId: text('profissional_id')
      .notNull()
      .references(() => profissionais.id, { onDelete: 'restrict' }),
    nome: text('nome').notNull(),
    cpfCnpj: text('cpf_cnpj'),
    regimeFiscal: text('regime_fiscal').notNull(),
    valorBrutoCentavos: integer('valor_bruto_centavos').notNull(),
    inssCentavos: integer('inss_centavos').notNull(),
    irrfCentavos: integer('irrf_centavos').notNull(),
    issCentavos: integer('iss_centavos').notNull(),
    valorLiquidoCentavos: integer('valor_liquido_centavos').notNull(),
    chavePix: text('chave_pix'),
    tipoChavePix: text('tipo_chave_pix'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('repasse_itens_repasse_profissional_uq').on(t.repasseId, t.profissionalId),
    index('repasse_itens_profissional_idx').on(t.profissionalId),
  ],
);

/**
 * Which fees a batch pays. `ativo` is 1 while the batch is live and null once cancelled: the partial
 * unique index keeps a fee in at most one live batch, whatever races.
 */
export const repasseLancamentos = sqliteTable(
  'repasse_lancamentos',
  {
    repasseId: text('repasse_id')
      .notNull()
      .references(() => repasses.id, { onDelete: 'cascade' }),
    lancamentoId: text('lancamento_id')
      .notNull()
      .references(() => lancamentos.id, { onDelete: 'restrict' }),
    profissionalId: text('profissional_id').notNull(),
    ativo: integer('ativo'),
  },
  (t) => [
    primaryKey({ columns: [t.repasseId, t.lancamentoId] }),
    index('repasse_lancamentos_lancamento_idx').on(t.lancamentoId),
    uniqueIndex('repasse_lancamentos_ativo_uq')
      .on(t.lancamentoId)
      .where(sql`${t.ativo} = 1`),
  ],
);

export type TabelaTributariaRow = typeof tabelasTributarias.$inferSelect;
export type RepasseRow = typeof repasses.$inferSelect;
export type RepasseItemRow = typeof repasseItens.$inferSelect;
