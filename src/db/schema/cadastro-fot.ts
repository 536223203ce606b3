import { desc } from 'drizzle-orm';
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { anosFormaturas, cursos, empresas } from './catalogs';
import { timestamps, uuidPk } from './columns';
import { instituicoes } from './lugares';

/** A graduation class. `fot` is unique across regions; catalogs it uses cannot be deleted under it. */
export const cadastroFot = sqliteTable(
  'cadastro_fot',
  {
    id: uuidPk(),
    regiao: text('regiao').notNull(),
    fot: integer('fot').notNull().unique(),
    empresaId: text('empresa_id')
      .notNull()
      .references(() => empresas.id, { onDelete: 'restrict' }),
    cursoId: text('curso_id')
      .notNull()
      .references(() => cursos.id, { onDelete: 'restrict' }),
    anoFormaturaId: text('ano_formatura_id')
      .notNull()
      .references(() => anosFormaturas.id, { onDelete: 'restrict' }),
    instituicao: text('instituicao'),
    // The catalog's entry (docs/decisions.md#d23); when set, the record answers its name as `instituicao`.
    instituicaoId: text('instituicao_id').references(() => instituicoes.id, { onDelete: 'restrict' }),
    cidade: text('cidade'),
    estado: text('estado'),
    observacoes: text('observacoes'),
    gastosCaptacaoCentavos: integer('gastos_captacao_centavos'),
    preVenda: integer('pre_venda', { mode: 'boolean' }).notNull().default(false),
    ...timestamps,
  },
  (t) => [
    index('cadastro_fot_regiao_updated_idx').on(t.regiao, desc(t.updatedAt), t.id),
    index('cadastro_fot_regiao_empresa_updated_idx').on(t.regiao, t.empresaId, desc(t.updatedAt), t.id),
    index('cadastro_fot_curso_idx').on(t.cursoId),
    index('cadastro_fot_empresa_idx').on(t.empresaId),
    index('cadastro_fot_ano_idx').on(t.anoFormaturaId),
    index('cadastro_fot_instituicao_idx').on(t.instituicaoId),
  ],
);

export type CadastroFotRow = typeof cadastroFot.$inferSelect;
