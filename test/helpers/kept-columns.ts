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
 * Registers the check to run after the file's tests (each test file has its own database). A file
 * whose tests left no team row checks nothing, so that fails too: use it where teams are made.
 */
export const keptColumnsAfterAll = () =>
  afterAll(async () => {
    expect(await expectKeptColumns(), 'team rows checked').toBeGreaterThan(0);
  });
