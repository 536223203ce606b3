import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * Rows of a table per region, owner and day, kept by SQLite triggers (drizzle/0022 and later;
 * docs/architecture.md, "Kept by triggers") whatever writes the rows: a list's unfiltered total
 * (X-Total-Count) reads one row here, or one per day, instead of one index entry per counted row.
 * - `agenda`: events per region (`dono` '') and per creator (`dono` = user_id), `dia` ''.
 * - `vagas`: team rows with places open (agenda_equipe_vagas_idx's rows) per region, function (`dono`)
 *   and event day (`dia`).
 * - `cadastro_fot`: FOT records per region (`dono` '') and per company (`dono` = empresa_id), `dia` ''.
 * - `profissionais`: listed profiles (`profissionais.listado`) per region, `dono` and `dia` ''.
 * - `notificacoes` (0028, regiao '', `dono` = user_id: unread) and `funcoes` (0030, regiao '',
 *   `dono` = funcao_id: listed holders).
 * - `chamados`, `pacotes`, `pedidos`, `lancamentos` (0032): per region (`dono` '') and per the
 *   filter an administrator's page uses (a status, 'ativos', a FOT record or event id, `fot_id/status`).
 */
export const contagens = sqliteTable(
  'contagens',
  {
    tabela: text('tabela').notNull(),
    regiao: text('regiao').notNull(),
    dono: text('dono').notNull().default(''),
    dia: text('dia').notNull().default(''),
    n: integer('n').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tabela, t.regiao, t.dono, t.dia] })],
);

/**
 * The finance results' sums (GET /api/financeiro/resultado), kept by SQLite triggers on lancamentos
 * (drizzle/0035_result_sums.sql; docs/architecture.md, "Kept by triggers"): per region, scope,
 * category and tipo, the cents `previsto` and `pago` (`realizado`) of the entries a result counts
 * (not `origem` estorno). `escopo` 'dia': `chave` = vencimento (a period sums its days); 'evento':
 * the event's id; 'fot': the FOT record's id, for its own entries and its events' (once each). A
 * key whose entries are gone keeps a row at 0.
 */
export const somasLancamentos = sqliteTable(
  'somas_lancamentos',
  {
    regiao: text('regiao').notNull(),
    escopo: text('escopo', { enum: ['dia', 'evento', 'fot'] }).notNull(),
    chave: text('chave').notNull(),
    categoriaId: text('categoria_id').notNull(),
    tipo: text('tipo', { enum: ['receita', 'despesa'] }).notNull(),
    previsto: integer('previsto').notNull().default(0),
    realizado: integer('realizado').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.regiao, t.escopo, t.chave, t.categoriaId, t.tipo] })],
);
