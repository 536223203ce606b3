import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { funcoes } from './catalogs';
import { timestamps, uuidPk } from './columns';

/**
 * The equipment resources the planner counts (docs/decisions.md#d26): the agenda's equipment columns,
 * named as the event names them (and as D25's rules name a `recurso`).
 */
export const RECURSOS = [
  'qtd_estudios',
  'qtd_ponto_foto',
  'qtd_ponto_id',
  'qtd_ponto_decorado',
  'qtd_pontos_led',
  'qtd_plataforma_360',
] as const;
export type Recurso = (typeof RECURSOS)[number];

/** The company's own equipment per region and resource (administrators, PUT /api/equipamentos). */
export const estoqueEquipamentos = sqliteTable(
  'estoque_equipamentos',
  {
    id: uuidPk(),
    regiao: text('regiao').notNull(),
    recurso: text('recurso', { enum: RECURSOS }).notNull(),
    quantidade: integer('quantidade').notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('estoque_equipamentos_regiao_recurso_uq').on(t.regiao, t.recurso)],
);

/**
 * The weekly job's notices of a (date, function) in deficit (docs/decisions.md#d26): its key is the
 * "once per (date, function, week)"; `execucao` is the run that wrote it, so that the notifications of
 * the same batch go out for exactly the rows that run added.
 */
export const capacidadeAlertas = sqliteTable(
  'capacidade_alertas',
  {
    regiao: text('regiao').notNull(),
    data: text('data').notNull(),
    funcaoId: text('funcao_id')
      .notNull()
      .references(() => funcoes.id, { onDelete: 'cascade' }),
    /** The Monday (São Paulo) of the week the job ran. */
    semana: text('semana').notNull(),
    deficit: integer('deficit').notNull(),
    execucao: text('execucao').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.regiao, t.data, t.funcaoId, t.semana] }),
    index('capacidade_alertas_funcao_idx').on(t.funcaoId),
    index('capacidade_alertas_execucao_idx').on(t.execucao),
  ],
);

/** The weeks a region's planner was already checked by the job: it computes once per week, not every 15 minutes. */
export const capacidadeExecucoes = sqliteTable(
  'capacidade_execucoes',
  {
    regiao: text('regiao').notNull(),
    semana: text('semana').notNull(),
    execucao: text('execucao').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.regiao, t.semana] })],
);
