import { env } from 'cloudflare:test';
import { afterAll, expect } from 'vitest';
import { api, type ApiOptions } from './request';
import { KEPT_COUNTS_TRUTH, KEPT_DRIFT_CHECKS } from '../../scripts/kept-counts';

/**
 * Every drift check (scripts/kept-counts.ts KEPT_DRIFT_CHECKS: kept counts, team rows' columns,
 * invitations' event dates, result sums) over the whole database of a test file: every route,
 * import and cascade its tests ran must have kept them all.
 */
async function expectNoKeptDrift() {
  for (const [what, check] of KEPT_DRIFT_CHECKS) expect((await env.DB.prepare(check).all()).results, what).toEqual([]);
}

/** Every drift check (the team rows' kept columns among them); answers how many team rows it checked. */
export async function expectKeptColumns() {
  await expectNoKeptDrift();
  return (await env.DB.prepare('SELECT count(*) AS n FROM agenda_equipe').first<{ n: number }>())!.n;
}

/**
 * Every drift check (contagens against a count of its rows, both ways, among them). Answers how many
 * events, open-places keys (region, function, day), FOT records, profiles, notifications, tickets,
 * packages, orders, finance entries and accounts it checked.
 */
export async function expectKeptCounts() {
  await expectNoKeptDrift();
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
