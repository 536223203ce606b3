/**
 * npm run dev [-- --persist-to DIR] [-- other wrangler dev flags]
 *
 * Decisions D13: writes .dev.vars (random JWT_SECRET, a local admin, API_URL on this port) when it does not exist,
 * applies the local D1 migrations, creates the admin named by ADMIN_EMAIL/ADMIN_PASSWORD when
 * absent, then runs `wrangler dev --port 8787` in the foreground.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import {
  applyLocalMigrations,
  CliError,
  createSuperadmin,
  describeAdmin,
  devServerEnv,
  fail,
  randomHex,
  randomPassword,
  readDevVars,
  resolveUserPath,
  ROOT,
  validateAdmin,
} from './lib.ts';

const DEV_VARS = path.join(ROOT, '.dev.vars');
/** Local frontends (Vite, Next): wrangler.toml ships no CORS origins, so local development gets them here. */
const DEV_CORS_ORIGINS = 'http://localhost:5173,http://localhost:3000';

/** --persist-to is ours too (migrations and the admin go where wrangler dev will look); the rest goes to wrangler dev. */
function parse(argv: string[]) {
  const passthrough: string[] = [];
  let persistTo: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--persist-to' || a.startsWith('--persist-to=')) {
      const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[++i];
      if (!v) throw new CliError('--persist-to needs a directory');
      persistTo = resolveUserPath(v);
    } else passthrough.push(a);
  }
  const hasPort = passthrough.some((a) => a === '--port' || a.startsWith('--port='));
  return { persistTo, wranglerArgs: [...(hasPort ? [] : ['--port', '8787']), ...passthrough] };
}

function ensureDevVars() {
  if (existsSync(DEV_VARS)) return;
  const text = [
    '# Local secrets for wrangler dev, written by `npm run dev`. Never commit this file.',
    `JWT_SECRET=${randomHex(32)}`,
    '# The dev server speaks http, so the session cookies must not be Secure.',
    'COOKIE_SECURE=false',
    '# `npm run dev` creates this SUPERADMIN in the local database when it does not exist.',
    'ADMIN_EMAIL=admin@example.com',
    `ADMIN_PASSWORD=${randomPassword(16)}`,
    '# Browser origins allowed with credentials (production sets its own; wrangler.toml ships none).',
    `CORS_ORIGINS=${DEV_CORS_ORIGINS}`,
    '',
  ].join('\n');
  writeFileSync(DEV_VARS, text, { flag: 'wx', mode: 0o600 });
  console.log(`Wrote ${DEV_VARS} with a random JWT_SECRET, COOKIE_SECURE=false and a random admin password.`);
}

/** A .dev.vars written before wrangler.toml stopped shipping localhost origins gets them once. */
function ensureDevCorsOrigins(vars: Record<string, string>) {
  if (vars.CORS_ORIGINS !== undefined) return;
  appendFileSync(
    DEV_VARS,
    `\n# Added by npm run dev: wrangler.toml ships no CORS origins.\nCORS_ORIGINS=${DEV_CORS_ORIGINS}\n`,
  );
  vars.CORS_ORIGINS = DEV_CORS_ORIGINS;
  console.log(`Added CORS_ORIGINS=${DEV_CORS_ORIGINS} to ${DEV_VARS}.`);
}

/** The local fake of Mercado Pago (scripts/fake-mercadopago.ts): orders get a checkout url without an account. */
const FAKE_MP_URL = 'http://localhost:8790';

/** A .dev.vars without the payment settings points them at the local fake once, with a random webhook secret. */
function ensureDevPayments(vars: Record<string, string>) {
  if (vars.MP_API_URL !== undefined) return;
  const lines = {
    MP_API_URL: FAKE_MP_URL,
    MP_ACCESS_TOKEN: 'TEST-local-fake',
    MP_WEBHOOK_SECRET: randomHex(32),
  };
  appendFileSync(
    DEV_VARS,
    `\n# Added by npm run dev: payments go to the local fake of Mercado Pago (npm run fake:mercadopago).\n` +
      Object.entries(lines)
        .map(([k, v]) => `${k}=${v}`)
        .join('\n') +
      '\n',
  );
  Object.assign(vars, lines);
  console.log(`Added MP_API_URL=${FAKE_MP_URL}, MP_ACCESS_TOKEN and a random MP_WEBHOOK_SECRET to ${DEV_VARS}.`);
}

/** A .dev.vars without the activity log's chain key gets a random one once (docs/decisions.md#d15). */
function ensureDevLogChain(vars: Record<string, string>) {
  if (vars.LOG_CHAIN_SECRET !== undefined) return;
  const key = randomHex(32);
  appendFileSync(
    DEV_VARS,
    `\n# Added by npm run dev: the key of the activity log's seals (without it the scheduled job seals nothing).\nLOG_CHAIN_SECRET=${key}\n`,
  );
  vars.LOG_CHAIN_SECRET = key;
  console.log(`Added a random LOG_CHAIN_SECRET to ${DEV_VARS}.`);
}

/** A .dev.vars without the check-in key gets a random one once (docs/decisions.md#d27). */
function ensureDevCheckin(vars: Record<string, string>) {
  if (vars.CHECKIN_SECRET !== undefined) return;
  const key = randomHex(32);
  appendFileSync(
    DEV_VARS,
    `\n# Added by npm run dev: the key of the QR check-in codes (without it the codes answer 503).\nCHECKIN_SECRET=${key}\n`,
  );
  vars.CHECKIN_SECRET = key;
  console.log(`Added a random CHECKIN_SECRET to ${DEV_VARS}.`);
}

