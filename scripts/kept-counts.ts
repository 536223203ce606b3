/**
 * The rows contagens must hold (drizzle/0022, 0023, 0025), counted from the rows it counts by their
 * own rules (not by kept columns): the agenda's events per region (dono '') and per creator,
 * agenda_equipe's rows with places open per region, function and day, the FOT records per region
 * and per company, and the listed professionals per region (no account, or an active one). KEPT_COUNTS_DRIFT answers every key whose kept count differs from
 * the count (a missing kept row or a missing source counts as 0): no row means no drift. Used by the
 * tests (test/helpers/kept-columns.ts), by the bench after its runs and by `npm run db:check-counts`
 * (scripts/check-kept-counts.ts); it reads whole tables, so it is a check, never a route's query.
 * Plain SQL, no imports: the Workers test pool loads it too.
 */
const TRUTH_PARTS = [
  `SELECT 'agenda' AS tabela, regiao, '' AS dono, '' AS dia, count(*) AS n FROM agenda GROUP BY regiao`,
  `SELECT 'agenda', regiao, user_id, '', count(*) FROM agenda WHERE user_id IS NOT NULL GROUP BY regiao, user_id`,
  `SELECT 'vagas', regiao, funcao_id, data_evento, count(*) FROM agenda_equipe
    WHERE publicar = 1 AND quantidade > aceitos AND regiao <> '' GROUP BY regiao, funcao_id, data_evento`,
  `SELECT 'cadastro_fot', regiao, '', '', count(*) FROM cadastro_fot GROUP BY regiao`,
  `SELECT 'cadastro_fot', regiao, empresa_id, '', count(*) FROM cadastro_fot GROUP BY regiao, empresa_id`,
  `SELECT 'profissionais', p.regiao, '', '', count(*) FROM profissionais p
    WHERE p.usuario_id IS NULL OR EXISTS (SELECT 1 FROM users u WHERE u.id = p.usuario_id AND u.ativo = 1)
    GROUP BY p.regiao`,
];
// D1 allows at most 5 terms in one compound SELECT: the parts are unioned two at a time, each pair in its own subquery.
export const KEPT_COUNTS_TRUTH = Array.from(
  { length: Math.ceil(TRUTH_PARTS.length / 2) },
  (_, i) => `SELECT * FROM (${TRUTH_PARTS.slice(2 * i, 2 * i + 2).join(' UNION ALL ')})`,
).join(' UNION ALL ');

export const KEPT_COUNTS_DRIFT = `WITH truth AS (${KEPT_COUNTS_TRUTH}),
  chaves AS (SELECT tabela, regiao, dono, dia FROM truth UNION SELECT tabela, regiao, dono, dia FROM contagens)
SELECT k.tabela, k.regiao, k.dono, k.dia, coalesce(c.n, 0) AS mantido, coalesce(t.n, 0) AS contado
FROM chaves k
  LEFT JOIN contagens c ON c.tabela = k.tabela AND c.regiao = k.regiao AND c.dono = k.dono AND c.dia = k.dia
  LEFT JOIN truth t ON t.tabela = k.tabela AND t.regiao = k.regiao AND t.dono = k.dono AND t.dia = k.dia
WHERE coalesce(c.n, 0) <> coalesce(t.n, 0)`;
