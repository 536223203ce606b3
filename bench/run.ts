/**
 * npm run bench [-- --duration 5 --connections 10 --pairs 3 --only agenda,me --out FILE --keep]
 * npm run bench -- --scale    (p50/p99 of each list's first page at about 100 rows, then 100,000 agenda events)
 *
 * Issue 8's benchmark. In a fresh temporary directory it creates a local D1, applies the
 * migrations, loads the `bench` demo data (scripts/seed-lib.ts) and what issue 20's routes need
 * (publishSql, logsSql, lancamentosSql, invitationsSql below), snapshots the project and the
 * baseline (bench/baseline/, one raw D1 statement or batch per route) with `wrangler deploy
 * --dry-run`, and serves both with `wrangler dev` on two loopback ports over the SAME persisted D1
 * (the project without its [assets] section: workerOnlyConfig).
 * It logs in (admin, agenda_viewer, profissional, and the bench's own professional of the
 * acceptances), checks that both sides answer each route alike, then drives every route with
 * autocannon at fixed connections and duration, alternating project and baseline runs (A B A B
 * ...), and prints a markdown table with medians and the median of the per-pair ratios. Both
 * servers are killed (whole process groups) whatever happens.
 *
 * Numbers from `wrangler dev` compare routes on this machine; they are not production figures.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon, { type Result } from 'autocannon';
import {
  applyLocalMigrations,
  CliError,
  d1Execute,
  fail,
  parseCli,
  randomHex,
  runWrangler,
  ROOT,
  sqlString,
  targetArgs,
  wranglerErrorLine,
  type Target as D1Target,
} from '../scripts/lib.ts';
import { KEPT_DRIFT_CHECKS } from '../scripts/kept-counts.ts';
import { countRows, DEMO_USERS, SEED_SIZES, seedDatabase, type SeedCounts } from '../scripts/seed-lib.ts';

// ---------------------------------------------------------------- what is measured

/** `aceite`: the bench's own professional (region MG), whose pending invitations PATCH /api/convites accepts. */
type Who = 'admin' | 'agenda' | 'profissional' | 'aceite';
type Side = 'project' | 'baseline';

type BenchRoute = {
  name: string;
  method: 'GET' | 'POST' | 'PATCH';
  /** The path; a `request` hook may answer another one per request (`{id}` of a write taken once). */
  path: string;
  /** Whose access token goes in Authorization (the baseline reads the identity from it, unverified). */
  as?: Who;
  /**
   * Per-request body and extra headers. `n` counts this side's requests in the whole run; `conn` is
   * autocannon's per-connection context (state kept for one connection).
   */
  request?: (
    side: Side,
    n: number,
    conn: Record<string, unknown>,
  ) => { body?: string; headers?: Record<string, string>; path?: string };
  expect: number;
  /** Read routes held to issue 8's target (>= 0.8x the baseline). */
  hot?: boolean;
  /** Another target than hot reads' 0.8 (issue 20: writes >= 0.8, login >= 0.85). */
  target?: number;
  /** Also measured as `?limit=50` once the project pages this list (X-Total-Count). */
  pageable?: boolean;
  /** Its rows grow in `--scale` (the first page is measured at about 100 rows, then 10,000 or 100,000). */
  scales?: boolean;
  /** Paged by a cursor (X-Next-Cursor, default page of 50), not X-Total-Count: `--scale` counts its rows with this SQL. */
  cursorRows?: string;
};

const demo = (key: Exclude<Who, 'aceite'>) => DEMO_USERS.find((u) => u.key === key)!;
/** The bench's own professional (seeded by invitationsSql, the demo professional's password). */
const ACEITE = { email: 'bench.aceite@example.com', password: demo('profissional').password };
const loginOf = (who: Who) => (who === 'aceite' ? ACEITE : demo(who));

/**
 * What the issue 20 routes need from the seeded data, read after seeding (readBenchData): ids for
 * request bodies, the FOT whose result is read, the calendar feed's path (created through the API).
 */
const data = {
  fotId: '',
  empresaId: '',
  cursoId: '',
  anoId: '',
  categoriaReceita: '',
  icalPath: '',
  /** Pending invitations of `aceite`, one per event, each accepted at most once (ids ACCEPT_ID(i)). */
  invitations: 0,
  /** The ranking's event (the last SP event) and function (the SP function with the most holders). */
  rankingEvent: '',
  rankingFuncao: '',
};
/** Writes that succeed only once (a FOT number, an invitation to accept) take the next value of ONE counter shared by both sides. */
let onceCounter = 0;
let acceptCounter = 0;
const ACCEPT_ID = (i: number) => `b3e0c0de-0002-4000-8000-${String(i).padStart(12, '0')}`;
/** Invitations to accept: above duration x throughput of both sides at the defaults (about 16 s x 2 sides x a few hundred req/s). */
const INVITATIONS = 30_000;
const runTag = randomHex(3);
let loginConnections = 0;

/** The planner's season: 90 days of the seed's second year (its events are drawn from 2025-08 to 2027-07). */
const PLANNER_SEASON = 'de=2026-12-01&ate=2027-02-28';

