import { env } from 'cloudflare:test';
import { afterAll, expect } from 'vitest';
import { KEPT_COUNTS_DRIFT, KEPT_COUNTS_TRUTH } from '../../scripts/kept-counts';

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
 * contagens is kept by triggers (drizzle/0022, 0023, 0025): checked against a count of the rows,
 * both ways (a kept row that is wrong, a count with no kept row; scripts/kept-counts.ts). Answers
 * how many events, open-places keys (region, function, day), FOT records and profiles it checked.
 */
export async function expectKeptCounts() {
  const { results } = await env.DB.prepare(KEPT_COUNTS_DRIFT).all();
  expect(results).toEqual([]);
  const counted = await env.DB.prepare(
    `SELECT (SELECT count(*) FROM agenda) AS eventos,
       (SELECT count(*) FROM (${KEPT_COUNTS_TRUTH}) WHERE tabela = 'vagas') AS vagas,
       (SELECT count(*) FROM cadastro_fot) AS fots,
       (SELECT count(*) FROM profissionais) AS profissionais`,
  ).first<{ eventos: number; vagas: number; fots: number; profissionais: number }>();
  return counted!;
}

/**
 * Registers both checks to run after the file's tests (each test file has its own database). A
 * file whose tests left no team row or no event checks nothing, so that fails too: use it where
 * teams are made.
 */
export const keptColumnsAfterAll = () =>
  afterAll(async () => {
    expect(await expectKeptColumns(), 'team rows checked').toBeGreaterThan(0);
    expect((await expectKeptCounts()).eventos, 'events counted').toBeGreaterThan(0);
  });

/** The count check alone, for files that make `what` (events, FOT records, profiles) but no teams. */
export const keptCountsAfterAll = (what: 'eventos' | 'fots' | 'profissionais' = 'eventos') =>
  afterAll(async () => {
    expect((await expectKeptCounts())[what], `${what} counted`).toBeGreaterThan(0);
  });
