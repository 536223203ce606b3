import { index, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { timestamps } from './columns';
import { users } from './users';

/** The ranking's soft components (docs/decisions.md#d29), in the order the answers list them. */
export const COMPONENTES = [
  'distancia',
  'avaliacao',
  'confiabilidade',
  'rodizio',
  'funcao',
  'preferencia',
  'responsividade',
] as const;
export type Componente = (typeof COMPONENTES)[number];

/** The weights a region without its own row uses (D29); they sum to 1. */
export const PESOS_PADRAO: Record<Componente, number> = {
  distancia: 0.2,
  avaliacao: 0.2,
  confiabilidade: 0.25,
  rodizio: 0.15,
  funcao: 0.05,
  preferencia: 0.05,
  responsividade: 0.1,
};

/**
 * A region's ranking weights (docs/decisions.md#d29), stored normalised (they sum to 1). No row: the
 * region uses PESOS_PADRAO.
 */
export const pesosRanking = sqliteTable(
  'pesos_ranking',
  {
    regiao: text('regiao').primaryKey(),
    distancia: real('distancia').notNull(),
    avaliacao: real('avaliacao').notNull(),
    confiabilidade: real('confiabilidade').notNull(),
    rodizio: real('rodizio').notNull(),
    funcao: real('funcao').notNull(),
    preferencia: real('preferencia').notNull(),
    responsividade: real('responsividade').notNull(),
    atualizadoPor: text('atualizado_por').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [index('pesos_ranking_atualizado_por_idx').on(t.atualizadoPor)],
);

export type PesosRankingRow = typeof pesosRanking.$inferSelect;
