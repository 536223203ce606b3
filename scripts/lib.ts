/**
 * Shared by scripts/admin-create.ts and scripts/dev.ts (decisions D13): running wrangler without
 * prompts, applying local D1 migrations, creating a SUPERADMIN, reading .dev.vars.
 */
import { spawn } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import * as z from 'zod';
import { hashPassword } from '../src/lib/password.ts';

/** The repository root: wrangler runs here, so wrangler.toml and .wrangler/ are found from any cwd. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** An error meant for the user: printed as one line, exit code 1. */
export class CliError extends Error {}

/** Where D1 commands go. `persistTo` only applies to the local database. */
export type Target = { remote: boolean; persistTo?: string };

/**
 * The environment of every wrangler these scripts start: no telemetry, and no download of the
 * `Request.cf` object (https://workers.cloudflare.com/cf.json): miniflare then uses its placeholder,
 * which is all the app needs (it reads nothing from `request.cf`), instead of printing a warning and a
 * stack trace at each start of an offline `wrangler dev`. CLOUDFLARE_CF_FETCH_ENABLED=true turns it back on.
 */
export const devServerEnv = (): NodeJS.ProcessEnv => ({
  ...process.env,
  WRANGLER_SEND_METRICS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: process.env.CLOUDFLARE_CF_FETCH_ENABLED ?? 'false',
});

/** devServerEnv() that never prompts (CI=1 also makes `d1 migrations apply` proceed without asking). */
export const wranglerEnv = (): NodeJS.ProcessEnv => ({ ...devServerEnv(), CI: '1' });

/** A TCP port nothing listens on now (for a `wrangler dev` of our own). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export function targetArgs(t: Target): string[] {
  if (t.remote) return ['--remote'];
  return ['--local', ...(t.persistTo ? ['--persist-to', t.persistTo] : [])];
}

/** A path given on the command line, relative to where the user typed it (npm run changes cwd to the root). */
/** Options of the scripts that write to D1: where to. */
export const targetOptions = {
  local: { type: 'boolean' },
  remote: { type: 'boolean' },
  'persist-to': { type: 'string' },
} as const;

/** The D1 target named by --local / --remote / --persist-to (local by default). */
export function readTarget(values: { local?: boolean; remote?: boolean; 'persist-to'?: string }): Target {
  if (values.local && values.remote) throw new CliError('use either --local or --remote, not both');
  if (values.remote && values['persist-to'] !== undefined) throw new CliError('--persist-to only applies to --local');
  if (values['persist-to'] === '') throw new CliError('--persist-to needs a directory');
  return {
    remote: values.remote === true,
    persistTo: values['persist-to'] === undefined ? undefined : resolveUserPath(values['persist-to']),
  };
}

/** Strict argument parsing shared by the scripts: one clear line on a bad flag, --help prints usage. */
export function parseCli<O extends NonNullable<ParseArgsConfig['options']>>(argv: string[], usage: string, options: O) {
  const config = {
    args: argv,
    options: { ...options, help: { type: 'boolean', short: 'h' } } as O & { help: { type: 'boolean'; short: 'h' } },
    strict: true,
    allowPositionals: false,
  } as const;
  let parsed: ReturnType<typeof parseArgs<typeof config>>;
  try {
    parsed = parseArgs(config);
  } catch (e) {
    throw new CliError(`${(e as Error).message.split('\n')[0]} (${usage})`);
  }
  if ((parsed.values as { help?: boolean }).help) {
    console.log(usage);
    process.exit(0);
  }
  return parsed.values;
}

export function resolveUserPath(p: string): string {
  return path.resolve(process.env.INIT_CWD ?? process.cwd(), p);
}

type RunResult = { code: number | null; stdout: string; stderr: string };

/**
 * Runs `npx --no-install wrangler ...args` in its own process group with output captured. The whole
 * group is killed on timeout, and when this process is interrupted, so no workerd is left behind.
 */
export function runWrangler(args: string[], timeoutMs = 300_000, env: NodeJS.ProcessEnv = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['--no-install', 'wrangler', ...args], {
      cwd: ROOT,
      env: { ...wranglerEnv(), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGTERM');
      } catch {
        /* already gone */
      }
    };
    const onSignal = (sig: NodeJS.Signals) => {
      killGroup();
      process.exit(sig === 'SIGINT' ? 130 : 143);
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    };
    child.on('error', (err) => {
      done();
      reject(new CliError(`could not start wrangler (npx --no-install wrangler): ${err.message}; run npm ci first`));
    });
    child.on('close', (code) => {
      done();
      if (timedOut)
        reject(new CliError(`wrangler ${args.slice(0, 3).join(' ')} did not finish within ${timeoutMs / 1000} s`));
      else resolve({ code, stdout, stderr });
    });
  });
}

