/**
 * npm run bench [-- --duration 5 --connections 10 --pairs 3 --only agenda,me --out FILE --keep]
 * npm run bench -- --scale    (p99 of each list's first page at about 100, then 10,000 rows)
 *
 * Issue 8's benchmark. In a fresh temporary directory it creates a local D1, applies the
 * migrations, loads the `bench` demo data (scripts/seed-lib.ts), snapshots the project and the
 * baseline (bench/baseline/, one raw D1 statement per route) with `wrangler deploy --dry-run`, and
 * serves both with `wrangler dev` on two loopback ports over the SAME persisted D1. It logs in
 * (admin, agenda_viewer, profissional), checks that both sides answer each route alike, then drives
 * every route with autocannon at fixed connections and duration, alternating project and baseline
 * runs (A B A B ...), and prints a markdown table with medians and the median of the per-pair
 * ratios. Both servers are killed (whole process groups) whatever happens.
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
  fail,
  parseCli,
  randomHex,
  runWrangler,
  ROOT,
  wranglerErrorLine,
} from '../scripts/lib.ts';
import { countRows, DEMO_USERS, SEED_SIZES, seedDatabase, type SeedCounts } from '../scripts/seed-lib.ts';

// ---------------------------------------------------------------- what is measured

type Who = 'admin' | 'agenda' | 'profissional';
type Side = 'project' | 'baseline';

type BenchRoute = {
  name: string;
  method: 'GET' | 'POST';
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
  ) => { body?: string; headers?: Record<string, string> };
  expect: number;
  /** Read routes held to issue 8's target (>= 0.8x the baseline). */
  hot?: boolean;
  /** Also measured as `?limit=50` once the project pages this list (X-Total-Count). */
  pageable?: boolean;
  /** Its rows grow in `--scale` (the first page is measured at about 100 and 10,000 rows). */
  scales?: boolean;
};

const demo = (key: Who) => DEMO_USERS.find((u) => u.key === key)!;
const runTag = randomHex(3);
let loginConnections = 0;

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
    name: 'POST /auth/login',
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
    method: 'POST',
    path: '/api/cursos',
    as: 'admin',
    request: (side, n) => ({ body: JSON.stringify({ nome: `Curso bench ${runTag} ${side} ${n}` }) }),
    expect: 201,
  },
];

const PAGE = 50;

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
type Run = { rps: number; p50: number; p99: number; non2xx: number; errors: number; total: number; statuses: string };

