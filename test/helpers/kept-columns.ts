import { env } from 'cloudflare:test';
import { afterAll, expect } from 'vitest';

/**
 * agenda_equipe's regiao, data_evento and aceitos are kept by triggers (drizzle/0018_vagas_triggers.sql).
 * Checked against their sources over the whole database of a test file: every route, import and
 * cascade its tests ran must have kept them. Answers how many team rows it checked.
 */
export async function expectKeptColumns() {
  const { results } = await env.DB.prepare(
    `SELECT e.agenda_id, e.funcao_id, e.regiao, a.regiao AS agenda_regiao, e.data_evento, a.data_evento AS agenda_data,
       e.aceitos, (SELECT count(*) FROM convites c WHERE c.agenda_id = e.agenda_id AND c.funcao_id = e.funcao_id
         AND c.status = 'aceito') AS contados
     FROM agenda_equipe e JOIN agenda a ON a.id = e.agenda_id
     WHERE e.regiao <> a.regiao OR e.data_evento <> a.data_evento OR e.aceitos <> contados`,
  ).all();
  expect(results).toEqual([]);
  return (await env.DB.prepare('SELECT count(*) AS n FROM agenda_equipe').first<{ n: number }>())!.n;
}

/**
 * What contagens must hold, counted from the rows: the agenda's events per region (dono '') and per
 * creator, and the team rows with places open per region, function and day.
 */
const COUNTED = `SELECT 'agenda' AS tabela, regiao, '' AS dono, '' AS dia, count(*) AS n FROM agenda GROUP BY regiao
  UNION ALL SELECT 'agenda', regiao, user_id, '', count(*) FROM agenda WHERE user_id IS NOT NULL GROUP BY regiao, user_id
  UNION ALL SELECT 'vagas', regiao, funcao_id, data_evento, count(*) FROM agenda_equipe
    WHERE publicar = 1 AND quantidade > aceitos AND regiao <> '' GROUP BY regiao, funcao_id, data_evento`;

/**
 * contagens is kept by triggers (drizzle/0022_kept_counts.sql): checked against a count of the rows,
 * both ways (a kept row that is wrong, a count with no kept row). Answers how many events it checked.
 */
export async function expectKeptCounts() {
  const { results } = await env.DB.prepare(
    `SELECT k.tabela, k.regiao, k.dono, k.dia, k.n, coalesce(r.n, 0) AS contados FROM contagens k
       LEFT JOIN (${COUNTED}) r ON r.tabela = k.tabela AND r.regiao = k.regiao AND r.dono = k.dono AND r.dia = k.dia
       WHERE k.n <> coalesce(r.n, 0)
     UNION ALL
     SELECT r.tabela, r.regiao, r.dono, r.dia, NULL, r.n FROM (${COUNTED}) r
       WHERE NOT EXISTS (SELECT 1 FROM contagens k
         WHERE k.tabela = r.tabela AND k.regiao = r.regiao AND k.dono = r.dono AND k.dia = r.dia)`,
  ).all();
  expect(results).toEqual([]);
  return (await env.DB.prepare('SELECT count(*) AS n FROM agenda').first<{ n: number }>())!.n;
}

/**
 * Registers both checks to run after the file's tests (each test file has its own database). A
 * file whose tests left no team row or no event checks nothing, so that fails too: use it where
 * teams are made.
 */
export const keptColumnsAfterAll = () =>
  afterAll(async () => {
    expect(await expectKeptColumns(), 'team rows checked').toBeGreaterThan(0);
    expect(await expectKeptCounts(), 'events counted').toBeGreaterThan(0);
  });

/** The count check alone, for files that make events but no teams. */
export const keptCountsAfterAll = () =>
  afterAll(async () => {
    expect(await expectKeptCounts(), 'events counted').toBeGreaterThan(0);
  });