/**
 * A .dev.vars without WhatsApp settings turns the channel on with the log provider once (docs/decisions.md#d30):
 * messages are logged, never sent; the webhook's secrets are random (sign local test deliveries with them).
 */
function ensureDevWhatsapp(vars: Record<string, string>) {
  if (vars.WHATSAPP_PROVIDER !== undefined) return;
  const lines = {
    WHATSAPP_PROVIDER: 'log',
    WHATSAPP_TOKEN: 'dev-log-only',
    WHATSAPP_APP_SECRET: randomHex(32),
    WHATSAPP_VERIFY_TOKEN: randomHex(16),
  };
  appendFileSync(
    DEV_VARS,
    `\n# Added by npm run dev: WhatsApp messages are logged, not sent (WHATSAPP_PROVIDER=log).\n` +
      Object.entries(lines)
        .map(([k, v]) => `${k}=${v}`)
        .join('\n') +
      '\n',
  );
  Object.assign(vars, lines);
  console.log(`Added WHATSAPP_PROVIDER=log and random webhook secrets to ${DEV_VARS}.`);
}

/** The port wrangler dev will listen on (parse() always puts one in). */
function portOf(wranglerArgs: string[]): string {
  const i = wranglerArgs.findIndex((a) => a === '--port' || a.startsWith('--port='));
  const a = wranglerArgs[i]!;
  return a.includes('=') ? a.slice(a.indexOf('=') + 1) : wranglerArgs[i + 1]!;
}

/**
 * The API's public origin (calendar feed urls and the OpenAPI document's server start with it; the
 * API never takes it from a request's Host, and refuses feed urls without it): written once, for the
 * port of this run. A later run on another port only warns (the file is the developer's).
 */
function ensureDevApiUrl(vars: Record<string, string>, port: string) {
  const url = `http://localhost:${port}`;
  if (vars.API_URL === undefined) {
    appendFileSync(
      DEV_VARS,
      `\n# Added by npm run dev: the API's public origin (calendar feed urls start with it).\nAPI_URL=${url}\n`,
    );
    vars.API_URL = url;
    console.log(`Added API_URL=${url} to ${DEV_VARS}.`);
  } else if (
    /^http:\/\/(localhost|127\.0\.0\.1)(:\d+)?\/?$/.test(vars.API_URL) &&
    vars.API_URL.replace(/\/$/, '') !== url
  )
    console.warn(
      `warning: API_URL in ${DEV_VARS} is ${vars.API_URL}, but this server listens on ${url}: feed urls will point there.`,
    );
}

/** wrangler's own launcher, run with this node: it passes SIGINT/SIGTERM on and shuts workerd down. */
function wranglerBin(): string {
  const require = createRequire(import.meta.url);
  const pkgPath = require.resolve('wrangler/package.json', { paths: [ROOT] });
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { bin: string | Record<string, string> };
  const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin.wrangler!;
  return path.join(path.dirname(pkgPath), bin);
}

async function main() {
  const { persistTo, wranglerArgs } = parse(process.argv.slice(2));
  ensureDevVars();
  const vars = readDevVars(DEV_VARS);
  ensureDevCorsOrigins(vars);
  ensureDevPayments(vars);
  ensureDevLogChain(vars);
  ensureDevWhatsapp(vars);
  ensureDevCheckin(vars);
  ensureDevApiUrl(vars, portOf(wranglerArgs));
  if (!vars.JWT_SECRET)
    console.warn('warning: .dev.vars has no JWT_SECRET: every authenticated route will answer 500.');

  console.log(await applyLocalMigrations(persistTo));

  if (vars.ADMIN_EMAIL && vars.ADMIN_PASSWORD) {
    const input = validateAdmin(
      { email: vars.ADMIN_EMAIL, password: vars.ADMIN_PASSWORD, name: vars.ADMIN_NAME },
      { email: 'ADMIN_EMAIL in .dev.vars', password: 'ADMIN_PASSWORD in .dev.vars', name: 'ADMIN_NAME in .dev.vars' },
    );
    const result = await createSuperadmin(input, { remote: false, persistTo });
    console.log(describeAdmin(result));
    console.log(
      `Local admin: ${result.email}, password: ADMIN_PASSWORD in ${DEV_VARS}` +
        (result.created ? '' : ' (as it was when the user was created)'),
    );
  } else {
    console.log('No ADMIN_EMAIL/ADMIN_PASSWORD in .dev.vars: no admin created (npm run admin:create makes one).');
  }

  const args = [wranglerBin(), 'dev', ...wranglerArgs, ...(persistTo ? ['--persist-to', persistTo] : [])];
  console.log(`Starting wrangler dev ${args.slice(2).join(' ')}`);
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    stdio: 'inherit',
    env: devServerEnv(),
  });
  const forward = (sig: NodeJS.Signals) => () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(sig);
  };
  process.on('SIGINT', forward('SIGINT'));
  process.on('SIGTERM', forward('SIGTERM'));
  child.on('error', (e) => fail(new CliError(`could not start wrangler dev: ${e.message}`)));
  child.on('exit', (code, signal) => process.exit(code ?? (signal === 'SIGINT' ? 130 : signal ? 143 : 1)));
}

main().catch(fail);