function headersFor(route: BenchRoute, tokens: Record<Who, string>): Record<string, string> {
  const h: Record<string, string> = { 'x-regiao': 'SP' };
  if (route.as) h.authorization = `Bearer ${tokens[route.as]}`;
  if (route.method === 'POST') h['content-type'] = 'application/json';
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
              return { ...req, body: extra.body, headers: { ...headers, ...extra.headers } };
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
    const res = await fetch(`${servers[side].base}${t.path}${t.query}`, {
      method: t.method,
      headers: { ...headersFor(t, tokens), ...extra?.headers },
      body: extra?.body,
    });
    const text = await res.text();
    if (res.status !== t.expect) {
      problems.push(`${t.label}: ${side} answered ${res.status} (expected ${t.expect}): ${text.slice(0, 160)}`);
      continue;
    }
    const parsed = JSON.parse(text) as unknown;
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

type Row = { label: string; hot: boolean; project: Run[]; baseline: Run[]; ratios: number[] };

function table(rows: Row[]): string {
  const f0 = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
  const lines = [
    '| route | project req/s | p50 ms | p99 ms | baseline req/s | baseline p50 ms | baseline p99 ms | ratio (pairs) | target |',
    '|---|---:|---:|---:|---:|---:|---:|---|---|',
  ];
  for (const r of rows) {
    const ratio = median(r.ratios);
    const target = r.hot ? (ratio >= 0.8 ? '>= 0.8 met' : '>= 0.8 **missed**') : '-';
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

type Setup = { servers: Record<Side, Server>; tokens: Record<Who, string>; persistTo: string };

/** Snapshots both workers, starts both servers on `persistTo`, logs the three demo users in. */
async function startBoth(tmp: string, persistTo: string): Promise<Setup> {
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
  const [projectScript, baselineScript] = await Promise.all([
    snap(projectConfig, path.join(tmp, 'project')),
    snap(baselineConfig, path.join(tmp, 'baseline')),
  ]);

  const vars = { JWT_SECRET: randomHex(32), ACCESS_TOKEN_TTL_SECONDS: '3600', COOKIE_SECURE: 'false' };
  const servers: Record<Side, Server> = {
    project: await startServer('project', {
      config: projectConfig,
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
  for (const who of ['admin', 'agenda', 'profissional'] as const) {
    const u = demo(who);
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
  return { servers, tokens, persistTo };
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
  const row: Row = { label: t.label, hot: t.hot === true, project: [], baseline: [], ratios: [] };
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
const lostServer = (row: Row) => [...row.project, ...row.baseline].some((r) => r.total === 0 || r.errors > 0);

async function measureOrRestart(box: { setup: Setup }, t: Target, cfg: Cfg, tmp: string): Promise<Row> {
  const row = await measure(box.setup, t, cfg);
  if (!lostServer(row)) return row;
  console.log(`  ${t.label}: a server stopped answering (server logs: --keep); restarting both and measuring it again`);
  await stopAll();
  box.setup = await startBoth(tmp, box.setup.persistTo);
  return measure(box.setup, t, cfg);
}

function describeRun(opts: { connections: number; duration: number; pairs: number }, data: string): string {
  const cpu = os.cpus();
  let code = 'unknown';
  try {
    code = execFileSync('git', ['describe', '--always', '--dirty'], { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    /* not a git checkout */
  }
  const wranglerVersion = JSON.parse(readFileSync(path.join(ROOT, 'node_modules/wrangler/package.json'), 'utf8'))
    .version as string;
  return (
    `${new Date().toISOString().slice(0, 10)}, ${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown CPU'}), Node ${process.versions.node}, ` +
    `wrangler ${wranglerVersion} dev (local), autocannon ${opts.connections} connections, ${opts.duration} s per run, ` +
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

/** The main table: every route (and its `?limit=50` variant once the project pages it) against the baseline. */
async function runRoutes(opts: Opts, tmp: string, persistTo: string, elapsed: () => string) {
  await seedDatabase({ target: { remote: false, persistTo }, size: 'bench', force: false });
  const volume = volumeOf(await countRows({ remote: false, persistTo }));
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

  const about = describeRun(opts, `region SP of: ${volume}`);
  const md = `${table(rows)}\n\n${about}`;
  console.log(`\n${md}\n`);
  console.log(
    `ratio = project req/s / baseline req/s, median of the pairs (each pair's ratio in parentheses). p50/p99: medians over the runs. Total ${elapsed()}.`,
  );
  if (problems.length) console.log(`${problems.length} answer mismatch warning(s) above.`);
  return { md, json: { about, rows } };
}

/**
 * Issue 8's "list p99 with limit=50 flat from 100 to 10,000 rows": the first page of each pageable
 * list, measured with about 100 rows in region SP, then again after adding rows up to about
 * 10,000 (same servers, same A/B pairs against the baseline).
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
  const box = { setup: await startBoth(tmp, persistTo) };
  console.log(
    `servers ready (${elapsed()}): project ${box.setup.servers.project.base}, baseline ${box.setup.servers.baseline.base}`,
  );
  const routes = ROUTES.filter(
    (r) => r.scales && (!opts.only || opts.only.some((o) => r.name.toLowerCase().includes(o))),
  );
  type Step = { totals: (number | undefined)[]; rows: Row[] };
  const steps: Step[] = [];
  for (const [i, label] of ['about 100 rows', 'about 10,000 rows'].entries()) {
    if (i === 1) {
      // The servers are idle: a third process may write the shared SQLite file now.
      await seedDatabase({ target, size: SCALE_ADD, force: true });
      console.log(`added rows (${elapsed()}): ${volumeOf(await countRows(target))}`);
    }
    const totals = await Promise.all(routes.map((r) => pagedTotal(box.setup, r)));
    const rows: Row[] = [];
    for (const [k, route] of routes.entries()) {
      if (totals[k] === undefined) continue;
      const row = await measureOrRestart(box, { ...route, query: `?limit=${PAGE}`, label: route.name }, opts, tmp);
      rows.push(row);
      console.log(
        `  ${label}: ${route.name}?limit=${PAGE} (total ${totals[k]}): project p99 ${median(row.project.map((x) => x.p99))} ms, baseline p99 ${median(row.baseline.map((x) => x.p99))} ms (${elapsed()})`,
      );
    }
    steps.push({ totals, rows });
  }
  const lines = [
    `| route, first page (?limit=${PAGE}) | rows (X-Total-Count) | project p50 ms | project p99 ms | baseline p99 ms | project p99 growth | baseline p99 growth |`,
    '|---|---|---|---|---|---:|---:|',
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
        `${m(a, 'project', 'p99')} → ${m(b, 'project', 'p99')} | ${m(a, 'baseline', 'p99')} → ${m(b, 'baseline', 'p99')} | ` +
        `${growth(m(a, 'project', 'p99'), m(b, 'project', 'p99'))} | ${growth(m(a, 'baseline', 'p99'), m(b, 'baseline', 'p99'))} |`,
    );
  }
  const about = describeRun(opts, 'first page of each list in region SP, before and after adding rows');
  const md = `${lines.join('\n')}\n\n${about}${notPaged.length ? `\nNot paged yet (not measured): ${notPaged.join('; ')}.` : ''}`;
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
    `bench: working in ${tmp}${opts.scale ? ' (--scale: p99 of the first page at 100 and 10,000 rows)' : ''}`,
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
