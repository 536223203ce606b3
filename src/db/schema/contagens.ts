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
