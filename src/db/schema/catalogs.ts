import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { timestamps, uuidPk } from './columns';

/**
 * The simple named catalogs share one shape. The label column keeps its wire name (`nome`,
 * `ano_semestre`); `label_key` is its trimmed, Unicode-lowercased form, so uniqueness per region
 * ignores case also for accented letters (SQLite's NOCASE only folds ASCII).
 */
const catalogTable = (name: string, field: 'nome' | 'ano_semestre') =>
  sqliteTable(
    name,
    {
      id: uuidPk(),
      regiao: text('regiao').notNull(),
      label: text(field).notNull(),
      labelKey: text(`${field}_key`).notNull(),
      ...timestamps,
    },
    (t) => [uniqueIndex(`${name}_regiao_key_uq`).on(t.regiao, t.labelKey)],
  );

export const anosFormaturas = catalogTable('anos_formaturas', 'ano_semestre');
export const cursos = catalogTable('cursos', 'nome');
export const empresas = catalogTable('empresas', 'nome');
export const funcoes = catalogTable('funcoes', 'nome');
export const tiposServicos = catalogTable('tipos_servicos', 'nome');
export const tiposEventos = catalogTable('tipos_eventos', 'nome');

export type CatalogTable = typeof cursos;

/** Price of one professional function for one event type; the event type owns its prices. */
export const precos = sqliteTable(
  'precos',
  {
    id: uuidPk(),
    regiao: text('regiao').notNull(),
    tipoEventoId: text('tipo_evento_id')
      .notNull()
      .references(() => tiposEventos.id, { onDelete: 'cascade' }),
    funcaoProfissionalId: text('funcao_profissional_id')
      .notNull()
      .references(() => funcoes.id, { onDelete: 'restrict' }),
    valorCentavos: integer('valor_centavos').notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('precos_tipo_funcao_regiao_uq').on(t.tipoEventoId, t.funcaoProfissionalId, t.regiao),
    // A region's prices, and a type's in its region (the planner took a bare regiao index for the
    // latter and read the region's every price).
    index('precos_regiao_tipo_idx').on(t.regiao, t.tipoEventoId),
    index('precos_funcao_idx').on(t.funcaoProfissionalId),
  ],
);
