import { env } from 'cloudflare:test';
import { afterAll, expect } from 'vitest';
import { api, type ApiOptions } from './request';
import {
  KEPT_COLUMNS_DRIFT,
  KEPT_CONVITES_DRIFT,
  KEPT_COUNTS_DRIFT,
  KEPT_COUNTS_TRUTH,
  KEPT_SUMS_DRIFT,
} from '../../scripts/kept-counts';

/**
 * agenda_equipe's regiao, data_evento, aceitos, pendentes and espera are kept by triggers
 * (drizzle/0018, 0027). Checked against their sources over the whole database of a test file
 * (scripts/kept-counts.ts KEPT_COLUMNS_DRIFT): every route, import and cascade its tests ran must
 * have kept them. Answers how many team rows it checked.
 */
export async function expectKeptColumns() {
  const { results } = await env.DB.prepare(KEPT_COLUMNS_DRIFT).all();
  expect(results).toEqual([]);
  // The invitations' kept event date (drizzle/0042), kept on the same writes.
  expect((await env.DB.prepare(KEPT_CONVITES_DRIFT).all()).results).toEqual([]);
  return (await env.DB.prepare('SELECT count(*) AS n FROM agenda_equipe').first<{ n: number }>())!.n;
}

/**
 * contagens is kept by triggers (drizzle/0022, 0023, 0025, 0028, 0030, 0032, 0037): checked against a count of the
 * rows, both ways (a kept row that is wrong, a count with no kept row; scripts/kept-counts.ts); and
 * somas_lancamentos (0035) against sums of the entries.
 * Answers how many events, open-places keys (region, function, day), FOT records, profiles,
 * notifications, tickets, packages, orders, finance entries and accounts it checked.
 */
export async function expectKeptCounts() {
  const { results } = await env.DB.prepare(KEPT_COUNTS_DRIFT).all();
  expect(results).toEqual([]);
  // The finance results' kept sums (drizzle/0035) with them: they are kept on the same writes.
  const sums = await env.DB.prepare(KEPT_SUMS_DRIFT).all();
  expect(sums.results).toEqual([]);
  const counted = await env.DB.prepare(
    `SELECT (SELECT count(*) FROM agenda) AS eventos,
       (SELECT count(*) FROM (${KEPT_COUNTS_TRUTH}) WHERE tabela = 'vagas') AS vagas,
       (SELECT count(*) FROM cadastro_fot) AS fots,
       (SELECT count(*) FROM profissionais) AS profissionais,
       (SELECT count(*) FROM notifications) AS notificacoes,
       (SELECT count(*) FROM chamados) AS chamados,
       (SELECT count(*) FROM pacotes) AS pacotes,
       (SELECT count(*) FROM pedidos) AS pedidos,
       (SELECT count(*) FROM lancamentos) AS lancamentos,
       (SELECT count(*) FROM users) AS users`,
  ).first<Record<Counted, number>>();
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

type Counted =
  | 'eventos'
  | 'vagas'
  | 'fots'
  | 'profissionais'
  | 'notificacoes'
  | 'chamados'
  | 'pacotes'
  | 'pedidos'
  | 'lancamentos'
  | 'users';

/** The count check alone, for files that make `what` (events, FOT records, profiles, notifications, tickets, packages, orders, finance entries, accounts) but no teams. */
export const keptCountsAfterAll = (what: Exclude<Counted, 'vagas'> = 'eventos') =>
  afterAll(async () => {
    expect((await expectKeptCounts())[what], `${what} counted`).toBeGreaterThan(0);
  });

/**
 * A page's X-Total-Count (`limit=1`) against the length of the whole list with the same filters (a
 * whole list sends its own length): where the service reads the total from a kept count, the two
 * agree only if the triggers kept it. Answers the length.
 */
export async function expectPageTotal(path: string, opts: ApiOptions) {
  const whole = await api('GET', path, opts);
  expect(whole.status, JSON.stringify(whole.body)).toBe(200);
  const page = await api('GET', `${path}${path.includes('?') ? '&' : '?'}limit=1`, opts);
  expect(page.status, JSON.stringify(page.body)).toBe(200);
  expect(Number(page.headers.get('x-total-count')), path).toBe(whole.body.length);
  return whole.body.length as number;
}