/** Add a route here; `pageable` lists get their `?limit=50` variant automatically. */
const ROUTES: BenchRoute[] = [
  {
    name: 'GET /api/cadastro-fot',
    method: 'GET',
    path: '/api/cadastro-fot',
    as: 'admin',
    expect: 200,
    hot: true,
    pageable: true,
    scales: true,
  },
  {
    name: 'GET /api/tipos-eventos',
    method: 'GET',
    path: '/api/tipos-eventos',
    as: 'admin',
    expect: 200,
    hot: true,
    pageable: true,
  },
  {
    name: 'GET /api/agenda (admin)',
    method: 'GET',
    path: '/api/agenda',
    as: 'admin',
    expect: 200,
    hot: true,
    pageable: true,
    scales: true,
  },
  {
    name: 'GET /api/agenda (agenda_viewer)',
    method: 'GET',
    path: '/api/agenda',
    as: 'agenda',
    expect: 200,
    hot: true,
    pageable: true,
    scales: true,
  },
  {
    name: 'GET /api/profissionais',
    method: 'GET',
    path: '/api/profissionais',
    as: 'admin',
    expect: 200,
    hot: true,
    pageable: true,
    scales: true,
  },
  // Public, edge-cached (middleware/cached.ts): the project answers from the Cache API within its TTL.
  { name: 'GET /api/funcoes (public)', method: 'GET', path: '/api/funcoes', expect: 200, hot: true },
  { name: 'GET /api/me (profissional)', method: 'GET', path: '/api/me', as: 'profissional', expect: 200, hot: true },
  {
    name: 'GET /api/vagas (profissional)',
    method: 'GET',
    path: '/api/vagas',
    as: 'profissional',
    expect: 200,
    hot: true,
    pageable: true,
    scales: true,
  },
  {
    // The explained ranking (D29): one statement over the holders of the SP function with the most of
    // them, for an SP event. Informational: the baseline ranks by a few of the components only.
    name: 'GET /api/agenda/{id}/candidatos',
    method: 'GET',
    path: '/api/agenda/',
    as: 'admin',
    request: () => ({ path: `/api/agenda/${data.rankingEvent}/candidatos?funcao_id=${data.rankingFuncao}` }),
    expect: 200,
  },
  {
    // The feed's token is the credential (no Authorization); created by GET /api/me/calendario after login.
    name: 'GET /ical/{token}.ics (profissional)',
    method: 'GET',
    path: '/ical/',
    request: () => ({ path: data.icalPath }),
    expect: 200,
    hot: true,
  },
  {
    name: 'GET /api/financeiro/resultado?fot_id',
    method: 'GET',
    path: '/api/financeiro/resultado',
    as: 'admin',
    request: () => ({ path: `/api/financeiro/resultado?fot_id=${data.fotId}` }),
    expect: 200,
    hot: true,
  },
  {
    // The season planner (D26): 90 days of region SP by day, every function and equipment resource.
    // Informational: the baseline reads the same rows in one batch but computes no peak and no availability.
    name: 'GET /api/planejamento/capacidade (90 days)',
    method: 'GET',
    path: `/api/planejamento/capacidade?${PLANNER_SEASON}`,
    as: 'admin',
    expect: 200,
  },
  {
    name: 'GET /api/logs-atividade (SUPERADMIN)',
    method: 'GET',
    path: '/api/logs-atividade',
    as: 'admin',
    expect: 200,
    hot: true,
    scales: true,
    cursorRows: 'SELECT count(*) AS n FROM logs_atividade',
  },
  {
    name: 'POST /auth/login',
    target: 0.85,
    method: 'POST',
    path: '/auth/login',
    // Right passwords only. The limiter lets at most 5 attempts per e-mail and per client IP be in
    // flight, as real logins come from many users and clients: each connection logs in one of the
    // six demo users (at most 2 connections per e-mail) and presents its own CF-Connecting-IP
    // (wrangler dev keeps the header when the request carries it).
    request: (_side, _n, conn) => {
      conn.k ??= loginConnections++;
      const k = conn.k as number;
      const u = DEMO_USERS[k % DEMO_USERS.length]!;
      return {
        body: JSON.stringify({ email: u.email, senha: u.password }),
        headers: { 'cf-connecting-ip': `198.51.100.${(k % 250) + 1}` },
      };
    },
    expect: 200,
  },
  {
    name: 'POST /api/cursos',
    // Informational: the row alone (no activity-log entry). Judged on its row "(baseline + log entry)".
    target: undefined,
    method: 'POST',
    path: '/api/cursos',
    as: 'admin',
    request: (side, n) => ({ body: JSON.stringify({ nome: `Curso bench ${runTag} ${side} ${n}` }) }),
    expect: 201,
  },
  {
    // A FOT number is unique: each request takes the next of the shared counter (both sides write the same table).
    name: 'POST /api/cadastro-fot',
    // Informational: the row alone (no activity-log entry). Judged on its row "(baseline + log entry)".
    target: undefined,
    method: 'POST',
    path: '/api/cadastro-fot',
    as: 'admin',
    request: () => ({
      body: JSON.stringify({
        fot: 500_000_000 + ++onceCounter,
        empresa_id: data.empresaId,
        curso_id: data.cursoId,
        ano_formatura_id: data.anoId,
        instituicao: 'Universidade do Bench',
        cidade: 'São Paulo',
        estado: 'SP',
        gastos_captacao: 1234.5,
      }),
    }),
    expect: 201,
  },
  {
    name: 'PATCH /api/convites/{id} (accept)',
    // Informational: the guarded UPDATE alone, not the same write. Judged on its row "(baseline +
    // its effects)" (below; docs/performance.md#the-targets).
    target: undefined,
    method: 'PATCH',
    path: '/api/convites/',
    as: 'aceite',
    // Each request accepts the next pending invitation (one event each, 2 h apart: never double-booked).
    request: () => ({
      path: `/api/convites/${ACCEPT_ID((acceptCounter++ % INVITATIONS) + 1)}`,
      body: JSON.stringify({ status: 'aceito' }),
    }),
    expect: 200,
  },
  {
    name: 'POST /api/financeiro/lancamentos',
    // Informational: the row alone (no activity-log entry). Judged on its row "(baseline + log entry)".
    target: undefined,
    method: 'POST',
    path: '/api/financeiro/lancamentos',
    as: 'admin',
    request: (side, n) => ({
      body: JSON.stringify({
        tipo: 'receita',
        categoria_id: data.categoriaReceita,
        descricao: `Lançamento bench ${runTag} ${side} ${n}`,
        valor: 1500.25,
        vencimento: '2027-03-10',
        fot_id: data.fotId,
      }),
    }),
    expect: 201,
  },
];

/**
 * Issue 20's write targets: each write against "a raw baseline doing the same write", which here
 * means a baseline that also writes, in its batch, what the decisions require of that write
 * (`x-bench-log: 1`, sent to the baseline only): the activity-log entry (D15), and for the
 * acceptance the fee, its entry and the notifications (D17, D18). The rows above against the row
 * alone stay printed, as information: they measure those required writes as much as the code.
 */
const againstSameWrite = (name: string, what = 'log entry'): BenchRoute => {
  const route = ROUTES.find((r) => r.name === name)!;
  return {
    ...route,
    name: `${route.name} (baseline + ${what})`,
    target: 0.8,
    request: (side, n, conn) => {
      const r = route.request!(side, n, conn);
      return side === 'baseline' ? { ...r, headers: { ...r.headers, 'x-bench-log': '1' } } : r;
    },
  };
};
ROUTES.push(
  ...['POST /api/cursos', 'POST /api/cadastro-fot', 'POST /api/financeiro/lancamentos'].map((n) => againstSameWrite(n)),
  // The acceptance's baseline then writes all its effects: the log entries, the fee and the notifications.
  againstSameWrite('PATCH /api/convites/{id} (accept)', 'its effects'),
);

const PAGE = 50;

// ---------------------------------------------------------------- issue 20's data

const UUID_SQL = `lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' ||
  substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))`;
const NOW_SQL = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;
const userIdSql = (email: string) => `(SELECT id FROM users WHERE email = ${sqlString(email)})`;
const series = (n: number) => `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${n})`;

