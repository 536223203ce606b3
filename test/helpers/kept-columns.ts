import { env } from 'cloudflare:test';
import { afterAll, expect } from 'vitest';
import { KEPT_COLUMNS_DRIFT, KEPT_COUNTS_DRIFT, KEPT_COUNTS_TRUTH } from '../../scripts/kept-counts';

/**
 * agenda_equipe's regiao, data_evento, aceitos, pendentes and espera are kept by triggers
 * (drizzle/0018, 0027). Checked against their sources over the whole database of a test file
 * (scripts/kept-counts.ts KEPT_COLUMNS_DRIFT): every route, import and cascade its tests ran must
 * have kept them. Answers how many team rows it checked.
 */
export async function expectKeptColumns() {
  const { results } = await env.DB.prepare(KEPT_COLUMNS_DRIFT).all();
  expect(results).toEqual([]);
  return (await env.DB.prepare('SELECT count(*) AS n FROM agenda_equipe').first<{ n: number }>())!.n;
}

/**
 * contagens is kept by triggers (drizzle/0022, 0023, 0025, 0028): checked against a count of the
 * rows, both ways (a kept row that is wrong, a count with no kept row; scripts/kept-counts.ts).
 * Answers how many events, open-places keys (region, function, day), FOT records, profiles and
 * notifications it checked.
 */
export async function expectKeptCounts() {
  const { results } = await env.DB.prepare(KEPT_COUNTS_DRIFT).all();
  expect(results).toEqual([]);
  const counted = await env.DB.prepare(
    `SELECT (SELECT count(*) FROM agenda) AS eventos,
       (SELECT count(*) FROM (${KEPT_COUNTS_TRUTH}) WHERE tabela = 'vagas') AS vagas,
       (SELECT count(*) FROM cadastro_fot) AS fots,
       (SELECT count(*) FROM profissionais) AS profissionais,
       (SELECT count(*) FROM notifications) AS notificacoes`,
  ).first<{ eventos: number; vagas: number; fots: number; profissionais: number; notificacoes: number }>();
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

/** The count check alone, for files that make `what` (events, FOT records, profiles, notifications) but no teams. */
export const keptCountsAfterAll = (what: 'eventos' | 'fots' | 'profissionais' | 'notificacoes' = 'eventos') =>
  afterAll(async () => {
    expect((await expectKeptCounts())[what], `${what} counted`).toBeGreaterThan(0);
  });
