import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { timestamps, uuidPk } from './columns';
import { users } from './users';

/** The kinds a spreadsheet can import and export (docs/decisions.md#d20). */
export const IMPORT_TIPOS = ['profissionais', 'cadastro-fot', 'agenda', 'lancamentos'] as const;
export type ImportTipo = (typeof IMPORT_TIPOS)[number];

/**
 * validado → aplicando → aplicado, all three inside the apply's one batch (so `aplicando` is never
 * seen from outside: it is the claim the batch's statements check); com_erros never moves.
 */
export const IMPORT_STATUS = ['validado', 'com_erros', 'aplicando', 'aplicado'] as const;
export type ImportStatus = (typeof IMPORT_STATUS)[number];

/** One uploaded file: its summary and the claim of its apply (`aplicacao_id`, unique per apply). */
export const importacoes = sqliteTable(
  'importacoes',
  {
    id: uuidPk(),
    regiao: text('regiao').notNull(),
    tipo: text('tipo', { enum: IMPORT_TIPOS }).notNull(),
    status: text('status', { enum: IMPORT_STATUS }).notNull(),
    total: integer('total').notNull(),
    criar: integer('criar').notNull(),
    atualizar: integer('atualizar').notNull(),
    iguais: integer('iguais').notNull(),
    erro: integer('erro').notNull(),
    /** JSON array of {linha, coluna, code, error}: every error of the file. */
    erros: text('erros').notNull().default('[]'),
    criadoPor: text('criado_por').references(() => users.id, { onDelete: 'set null' }),
    aplicacaoId: text('aplicacao_id'),
    aplicadoEm: text('aplicado_em'),
    ...timestamps,
  },
  (t) => [
    index('importacoes_regiao_created_idx').on(t.regiao, t.createdAt),
    index('importacoes_criado_por_idx').on(t.criadoPor),
  ],
);

/**
 * The validated rows that will change something (acao criar|atualizar), staged until the apply
 * copies them with set-based statements. `dados` is a JSON object keyed by the target table's column
 * names, values as stored (cents, 0/1, ids); `alvo_id` the row to create (a fresh id) or update.
 */
export const importacaoLinhas = sqliteTable(
  'importacao_linhas',
  {
    importacaoId: text('importacao_id')
      .notNull()
      .references(() => importacoes.id, { onDelete: 'cascade' }),
    linha: integer('linha').notNull(),
    acao: text('acao', { enum: ['criar', 'atualizar'] }).notNull(),
    alvoId: text('alvo_id').notNull(),
    dados: text('dados').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.importacaoId, t.linha] }),
    index('importacao_linhas_acao_idx').on(t.importacaoId, t.acao),
  ],
);

export type ImportacaoRow = typeof importacoes.$inferSelect;