/** Job listings: the demo professional's functions published (3 places) on every SP event from today on (idempotent). */
const publishSql =
  () => `INSERT INTO agenda_equipe (agenda_id, funcao_id, quantidade, publicar, requer_aprovacao, created_at, updated_at)
SELECT a.id, pf.funcao_id, 3, 1, 0, a.created_at, a.created_at
FROM agenda a
JOIN profissionais p ON p.usuario_id = ${userIdSql(demo('profissional').email)}
JOIN profissional_funcoes pf ON pf.profissional_id = p.id
WHERE a.regiao = 'SP' AND a.data_evento >= date('now', '-3 hours')
ON CONFLICT DO NOTHING;`;

/** `n` activity log entries (the admin editing courses), after the existing ones. */
const logsSql = (
  n: number,
) => `INSERT INTO logs_atividade (id, created_at, ator_id, ator_role, acao, entidade, entidade_id, regiao, request_id, dados)
${series(n)}
SELECT ${UUID_SQL}, ${NOW_SQL}, ${userIdSql(demo('admin').email)}, 'SUPERADMIN', 'cursos.update', 'cursos', ${UUID_SQL}, 'SP',
  'bench-' || i, json_object('nome', json_object('antes', 'Curso ' || i, 'depois', 'Curso ' || (i + 1)))
FROM n;`;

/** Finance entries: 4 per SP FOT record (contract, photo packages, logistics, equipment) and a fee per SP event. */
const lancamentosSql = () => {
  const cat = (regiao: string, sistema: string) =>
    `(SELECT c.id FROM categorias_financeiras c WHERE c.regiao = ${regiao} AND c.sistema = ${sistema})`;
  const cols =
    'id, regiao, tipo, categoria_id, descricao, valor_centavos, vencimento, status, pago_em, fot_id, agenda_id, origem, created_at, updated_at';
  return `INSERT INTO lancamentos (${cols})
SELECT ${UUID_SQL}, f.regiao, k.tipo, ${cat('f.regiao', 'k.sistema')}, 'Bench ' || k.sistema, 10000 + abs(random()) % 500000,
  '2026-10-01', k.status, CASE k.status WHEN 'pago' THEN '2026-10-01' END, f.id, NULL, 'manual', ${NOW_SQL}, ${NOW_SQL}
FROM cadastro_fot f CROSS JOIN (
  SELECT 'receita' AS tipo, 'contrato' AS sistema, 'previsto' AS status UNION ALL SELECT 'receita', 'pacotes_fotos', 'pago'
  UNION ALL SELECT 'despesa', 'logistica', 'pago' UNION ALL SELECT 'despesa', 'equipamento', 'previsto') k
WHERE f.regiao = 'SP';
INSERT INTO lancamentos (${cols})
SELECT ${UUID_SQL}, a.regiao, 'despesa', ${cat('a.regiao', "'cache_profissional'")}, 'Bench cachê', 35000, a.data_evento,
  'previsto', NULL, NULL, a.id, 'manual', ${NOW_SQL}, ${NOW_SQL}
FROM agenda a WHERE a.regiao = 'SP';`;
};

/**
 * The invitations PATCH /api/convites/{id} accepts: the bench's own professional (`aceite`, region MG
 * so that region SP's lists do not change), one MG event per invitation, 2 h slots from 2031 on (ten
 * a day, never overlapping: an acceptance is never refused as double-booked), a quota of 1 each.
 */
const invitationsSql = (n: number) => {
  const U = 'b3e0c0de-0000-4000-8000-000000000001';
  const P = 'b3e0c0de-0000-4000-8000-000000000002';
  return `INSERT INTO users (id, nome, email, senha_hash, role, ativo, created_at, updated_at)
SELECT '${U}', 'Bench Aceite', ${sqlString(ACEITE.email)}, senha_hash, 'profissional', 1, ${NOW_SQL}, ${NOW_SQL}
FROM users WHERE email = ${sqlString(demo('profissional').email)};
INSERT INTO profissionais (id, regiao, usuario_id, email, nome, funcao_profissional_id, created_at, updated_at)
VALUES ('${P}', 'MG', '${U}', ${sqlString(ACEITE.email)}, 'Bench Aceite',
  (SELECT id FROM funcoes WHERE regiao = 'MG' ORDER BY nome_key, id LIMIT 1), ${NOW_SQL}, ${NOW_SQL});
INSERT INTO profissional_funcoes (profissional_id, funcao_id) SELECT id, funcao_profissional_id FROM profissionais WHERE id = '${P}';
INSERT INTO agenda (id, regiao, user_id, fot_id, tipo_evento_id, data_evento, horario, horario_fim, local_evento, created_at, updated_at)
${series(n)}
SELECT printf('b3e0c0de-0001-4000-8000-%012d', i), 'MG', ${userIdSql(demo('admin').email)},
  (SELECT id FROM cadastro_fot WHERE regiao = 'MG' ORDER BY fot LIMIT 1),
  (SELECT id FROM tipos_eventos WHERE regiao = 'MG' ORDER BY nome_key, id LIMIT 1),
  date('2031-01-01', '+' || ((i - 1) / 10) || ' days'), printf('%02d:00', ((i - 1) % 10) * 2),
  printf('%02d:00', ((i - 1) % 10) * 2 + 2), 'Espaço Bench', ${NOW_SQL}, ${NOW_SQL}
FROM n;
INSERT INTO agenda_equipe (agenda_id, funcao_id, quantidade, created_at, updated_at)
SELECT a.id, p.funcao_profissional_id, 1, ${NOW_SQL}, ${NOW_SQL}
FROM agenda a JOIN profissionais p ON p.id = '${P}' WHERE a.id LIKE 'b3e0c0de-0001-%';
INSERT INTO convites (id, agenda_id, profissional_id, funcao_id, status, origem, convidado_por, created_at, updated_at)
SELECT 'b3e0c0de-0002' || substr(a.id, 14), a.id, p.id, p.funcao_profissional_id, 'pendente', 'convite', a.user_id, ${NOW_SQL}, ${NOW_SQL}
FROM agenda a JOIN profissionais p ON p.id = '${P}' WHERE a.id LIKE 'b3e0c0de-0001-%';`;
};

/**
 * `copies` more copies of every SP event (new ids, dates drawn over the seed's two years): how
 * `--scale` reaches 100,000 events without generating 90,000 rows of SQL text.
 */
