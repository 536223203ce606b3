/**
 * The rows contagens must hold (drizzle/0022, 0023, 0025, 0028, 0030, 0032), counted from the rows it
 * counts by their own rules (not by kept columns): the agenda's events per region (dono '') and per
 * creator, agenda_equipe's rows with places open per region, function and day, the FOT records per
 * region and per company, the listed professionals per region (no account, or an active one), each
 * user's unread notifications, the listed holders of each function, and the tickets, packages,
 * orders and finance entries by the keys of 0032, and the accounts (all, pending) of 0037. KEPT_COUNTS_DRIFT answers every key whose kept count differs from
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
  `SELECT 'notificacoes', '', user_id, '', count(*) FROM notifications WHERE lida = 0 GROUP BY user_id`,
  `SELECT 'funcoes', '', pf.funcao_id, '', count(*) FROM profissional_funcoes pf JOIN profissionais p ON p.id = pf.profissional_id
    WHERE p.usuario_id IS NULL OR EXISTS (SELECT 1 FROM users u WHERE u.id = p.usuario_id AND u.ativo = 1)
    GROUP BY pf.funcao_id`,
  `SELECT 'users', '', '', '', count(*) FROM users`,
  `SELECT 'users', '', 'pendentes', '', count(*) FROM users WHERE ativo = 0`,
  `SELECT 'chamados', regiao, '', '', count(*) FROM chamados GROUP BY regiao`,
  `SELECT 'chamados', regiao, status, '', count(*) FROM chamados GROUP BY regiao, status`,
  `SELECT 'pacotes', regiao, '', '', count(*) FROM pacotes GROUP BY regiao`,
  `SELECT 'pacotes', regiao, 'ativos', '', count(*) FROM pacotes WHERE ativo = 1 GROUP BY regiao`,
  `SELECT 'pedidos', regiao, '', '', count(*) FROM pedidos GROUP BY regiao`,
  `SELECT 'pedidos', regiao, status, '', count(*) FROM pedidos GROUP BY regiao, status`,
  `SELECT 'pedidos', regiao, fot_id, '', count(*) FROM pedidos GROUP BY regiao, fot_id`,
  `SELECT 'pedidos', regiao, fot_id || '/' || status, '', count(*) FROM pedidos GROUP BY regiao, fot_id, status`,
  `SELECT 'lancamentos', regiao, '', '', count(*) FROM lancamentos GROUP BY regiao`,
  `SELECT 'lancamentos', regiao, fot_id, '', count(*) FROM lancamentos WHERE fot_id IS NOT NULL GROUP BY regiao, fot_id`,
  `SELECT 'lancamentos', regiao, agenda_id, '', count(*) FROM lancamentos WHERE agenda_id IS NOT NULL
    GROUP BY regiao, agenda_id`,
];
/**
 * D1 allows at most 5 terms in one compound SELECT: the parts are unioned two at a time, each pair in
 * its own subquery, and the pairs likewise, up to one pair.
 */
const unionInPairs = (parts: string[]): string =>
  parts.length <= 2
    ? parts.join(' UNION ALL ')
    : unionInPairs(
        Array.from(
          { length: Math.ceil(parts.length / 2) },
          (_, i) => `SELECT * FROM (${parts.slice(2 * i, 2 * i + 2).join(' UNION ALL ')})`,
        ),
      );
export const KEPT_COUNTS_TRUTH = unionInPairs(TRUTH_PARTS);

export const KEPT_COUNTS_DRIFT = `WITH truth AS (${KEPT_COUNTS_TRUTH}),
  chaves AS (SELECT tabela, regiao, dono, dia FROM truth UNION SELECT tabela, regiao, dono, dia FROM contagens)
SELECT k.tabela, k.regiao, k.dono, k.dia, coalesce(c.n, 0) AS mantido, coalesce(t.n, 0) AS contado
FROM chaves k
  LEFT JOIN contagens c ON c.tabela = k.tabela AND c.regiao = k.regiao AND c.dono = k.dono AND c.dia = k.dia
  LEFT JOIN truth t ON t.tabela = k.tabela AND t.regiao = k.regiao AND t.dono = k.dono AND t.dia = k.dia
WHERE coalesce(c.n, 0) <> coalesce(t.n, 0)`;

/**
 * agenda_equipe's kept columns (drizzle/0018, 0027, 0040) against their sources: every team row whose
 * event's region or date, its event's record's city or state, or whose count of accepted, waiting
 * (`pendente`, `solicitado`) or waiting-list invitations, differs. No row means no drift. Used like KEPT_COUNTS_DRIFT.
 */