const stripAnsi = (s: string) => s.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '');

/** The one line that says why a (non --json) wrangler command failed. */
export function wranglerErrorLine(r: RunResult): string {
  const lines = stripAnsi(`${r.stdout}\n${r.stderr}`)
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('npm warn'));
  // wrangler may split one failure over several [ERROR] lines ("Migration x failed with ...:", then the cause).
  const errors = lines.filter((l) => l.includes('[ERROR]')).map((l) => l.replace(/^.*\[ERROR\]\s*/, ''));
  if (errors.length) return errors.join(' ');
  return lines.at(-1) ?? `exit code ${r.code}`;
}

type D1Result = { results?: Record<string, unknown>[]; success?: boolean };

/** `wrangler d1 execute DB --command <sql> --json`; returns one result per statement. */
export async function d1Execute(sql: string, target: Target): Promise<D1Result[]> {
  const r = await runWrangler(['d1', 'execute', 'DB', ...targetArgs(target), '--command', sql, '--json']);
  const start = r.stdout.search(/[[{]/);
  let parsed: unknown;
  try {
    parsed = start >= 0 ? JSON.parse(r.stdout.slice(start)) : undefined;
  } catch {
    parsed = undefined;
  }
  if (r.code === 0 && Array.isArray(parsed)) return parsed as D1Result[];
  const e = (parsed as { error?: { text?: string; notes?: { text?: string }[] } } | undefined)?.error;
  const text = e?.text
    ? [e.text, ...(e.notes ?? []).map((n) => n.text ?? '')].filter(Boolean).join(' ')
    : wranglerErrorLine(r);
  throw new CliError(`wrangler d1 execute failed: ${text.replace(/\s+/g, ' ').trim()}`);
}

/** Applies drizzle/*.sql to the local D1 database; returns a short summary. */
export async function applyLocalMigrations(persistTo?: string): Promise<string> {
  const total = readdirSync(path.join(ROOT, 'drizzle')).filter((f) => f.endsWith('.sql')).length;
  // The summary is read from wrangler's tables, which a WRANGLER_LOG of warn or less would hide.
  const r = await runWrangler(
    ['d1', 'migrations', 'apply', 'DB', ...targetArgs({ remote: false, persistTo })],
    undefined,
    { WRANGLER_LOG: 'log' },
  );
  if (r.code !== 0) throw new CliError(`applying local D1 migrations failed: ${wranglerErrorLine(r)}`);
  return summarizeMigrations(r.stdout, total);
}

/**
 * The line `npm run dev` prints about the migrations: how many of the `total` files in drizzle/ were
 * pending, now applied. wrangler prints its table of results again after each migration (1 row, then
 * 2, ..., 43 rows), so the count is of the distinct names marked done, not of the marks.
 */
export function summarizeMigrations(stdout: string, total: number): string {
  const out = stripAnsi(stdout);
  if (/No migrations to apply/i.test(out))
    return `local D1 migrations: none pending (${total} in drizzle/, all applied)`;
  const applied = new Set([...out.matchAll(/(\S+\.sql)\s*│\s*✅/g)].map((m) => m[1])).size;
  return `local D1 migrations: applied the ${applied} pending (${total} in drizzle/, all applied now)`;
}

/** A SQL string literal: single quotes doubled (SQLite has no backslash escapes). */
export function sqlString(s: string): string {
  if (s.includes('\0')) throw new CliError('text with a NUL character cannot be stored');
  return `'${s.replaceAll("'", "''")}'`;
}

// The same rules the API applies to e-mails (src/lib/fields.ts) and passwords (decisions D3).
const EmailSchema = z.string().trim().toLowerCase().min(1).max(254).pipe(z.email());

export type AdminInput = { email: string; password: string; name: string };

/** Where each value came from, for the error messages. */
export type AdminLabels = { email: string; password: string; name: string };
const CLI_LABELS: AdminLabels = { email: '--email', password: '--password', name: '--name' };

export function validateAdmin(
  raw: { email?: string; password?: string; name?: string },
  labels: AdminLabels = CLI_LABELS,
): AdminInput {
  if (raw.email === undefined) throw new CliError(`${labels.email} is required`);
  if (raw.password === undefined) throw new CliError(`${labels.password} is required`);
  const email = EmailSchema.safeParse(raw.email);
  if (!email.success) throw new CliError(`${labels.email}: "${raw.email}" is not a valid e-mail address`);
  // Taken as typed, not trimmed, like the API's senha.
  if (raw.password.length < 6 || raw.password.length > 128)
    throw new CliError(`${labels.password} must be 6 to 128 characters`);
  const name = (raw.name ?? 'Administrador').trim();
  if (!name) throw new CliError(`${labels.name} must not be empty`);
  if (name.length > 120) throw new CliError(`${labels.name} must be at most 120 characters`);
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(name)) throw new CliError(`${labels.name} must not contain control characters`);
  return { email: email.data, password: raw.password, name };
}

export type AdminResult = { created: boolean; id: string; email: string; role: string; ativo: boolean };

/**
 * Inserts an active SUPERADMIN unless the e-mail exists. The insert is guarded in SQL, so a
 * concurrent run cannot create a duplicate, and the row read back tells which case happened.
 * The password and its hash never appear in what this returns or throws.
 */
export async function createSuperadmin(input: AdminInput, target: Target): Promise<AdminResult> {
  const id = crypto.randomUUID();
  const now = new Date().toISOString();
  const hash = await hashPassword(input.password);
  const email = sqlString(input.email);
  const select = `select id, role, ativo from users where email = ${email}`;
  const insert =
    `insert into users (id, nome, email, senha_hash, role, ativo, created_at, updated_at) ` +
    `select ${sqlString(id)}, ${sqlString(input.name)}, ${email}, ${sqlString(hash)}, 'SUPERADMIN', 1, ${sqlString(now)}, ${sqlString(now)} ` +
    `where not exists (select 1 from users where email = ${email})`;
  const redact = (e: unknown) => {
    if (!(e instanceof Error)) return e;
    const msg = e.message.split(hash).join('[hash]').split(input.password).join('[password]');
    return new CliError(msg);
  };
  let rows: Record<string, unknown>[] | undefined;
  try {
    const results = await d1Execute(`${insert}; ${select}`, target);
    rows = results.at(-1)?.results;
  } catch (e) {
    // Lost a race with another insert of the same e-mail: the unique index stopped it.
    if (!(e instanceof Error) || !/UNIQUE constraint failed: users\.email/.test(e.message)) throw redact(e);
    rows = (await d1Execute(select, target)).at(-1)?.results;
  }
  const row = rows?.[0];
  if (!row || typeof row.id !== 'string')
    throw new CliError('the user was not found after the insert (unexpected wrangler output)');
  return {
    created: row.id === id,
    id: row.id,
    email: input.email,
    role: String(row.role),
    ativo: Number(row.ativo) === 1,
  };
}

/** One line describing the outcome, never the password. */
export function describeAdmin(r: AdminResult): string {
  if (r.created) return `Created SUPERADMIN ${r.email} (id ${r.id}).`;
  const state = `${r.role}, ${r.ativo ? 'active' : 'pending'}`;
  return `A user with e-mail ${r.email} already exists (id ${r.id}, ${state}): nothing changed.`;
}

/** KEY=VALUE lines; blank lines and # comments ignored, `export ` and one pair of surrounding quotes stripped. */
export function parseDevVars(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (!m) continue;
    let value = m[2]!;
    const q = value[0];
    if ((q === '"' || q === "'") && value.length >= 2 && value.endsWith(q)) value = value.slice(1, -1);
    out[m[1]!] = value;
  }
  return out;
}

export function readDevVars(file: string): Record<string, string> {
  return parseDevVars(readFileSync(file, 'utf8'));
}

/** Letters and digits, uniformly drawn (randomInt has no modulo bias). */
export function randomPassword(length = 16): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  let s = '';
  for (let i = 0; i < length; i++) s += alphabet[randomInt(alphabet.length)];
  return s;
}

export const randomHex = (bytes: number) => randomBytes(bytes).toString('hex');

/** Prints one line and exits 1 (the stack of an unexpected error only with DEBUG set). */
export function fail(e: unknown): never {
  const msg = e instanceof Error ? e.message : String(e);
  console.error(e instanceof CliError ? `error: ${msg}` : `error (unexpected): ${msg.split('\n')[0]}`);
  if (!(e instanceof CliError) && process.env.DEBUG && e instanceof Error) console.error(e.stack);
  process.exit(1);
}