const agendaCopiesSql = (copies: number) => {
  const keep =
    'regiao, user_id, fot_id, tipo_evento_id, horario, horario_fim, local_evento, endereco, observacoes_evento, status_profissionais, pre_venda, qtd_formandos, qtd_fotografos, qtd_cinegrafistas, qtd_recepcionistas, created_at, updated_at';
  return `INSERT INTO agenda (id, data_evento, ${keep})
${series(copies)}
SELECT ${UUID_SQL}, date('2025-08-01', '+' || (abs(random()) % 730) || ' days'), ${keep
    .split(', ')
    .map((c) => `a.${c}`)
    .join(', ')}
FROM agenda a CROSS JOIN n WHERE a.regiao = 'SP';`;
};

/** Runs SQL statements from a file (one wrangler call, however many rows). */
async function executeSql(target: D1Target, sql: string[]) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'event-ops-bench-sql-'));
  const file = path.join(dir, 'extra.sql');
  writeFileSync(file, `${sql.join('\n')}\n`);
  try {
    const r = await runWrangler(['d1', 'execute', 'DB', ...targetArgs(target), '--file', file], 900_000);
    if (r.code !== 0) throw new CliError(`wrangler d1 execute --file failed: ${wranglerErrorLine(r)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The ids the issue 20 routes' requests carry (after seeding). */
async function readBenchData(target: D1Target) {
  const one = (sql: string) => `SELECT (${sql}) AS v`;
  const res = await d1Execute(
    [
      // The SP FOT record with the most events: its result sums its own entries and its events'.
      one(`SELECT fot_id FROM agenda WHERE regiao = 'SP' GROUP BY fot_id ORDER BY count(*) DESC, fot_id LIMIT 1`),
      one(`SELECT id FROM empresas WHERE regiao = 'SP' ORDER BY id LIMIT 1`),
      one(`SELECT id FROM cursos WHERE regiao = 'SP' ORDER BY id LIMIT 1`),
      one(`SELECT id FROM anos_formaturas WHERE regiao = 'SP' ORDER BY id LIMIT 1`),
      one(`SELECT id FROM categorias_financeiras WHERE regiao = 'SP' AND sistema = 'contrato'`),
      one(`SELECT count(*) FROM convites WHERE id LIKE 'b3e0c0de-0002-%' AND status = 'pendente'`),
      one(`SELECT id FROM agenda WHERE regiao = 'SP' ORDER BY data_evento DESC, id LIMIT 1`),
      one(`SELECT pf.funcao_id FROM profissional_funcoes pf JOIN profissionais p ON p.id = pf.profissional_id
        WHERE p.regiao = 'SP' GROUP BY pf.funcao_id ORDER BY count(*) DESC, pf.funcao_id LIMIT 1`),
    ].join(';\n'),
    target,
  );
  const v = (i: number) => res[i]?.results?.[0]?.v;
  data.fotId = String(v(0) ?? '');
  data.empresaId = String(v(1) ?? '');
  data.cursoId = String(v(2) ?? '');
  data.anoId = String(v(3) ?? '');
  data.categoriaReceita = String(v(4) ?? '');
  data.invitations = Number(v(5) ?? 0);
  data.rankingEvent = String(v(6) ?? '');
  data.rankingFuncao = String(v(7) ?? '');
}

// ---------------------------------------------------------------- processes

const children = new Set<ChildProcess>();

function killGroup(child: ChildProcess, signal: NodeJS.Signals) {
  try {
    if (child.pid) process.kill(-child.pid, signal);
  } catch {
    /* already gone */
  }
}

/**
 * SIGTERM to each wrangler (it shuts its workerd down), then SIGKILL to the whole process group for
 * whatever is left, at once when wrangler has exited or after 5 s.
 */
async function stopAll() {
  const alive = [...children];
  for (const c of alive) {
    try {
      c.kill('SIGTERM');
    } catch {
      killGroup(c, 'SIGTERM');
    }
  }
  await Promise.all(
    alive.map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.exitCode !== null || c.signalCode !== null) return resolve();
          const t = setTimeout(() => {
            killGroup(c, 'SIGKILL');
            resolve();
          }, 5000);
          c.once('exit', () => {
            clearTimeout(t);
            // workerd may outlive wrangler's node processes for a moment: make sure the group is gone.
            killGroup(c, 'SIGKILL');
            resolve();
          });
        }),
    ),
  );
  children.clear();
}

// Last resort: whatever way this process ends, no workerd stays behind.
process.on('exit', () => {
  for (const c of children) killGroup(c, 'SIGKILL');
});
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(sig, () => {
    console.error(`\n${sig}: stopping the servers`);
    void stopAll().finally(() => process.exit(sig === 'SIGINT' ? 130 : 143));
  });
}

function wranglerBin(): string {
  const require = createRequire(import.meta.url);
  const pkgPath = require.resolve('wrangler/package.json', { paths: [ROOT] });
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { bin: string | Record<string, string> };
  return path.join(path.dirname(pkgPath), typeof pkg.bin === 'string' ? pkg.bin : pkg.bin.wrangler!);
}

/** A free loopback TCP port (released just before wrangler binds it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

type Server = { side: Side; base: string; log: string; child: ChildProcess };

/** `wrangler dev` on a built snapshot (so edits to src/ during the run change nothing), own process group. */
async function startServer(
  side: Side,
  opts: { config: string; script: string; persistTo: string; log: string; vars: Record<string, string> },
): Promise<Server> {
  const port = await freePort();
  const inspector = await freePort();
  const args = [
    wranglerBin(),
    'dev',
    '-c',
    opts.config,
    opts.script,
    '--no-bundle',
    '--ip',
    '127.0.0.1',
    '--port',
    String(port),
    '--inspector-port',
    String(inspector),
    '--persist-to',
    opts.persistTo,
    '--log-level',
    'warn',
    '--show-interactive-dev-session=false',
    ...Object.entries(opts.vars).flatMap(([k, v]) => ['--var', `${k}:${v}`]),
  ];
  const fd = openSync(opts.log, 'a');
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, CI: '1', WRANGLER_SEND_METRICS: 'false' },
    stdio: ['ignore', fd, fd],
    detached: true,
  });
  closeSync(fd);
  children.add(child);
  return { side, base: `http://127.0.0.1:${port}`, log: opts.log, child };
}

async function waitReady(s: Server, timeoutMs = 90_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (s.child.exitCode !== null) break;
    try {
      const r = await fetch(`${s.base}/health`, { signal: AbortSignal.timeout(2000) });
      if (r.ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  const tail = readFileSync(s.log, 'utf8')
    .split('\n')
    .filter((l) => l.trim() && !/^\s+at /.test(l))
    .slice(-8)
    .join('\n');
  throw new CliError(
    `the ${s.side} server did not become ready (${s.child.exitCode === null ? 'timeout' : `exit ${s.child.exitCode}`}); its log:\n${tail}`,
  );
}

// ---------------------------------------------------------------- measuring

type Target = BenchRoute & { query: string; label: string };
type Run = {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  total: number;
  /** Answers 500-599 (a lost local D1 answers 500 from the project). */
  failed: number;
  statuses: string;
};

function headersFor(route: BenchRoute, tokens: Record<Who, string>): Record<string, string> {
  const h: Record<string, string> = { 'x-regiao': 'SP' };
  if (route.as) h.authorization = `Bearer ${tokens[route.as]}`;
  if (route.method !== 'GET') h['content-type'] = 'application/json';
  return h;
}

const counters: Record<Side, number> = { project: 0, baseline: 0 };

async function drive(
  s: Server,
  t: Target,
  tokens: Record<Who, string>,
  cfg: { connections: number; duration: number },
): Promise<Run> {
  const headers = headersFor(t, tokens);
  const make = t.request;
  const result: Result = await autocannon({
    url: `${s.base}${t.path}${t.query}`,
    connections: cfg.connections,
    duration: cfg.duration,
    timeout: 30,
    method: t.method,
    headers,
    requests: [
      make
        ? {
            method: t.method,
            headers,
            setupRequest: (req, conn) => {
              const extra = make(s.side, ++counters[s.side], conn);
              return {
                ...req,
                path: extra.path ? `${extra.path}${t.query}` : req.path,
                body: extra.body,
                headers: { ...headers, ...extra.headers },
              };
            },
          }
        : { method: t.method, headers },
    ],
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    total: result['2xx'] + result.non2xx,
    failed: result['5xx'],
    statuses: Object.entries(result.statusCodeStats)
      .map(([code, v]) => `${code}: ${v.count}`)
      .join(', '),
  };
}

/** One request to each side: same status, same number of items (and total when paged). */
async function sameAnswer(servers: Record<Side, Server>, t: Target, tokens: Record<Who, string>): Promise<string[]> {
  const problems: string[] = [];
  const seen: Partial<Record<Side, { n?: number; total: string | null }>> = {};
  for (const side of ['project', 'baseline'] as const) {
    const extra = t.request?.(side, ++counters[side], {});
    const res = await fetch(`${servers[side].base}${extra?.path ?? t.path}${t.query}`, {
      method: t.method,
      headers: { ...headersFor(t, tokens), ...extra?.headers },
      body: extra?.body,
    });
    const text = await res.text();
    if (res.status !== t.expect) {
      problems.push(`${t.label}: ${side} answered ${res.status} (expected ${t.expect}): ${text.slice(0, 160)}`);
      continue;
    }
    // A calendar is counted in events; JSON lists in items.
    const parsed = res.headers.get('content-type')?.startsWith('text/calendar')
      ? (text.match(/^BEGIN:VEVENT/gm) ?? [])
      : (JSON.parse(text) as unknown);
    seen[side] = { n: Array.isArray(parsed) ? parsed.length : undefined, total: res.headers.get('x-total-count') };
  }
  const p = seen.project;
  const b = seen.baseline;
  if (p && b && p.n !== b.n) problems.push(`${t.label}: project returned ${p.n} items, baseline ${b.n}`);
  if (p && b && t.query && p.total !== b.total)
    problems.push(`${t.label}: X-Total-Count project ${p.total}, baseline ${b.total}`);
  return problems;
}

/**
 * Waits until a server has finished what the last run left in flight (autocannon stops sending at
 * the deadline, the server still completes queued requests): two quick /health answers in a row.
 * Both servers share one SQLite file, and concurrent use from two processes fails, so the next run
 * must not start against work still in progress on the other side.
 */
async function drain(s: Server, limitMs = 30_000) {
  const until = Date.now() + limitMs;
  let quick = 0;
  while (quick < 2 && Date.now() < until) {
    const t0 = Date.now();
    try {
      await fetch(`${s.base}/health`, { signal: AbortSignal.timeout(limitMs) });
    } catch {
      /* counted as slow */
    }
    quick = Date.now() - t0 < 50 ? quick + 1 : 0;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

type Row = { label: string; target: number | undefined; project: Run[]; baseline: Run[]; ratios: number[] };

function table(rows: Row[]): string {
  const f0 = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
  const lines = [
    '| route | project req/s | p50 ms | p99 ms | baseline req/s | baseline p50 ms | baseline p99 ms | ratio (pairs) | target |',
    '|---|---:|---:|---:|---:|---:|---:|---|---|',
  ];
  for (const r of rows) {
    const ratio = median(r.ratios);
    const target = r.target === undefined ? '-' : `>= ${r.target} ${ratio >= r.target ? 'met' : '**missed**'}`;
    lines.push(
      `| ${r.label} | ${f0(median(r.project.map((x) => x.rps)))} | ${median(r.project.map((x) => x.p50))} | ${median(r.project.map((x) => x.p99))} | ` +
        `${f0(median(r.baseline.map((x) => x.rps)))} | ${median(r.baseline.map((x) => x.p50))} | ${median(r.baseline.map((x) => x.p99))} | ` +
        `**${ratio.toFixed(2)}** (${r.ratios.map((x) => x.toFixed(2)).join(' ')}) | ${target} |`,
    );
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------- main

const USAGE =
  'usage: npm run bench -- [--duration S] [--connections N] [--pairs N] [--warmup S] [--only a,b] [--no-paged] [--scale] [--out FILE] [--keep]';

function parse() {
  const values = parseCli(process.argv.slice(2), USAGE, {
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '10' },
    pairs: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '1' },
    only: { type: 'string' },
    'no-paged': { type: 'boolean', default: false },
    scale: { type: 'boolean', default: false },
    out: { type: 'string' },
    keep: { type: 'boolean', default: false },
  });
  const num = (name: string, v: string, min: number, max: number) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min || n > max)
      throw new CliError(`--${name} must be an integer from ${min} to ${max}`);
    return n;
  };
  return {
    duration: num('duration', values.duration!, 1, 60),
    connections: num('connections', values.connections!, 1, 100),
    pairs: num('pairs', values.pairs!, 1, 10),
    warmup: num('warmup', values.warmup!, 0, 10),
    only: values.only
      ?.split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
    paged: !values['no-paged'],
    scale: values.scale === true,
    out: values.out ? path.resolve(process.env.INIT_CWD ?? process.cwd(), values.out) : undefined,
    keep: values.keep === true,
  };
}

/** One per bench run, kept when the servers are restarted (the calendar feed's token derives from them). */
const SECRETS = { jwt: randomHex(32), ical: randomHex(32) };

type Setup = {
  servers: Record<Side, Server>;
  tokens: Record<Who, string>;
  persistTo: string;
  /** The built snapshots: a restart starts the same code again, whatever the working tree holds by then. */
  scripts: Record<Side, string>;
};

/**
 * The project's wrangler.toml without its `[assets]` section, for `wrangler dev` (in `tmp`). In `wrangler
 * dev`, every request to a Worker with static assets first goes through a local asset-router Worker,
 * a hop the baseline (no assets) does not make, that cost about 0.12 of GET /api/me's ratio (docs/performance.md,
 * "The bench"). A deployed Worker does not run that hop itself: Cloudflare
 * looks the asset up before invoking the Worker. Both sides are then the Worker alone. The built
 * snapshot is given as the script, so `main`, `[alias]` and `migrations_dir` (build and migration
 * time only) need not resolve from `tmp`; a developer's `.dev.vars`, which wrangler reads next to
 * the config, is not read, which keeps runs alike across machines (the bench passes its own vars).
 */
function workerOnlyConfig(config: string, tmp: string) {
  const toml = readFileSync(config, 'utf8');
  const without = toml.replace(/^\[assets\][\s\S]*?(?=^\[|(?![\s\S]))/m, '');
  // Any other spelling would leave the hop in while the report says it is out.
  if (/^\s*(\[\s*assets\s*\]|assets\s*=|\[[\w.]*\.assets\])/m.test(without))
    throw new CliError(`${config}: an assets section the bench cannot remove; update workerOnlyConfig()`);
  const file = path.join(tmp, 'project-wrangler.toml');
  writeFileSync(file, without);
  return file;
}

/**
 * Snapshots both workers (unless `built`: a restart runs the run's own snapshots again), starts both
 * servers on `persistTo`, logs the demo users in.
 */
async function startBoth(tmp: string, persistTo: string, built?: Record<Side, string>): Promise<Setup> {
  // Snapshots: what is measured is the code as it was at the start of the run.
  const snap = async (config: string, outdir: string) => {
    const r = await runWrangler(['deploy', '--dry-run', '-c', config, '--outdir', outdir]);
    if (r.code !== 0) throw new CliError(`building ${config} failed: ${wranglerErrorLine(r)}`);
    // The bundle is named after the entry point (index.js, worker.js).
    const js = readdirSync(outdir).filter((f) => f.endsWith('.js'));
    if (js.length !== 1)
      throw new CliError(`building ${config}: expected one .js file in ${outdir}, found ${js.join(', ') || 'none'}`);
    return path.join(outdir, js[0]!);
  };
  const projectConfig = path.join(ROOT, 'wrangler.toml');
  const baselineConfig = path.join(ROOT, 'bench/baseline/wrangler.toml');
  const [projectScript, baselineScript] = built
    ? [built.project, built.baseline]
    : await Promise.all([
        snap(projectConfig, path.join(tmp, 'project')),
        snap(baselineConfig, path.join(tmp, 'baseline')),
      ]);

  const vars = {
    JWT_SECRET: SECRETS.jwt,
    ICAL_TOKEN_SECRET: SECRETS.ical,
    // A feed url needs the API's public origin (else 503 CONFIG_MISSING); the bench uses its path only.
    API_URL: 'http://127.0.0.1',
    ACCESS_TOKEN_TTL_SECONDS: '3600',
    COOKIE_SECURE: 'false',
  };
  const servers: Record<Side, Server> = {
    project: await startServer('project', {
      config: workerOnlyConfig(projectConfig, tmp),
      script: projectScript,
      persistTo,
      log: path.join(tmp, 'project.log'),
      vars,
    }),
    baseline: await startServer('baseline', {
      config: baselineConfig,
      script: baselineScript,
      persistTo,
      log: path.join(tmp, 'baseline.log'),
      vars: {},
    }),
  };
  await Promise.all([waitReady(servers.project), waitReady(servers.baseline)]);

  const tokens = {} as Record<Who, string>;
  const who4: Who[] = ['admin', 'agenda', 'profissional', ...(data.invitations ? (['aceite'] as const) : [])];
  for (const who of who4) {
    const u = loginOf(who);
    const r = await fetch(`${servers.project.base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: u.email, senha: u.password }),
    });
    const body = (await r.json()) as { access_token?: string };
    if (r.status !== 200 || !body.access_token)
      throw new CliError(`login as ${u.email} failed: ${r.status} ${JSON.stringify(body).slice(0, 200)}`);
    tokens[who] = body.access_token;
  }
  // The demo professional's calendar feed: created on the first call, the same url afterwards (same secrets).
  const cal = await fetch(`${servers.project.base}/api/me/calendario`, {
    headers: { authorization: `Bearer ${tokens.profissional}` },
  });
  const feed = (await cal.json()) as { url?: string };
  if (cal.status !== 200 || !feed.url)
    throw new CliError(`GET /api/me/calendario failed: ${cal.status} ${JSON.stringify(feed).slice(0, 200)}`);
  data.icalPath = new URL(feed.url).pathname;
  return { servers, tokens, persistTo, scripts: { project: projectScript, baseline: baselineScript } };
}

/** Whether the project pages this list: `?limit=50` answers at most 50 items with X-Total-Count. */
async function pagedTotal(s: Setup, route: BenchRoute): Promise<number | undefined> {
  const r = await fetch(`${s.servers.project.base}${route.path}?limit=${PAGE}`, {
    headers: headersFor(route, s.tokens),
  });
  const items = (await r.json()) as unknown;
  const total = r.headers.get('x-total-count');
  return r.ok && total !== null && Array.isArray(items) && items.length <= PAGE ? Number(total) : undefined;
}

type Cfg = { connections: number; duration: number; pairs: number; warmup: number };

/** Warm-up of each side, then `pairs` x (project run, baseline run), each side drained before the other runs. */
async function measure(s: Setup, t: Target, cfg: Cfg): Promise<Row> {
  const { servers, tokens } = s;
  if (cfg.warmup) {
    await drive(servers.project, t, tokens, { ...cfg, duration: cfg.warmup });
    await drain(servers.project);
    await drive(servers.baseline, t, tokens, { ...cfg, duration: cfg.warmup });
    await drain(servers.baseline);
  }
  const row: Row = {
    label: t.label,
    target: t.target ?? (t.hot ? 0.8 : undefined),
    project: [],
    baseline: [],
    ratios: [],
  };
  for (let i = 0; i < cfg.pairs; i++) {
    const a = await drive(servers.project, t, tokens, cfg);
    await drain(servers.project);
    const b = await drive(servers.baseline, t, tokens, cfg);
    await drain(servers.baseline);
    row.project.push(a);
    row.baseline.push(b);
    row.ratios.push(b.rps > 0 ? a.rps / b.rps : 0);
    for (const [side, run] of [
      ['project', a],
      ['baseline', b],
    ] as const) {
      if (run.non2xx || run.errors)
        console.log(
          `WARNING ${t.label}: ${side} had ${run.non2xx} non-2xx answers and ${run.errors} errors of ${run.total} (${run.statuses})`,
        );
    }
  }
  return row;
}

/**
 * A pair where a server answered nothing or dropped connections. In long runs (about 5 minutes) both `wrangler dev`
 * workers have lost their local D1 at once ("Network connection lost" on every query, not
 * reproduced in shorter runs): then both are restarted and the route is measured again, once.
 */
const lostServer = (row: Row) =>
  [...row.project, ...row.baseline].some((r) => r.total === 0 || r.errors > 0 || r.failed > 0);

async function measureOrRestart(box: { setup: Setup }, t: Target, cfg: Cfg, tmp: string): Promise<Row> {
  const row = await measure(box.setup, t, cfg);
  if (!lostServer(row)) return row;
  console.log(`  ${t.label}: a server stopped answering (server logs: --keep); restarting both and measuring it again`);
  await stopAll();
  box.setup = await startBoth(tmp, box.setup.persistTo, box.setup.scripts);
  return measure(box.setup, t, cfg);
}

/** The code as the run's snapshots were built (at its start): edits made during a run change neither. */
function codeNow(): string {
  try {
    return execFileSync('git', ['describe', '--always', '--dirty'], { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown'; // not a git checkout
  }
}
const CODE_AT_START = codeNow();

function describeRun(opts: { connections: number; duration: number; pairs: number }, data: string): string {
  const cpu = os.cpus();
  const code = CODE_AT_START;
  const wranglerVersion = JSON.parse(readFileSync(path.join(ROOT, 'node_modules/wrangler/package.json'), 'utf8'))
    .version as string;
  return (
    `${new Date().toISOString().slice(0, 10)}, ${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown CPU'}), Node ${process.versions.node}, ` +
    `wrangler ${wranglerVersion} dev (local; the project without its [assets] router), autocannon ${opts.connections} connections, ${opts.duration} s per run, ` +
    `${opts.pairs} A/B pairs per route, code ${code}${code.endsWith('-dirty') ? ' (with uncommitted changes)' : ''}, ${data}.`
  );
}

function volumeOf(counts: Awaited<ReturnType<typeof countRows>>): string {
  return ['cadastro_fot', 'profissionais', 'agenda', 'tipos_eventos', 'precos']
    .map((t) => counts.find((c) => c.table === t)!)
    .map((c) => `${c.table} ${c.total} (SP ${c.SP}, MG ${c.MG})`)
    .join(', ');
}

type Opts = ReturnType<typeof parse>;

/**
 * Both sides read the same kept counts (contagens), so an equal total proves nothing about them:
 * they are checked against a count of their rows once the runs' writes are done (servers stopped,
 * so that one process uses the D1 file).
 */
async function keptCountsChecked(target: D1Target) {
  await stopAll();
  const drift: unknown[] = [];
  for (const [, check] of KEPT_DRIFT_CHECKS) drift.push(...((await d1Execute(check, target))[0]?.results ?? []));
  const line = drift.length
    ? `WARNING kept counts or sums differ from their rows after the runs: ${JSON.stringify(drift.slice(0, 5))}`
    : 'Kept counts and sums (contagens, agenda_equipe, somas_lancamentos) equal their rows after the runs.';
  console.log(line);
  return line;
}

/** The main table: every route (and its `?limit=50` variant once the project pages it) against the baseline. */
async function runRoutes(opts: Opts, tmp: string, persistTo: string, elapsed: () => string) {
  const target = { remote: false, persistTo };
  await seedDatabase({ target, size: 'bench', force: false });
  await executeSql(target, [publishSql(), logsSql(5000), lancamentosSql(), invitationsSql(INVITATIONS)]);
  await readBenchData(target);
  const volume = volumeOf(await countRows(target));
  console.log(`seeded (${elapsed()}): ${volume}`);
  const setup = await startBoth(tmp, persistTo);
  console.log(
    `servers ready (${elapsed()}): project ${setup.servers.project.base}, baseline ${setup.servers.baseline.base}`,
  );

  const targets: Target[] = [];
  const notPaged: string[] = [];
  for (const route of ROUTES) {
    if (opts.only && !opts.only.some((o) => route.name.toLowerCase().includes(o))) continue;
    targets.push({ ...route, query: '', label: route.name });
    if (!route.pageable || !opts.paged) continue;
    if ((await pagedTotal(setup, route)) !== undefined) {
      targets.push({ ...route, query: `?limit=${PAGE}`, label: route.name.replace(/^(\S+ \S+)/, `$1?limit=${PAGE}`) });
    } else notPaged.push(route.name);
  }
  if (notPaged.length)
    console.log(`no pagination yet (no X-Total-Count on ?limit=${PAGE}), measured whole: ${notPaged.join('; ')}`);

  // One at a time: two workerd processes querying the same SQLite file at once get D1 errors.
  const problems: string[] = [];
  for (const t of targets) {
    problems.push(...(await sameAnswer(setup.servers, t, setup.tokens)));
    await drain(setup.servers.project);
    await drain(setup.servers.baseline);
  }
  for (const p of problems) console.log(`WARNING ${p}`);

  const perRoute = opts.warmup * 2 + opts.pairs * 2 * opts.duration + 1;
  console.log(
    `measuring ${targets.length} routes x ${opts.pairs} pairs x ${opts.duration} s, ${opts.connections} connections ` +
      `(about ${Math.ceil((targets.length * perRoute) / 60)} min)`,
  );
  const rows: Row[] = [];
  const box = { setup };
  for (const t of targets) {
    const row = await measureOrRestart(box, t, opts, tmp);
    rows.push(row);
    console.log(
      `  ${t.label}: project ${median(row.project.map((x) => x.rps)).toFixed(1)} req/s, baseline ${median(row.baseline.map((x) => x.rps)).toFixed(1)} req/s, ratio ${median(row.ratios).toFixed(2)} (${elapsed()})`,
    );
  }

  const kept = await keptCountsChecked(target);
  const about = describeRun(opts, `region SP of: ${volume}`);
  const md = `${table(rows)}\n\n${about}\n\n${kept}`;
  console.log(`\n${md}\n`);
  console.log(
    `ratio = project req/s / baseline req/s, median of the pairs (each pair's ratio in parentheses). p50/p99: medians over the runs. Total ${elapsed()}.`,
  );
  if (problems.length) console.log(`${problems.length} answer mismatch warning(s) above.`);
  if (acceptCounter > 0)
    console.log(
      acceptCounter > data.invitations
        ? `WARNING PATCH /api/convites/{id}: ${acceptCounter} acceptances asked for ${data.invitations} pending invitations: the later ones answered an already accepted invitation (not a measurement of accepting)`
        : `PATCH /api/convites/{id}: ${acceptCounter} of ${data.invitations} pending invitations used.`,
    );
  return { md, json: { about, rows } };
}

/**
 * Issue 8's "list p99 with limit=50 flat from 100 to 10,000 rows", extended by issue 20 to 100,000
 * agenda events: the first page of each pageable list, measured with about 100 rows in region SP,
 * then again after adding rows: 10,000 FOT records and professionals, 100,000 SP events (with their
 * job listings) and 100,000 activity log entries (same servers, same A/B pairs against the baseline).
 */
const SCALE_SMALL: SeedCounts = {
  ...SEED_SIZES.small,
  fots: { SP: 100, MG: 10 },
  profissionais: { SP: 100, MG: 10 },
  agenda: { SP: 100, MG: 10 },
};
const SCALE_ADD: SeedCounts = {
  ...SEED_SIZES.small,
  fots: { SP: 9900, MG: 0 },
  profissionais: { SP: 9900, MG: 0 },
  agenda: { SP: 9900, MG: 0 },
  teamEvents: 0,
};

async function runScale(opts: Opts, tmp: string, persistTo: string, elapsed: () => string) {
  const target = { remote: false, persistTo };
  await seedDatabase({ target, size: SCALE_SMALL, force: false });
  await executeSql(target, [publishSql(), logsSql(100)]);
  await readBenchData(target);
  const box = { setup: await startBoth(tmp, persistTo) };
  console.log(
    `servers ready (${elapsed()}): project ${box.setup.servers.project.base}, baseline ${box.setup.servers.baseline.base}`,
  );
  const routes = ROUTES.filter(
    (r) => r.scales && (!opts.only || opts.only.some((o) => r.name.toLowerCase().includes(o))),
  );
  type Step = { totals: (number | undefined)[]; rows: Row[] };
  const steps: Step[] = [];
  for (const [i, label] of ['about 100 rows', 'about 100,000 events'].entries()) {
    if (i === 1) {
      // The servers are idle: a third process may write the shared SQLite file now. 10,000 FOT
      // records, professionals and SP events from the generator, then 9 copies of every SP event
      // (100,000), their job listings, and activity log entries up to 100,000.
      await seedDatabase({ target, size: SCALE_ADD, force: true });
      await executeSql(target, [agendaCopiesSql(9), publishSql(), logsSql(99_900)]);
      console.log(`added rows (${elapsed()}): ${volumeOf(await countRows(target))}`);
    }
    // One at a time: a cursor-paged list is counted by wrangler (a third process on the SQLite file).
    const totals: (number | undefined)[] = [];
    for (const r of routes) {
      if (!r.cursorRows) totals.push(await pagedTotal(box.setup, r));
      else totals.push(Number((await d1Execute(r.cursorRows, target))[0]?.results?.[0]?.n ?? NaN));
    }
    const rows: Row[] = [];
    for (const [k, route] of routes.entries()) {
      if (totals[k] === undefined) continue;
      const row = await measureOrRestart(box, { ...route, query: `?limit=${PAGE}`, label: route.name }, opts, tmp);
      rows.push(row);
      console.log(
        `  ${label}: ${route.name}?limit=${PAGE} (total ${totals[k]}): project p50 ${median(row.project.map((x) => x.p50))} ms, p99 ${median(row.project.map((x) => x.p99))} ms, baseline p50 ${median(row.baseline.map((x) => x.p50))} ms, p99 ${median(row.baseline.map((x) => x.p99))} ms (${elapsed()})`,
      );
    }
    steps.push({ totals, rows });
  }
  const lines = [
    `| route, first page (?limit=${PAGE}) | rows (X-Total-Count) | project p50 ms | baseline p50 ms | project p99 ms | baseline p99 ms | project p50 growth | project p99 growth | baseline p99 growth |`,
    '|---|---|---|---|---|---|---:|---:|---:|',
  ];
  const notPaged: string[] = [];
  for (const [k, route] of routes.entries()) {
    const [a, b] = steps.map((st) => st.rows.find((r) => r.label === route.name));
    if (!a || !b) {
      notPaged.push(route.name);
      continue;
    }
    const m = (r: Row, side: Side, f: 'p50' | 'p99') => median(r[side].map((x) => x[f]));
    const growth = (x: number, y: number) => `${(y / Math.max(x, 1)).toFixed(2)}x`;
    lines.push(
      `| ${route.name} | ${steps[0]!.totals[k]} → ${steps[1]!.totals[k]} | ${m(a, 'project', 'p50')} → ${m(b, 'project', 'p50')} | ` +
        `${m(a, 'baseline', 'p50')} → ${m(b, 'baseline', 'p50')} | ` +
        `${m(a, 'project', 'p99')} → ${m(b, 'project', 'p99')} | ${m(a, 'baseline', 'p99')} → ${m(b, 'baseline', 'p99')} | ` +
        `${growth(m(a, 'project', 'p50'), m(b, 'project', 'p50'))} | ` +
        `${growth(m(a, 'project', 'p99'), m(b, 'project', 'p99'))} | ${growth(m(a, 'baseline', 'p99'), m(b, 'baseline', 'p99'))} |`,
    );
  }
  const about = describeRun(opts, 'first page of each list in region SP, before and after adding rows');
  const kept = await keptCountsChecked(target);
  const md = `${lines.join('\n')}\n\n${about}${notPaged.length ? `\nNot paged yet (not measured): ${notPaged.join('; ')}.` : ''}\n\n${kept}`;
  console.log(`\n${md}\n\nTotal ${elapsed()}.`);
  return { md, json: { about, steps } };
}

async function main() {
  const opts = parse();
  const started = Date.now();
  const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'event-ops-bench-'));
  const persistTo = path.join(tmp, 'state');
  mkdirSync(persistTo);
  console.log(
    `bench: working in ${tmp}${opts.scale ? ' (--scale: p50/p99 of the first page at about 100 rows, then 100,000 agenda events)' : ''}`,
  );
  try {
    console.log(await applyLocalMigrations(persistTo));
    const out = opts.scale
      ? await runScale(opts, tmp, persistTo, elapsed)
      : await runRoutes(opts, tmp, persistTo, elapsed);
    if (opts.out) {
      writeFileSync(opts.out, `${out.md}\n`);
      writeFileSync(opts.out.replace(/(\.md)?$/, '.json'), JSON.stringify(out.json, null, 2));
      console.log(`written: ${opts.out}`);
    }
  } finally {
    await stopAll();
    if (opts.keep) console.log(`kept ${tmp}`);
    else rmSync(tmp, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (e) => stopAll().finally(() => fail(e)),
);