export const KEPT_COLUMNS_DRIFT = `SELECT e.agenda_id, e.funcao_id, e.regiao, a.regiao AS agenda_regiao,
    e.data_evento, a.data_evento AS agenda_data, e.aceitos, e.pendentes, e.espera, c.aceitos AS contados_aceitos,
    c.pendentes AS contados_pendentes, c.espera AS contados_espera, e.cidade, f.cidade AS fot_cidade, e.uf,
    f.estado AS fot_estado
  FROM agenda_equipe e JOIN agenda a ON a.id = e.agenda_id LEFT JOIN cadastro_fot f ON f.id = a.fot_id
    JOIN (SELECT q.agenda_id, q.funcao_id,
        (SELECT count(*) FROM convites c WHERE c.agenda_id = q.agenda_id AND c.funcao_id = q.funcao_id
          AND c.status = 'aceito') AS aceitos,
        (SELECT count(*) FROM convites c WHERE c.agenda_id = q.agenda_id AND c.funcao_id = q.funcao_id
          AND c.status IN ('pendente', 'solicitado')) AS pendentes,
        (SELECT count(*) FROM convites c WHERE c.agenda_id = q.agenda_id AND c.funcao_id = q.funcao_id
          AND c.status = 'espera') AS espera
      FROM agenda_equipe q) c ON c.agenda_id = e.agenda_id AND c.funcao_id = e.funcao_id
  WHERE e.regiao <> a.regiao OR e.data_evento <> a.data_evento
    OR e.aceitos <> c.aceitos OR e.pendentes <> c.pendentes OR e.espera <> c.espera
    OR e.cidade IS NOT f.cidade OR e.uf IS NOT f.estado`;

/**
 * somas_lancamentos (drizzle/0035) against sums of lancamentos by the result's own rule (a class's
 * entries are its own and its events', found through agenda, not the kept agenda_fot_id), both ways:
 * a kept sum that differs or has no entries left (a row at 0 is none), or a sum with no kept row.
 * Then every entry whose agenda_fot_id is not its event's fot_id. No row means no drift.
 */
const SUMS_TRUTH = `SELECT regiao, 'dia' AS escopo, vencimento AS chave, categoria_id, tipo,
      sum(iif(status = 'previsto', valor_centavos, 0)) AS previsto, sum(iif(status = 'pago', valor_centavos, 0)) AS realizado
    FROM lancamentos WHERE status IN ('previsto', 'pago') AND origem <> 'estorno'
    GROUP BY regiao, vencimento, categoria_id, tipo
  UNION ALL
  SELECT regiao, 'evento', agenda_id, categoria_id, tipo,
      sum(iif(status = 'previsto', valor_centavos, 0)), sum(iif(status = 'pago', valor_centavos, 0))
    FROM lancamentos WHERE status IN ('previsto', 'pago') AND origem <> 'estorno' AND agenda_id IS NOT NULL
    GROUP BY regiao, agenda_id, categoria_id, tipo
  UNION ALL
  SELECT e.regiao, 'fot', f.id, e.categoria_id, e.tipo,
      sum(iif(e.status = 'previsto', e.valor_centavos, 0)), sum(iif(e.status = 'pago', e.valor_centavos, 0))
    FROM cadastro_fot f JOIN lancamentos e
      ON e.fot_id = f.id OR e.agenda_id IN (SELECT a.id FROM agenda a WHERE a.fot_id = f.id)
    WHERE e.status IN ('previsto', 'pago') AND e.origem <> 'estorno'
    GROUP BY e.regiao, f.id, e.categoria_id, e.tipo`;

export const KEPT_SUMS_DRIFT = `WITH t AS (${SUMS_TRUTH})
SELECT s.regiao, s.escopo, s.chave, s.categoria_id, s.tipo, s.previsto AS mantido_previsto, s.realizado AS mantido_realizado,
    t.previsto AS somado_previsto, t.realizado AS somado_realizado
  FROM somas_lancamentos s LEFT JOIN t USING (regiao, escopo, chave, categoria_id, tipo)
  WHERE (s.previsto <> 0 OR s.realizado <> 0)
    AND (t.previsto IS NULL OR s.previsto <> t.previsto OR s.realizado <> t.realizado)
UNION ALL
SELECT t.regiao, t.escopo, t.chave, t.categoria_id, t.tipo, s.previsto, s.realizado, t.previsto, t.realizado
  FROM t LEFT JOIN somas_lancamentos s USING (regiao, escopo, chave, categoria_id, tipo)
  WHERE s.previsto IS NULL OR s.previsto <> t.previsto OR s.realizado <> t.realizado
UNION ALL
SELECT e.regiao, 'agenda_fot_id', e.id, e.agenda_fot_id, a.fot_id, NULL, NULL, NULL, NULL
  FROM lancamentos e LEFT JOIN agenda a ON a.id = e.agenda_id
  WHERE e.agenda_fot_id IS NOT a.fot_id`;

/** Every invitation whose kept data_evento (drizzle/0042) is not its event's. No row means no drift. */
export const KEPT_CONVITES_DRIFT = `SELECT c.id, c.agenda_id, c.data_evento, a.data_evento AS agenda_data
  FROM convites c JOIN agenda a ON a.id = c.agenda_id WHERE c.data_evento <> a.data_evento`;

/** Every drift check, by what it checks (npm run db:check-counts, the bench). */
export const KEPT_DRIFT_CHECKS = [
  ['kept counts (contagens)', KEPT_COUNTS_DRIFT],
  ["team rows' kept columns (agenda_equipe)", KEPT_COLUMNS_DRIFT],
  ["invitations' kept event date (convites.data_evento)", KEPT_CONVITES_DRIFT],
  ["finance results' kept sums (somas_lancamentos) and lancamentos.agenda_fot_id", KEPT_SUMS_DRIFT],
] as const;
