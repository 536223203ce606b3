import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { devServerEnv, freePort, randomHex, ROOT, runWrangler, summarizeMigrations } from '../../scripts/lib.ts';

const temp = mkdtempSync(path.join(tmpdir(), 'dev-server-test-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe.concurrent('npm run dev: what it prints', () => {
  it('counts the migration files it applied, not wrangler’s table rows (it said 946 for 43)', async () => {
    // wrangler itself on a project of three migrations (drizzle/ has over 40: minutes on a busy machine).
    const dir = path.join(temp, 'migrations-project');
    mkdirSync(path.join(dir, 'migrations'), { recursive: true });
    for (const [i, table] of ['a', 'b', 'c'].entries())
      writeFileSync(path.join(dir, 'migrations', `000${i}_${table}.sql`), `CREATE TABLE ${table} (id integer);\n`);
    writeFileSync(
      path.join(dir, 'wrangler.toml'),
      'name = "m"\ncompatibility_date = "2026-04-20"\n' +
        '[[d1_databases]]\nbinding = "DB"\ndatabase_name = "m"\ndatabase_id = "00000000-0000-4000-8000-000000000000"\n' +
        'migrations_dir = "migrations"\n',
    );
    const apply = async () => {
      const args = ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', path.join(dir, 'state')];
      const r = await runWrangler([...args, '-c', path.join(dir, 'wrangler.toml')], undefined, { WRANGLER_LOG: 'log' });
      expect(r.code).toBe(0);
      return summarizeMigrations(r.stdout, 3);
    };
    expect(await apply()).toBe('local D1 migrations: applied the 3 pending (3 in drizzle/, all applied now)');
    expect(await apply()).toBe('local D1 migrations: none pending (3 in drizzle/, all applied)');
  });

  it('wrangler dev (as npm run dev starts it) builds the docs assets, serves them, and prints no Request.cf stack trace', async () => {
    const port = await freePort();
    const bin = path.join(ROOT, 'node_modules', 'wrangler', 'bin', 'wrangler.js');
    const args = ['dev', '--ip', '127.0.0.1', '--port', String(port), '--persist-to', path.join(temp, 'dev')];
    // The JWT_SECRET npm run dev writes into .dev.vars (a clean clone has none).
    args.push('--var', `JWT_SECRET:${randomHex(32)}`);
    // Without vitest's NODE_ENV=test, with which miniflare never fetches Request.cf, and with wrangler's
    // usual output (npm test runs vitest with WRANGLER_LOG=warn); in its own process group, so that
    // stopping it stops workerd too.
    const { NODE_ENV: _test, ...env } = devServerEnv();
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: ROOT,
      env: { ...env, WRANGLER_LOG: 'log' },
      detached: true,
    });
    let output = '';
    child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    try {
      await until(
        () => /Ready on/.test(output),
        child,
        () => output,
      );
      const asset = await fetch(`http://127.0.0.1:${port}/docs/vendor/swagger-ui-bundle.js`);
      expect(asset.status).toBe(200);
      await asset.body?.cancel();
      const health = await fetch(`http://127.0.0.1:${port}/health`);
      expect(health.status).toBe(200);
      await health.body?.cancel();
      expect(output).toContain('[custom build] Running: node scripts/docs-assets.mjs');
      // Offline, miniflare used to print "Unable to fetch the `Request.cf` object!" and a stack trace.
      expect(output).not.toMatch(/Request\.cf|ENOTFOUND|\n\s+at /);
    } finally {
      await stop(child);
    }
  });
});

async function until(done: () => boolean, child: ChildProcess, output: () => string, ms = 90_000) {
  const end = Date.now() + ms;
  while (!done()) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited with ${child.exitCode}:\n${output()}`);
    if (Date.now() > end) throw new Error(`wrangler dev not ready within ${ms / 1000} s:\n${output()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    process.kill(-child.pid!, 'SIGTERM');
  });
}
