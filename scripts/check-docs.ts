/**
 * npm run check:docs [-- --port N] [--screenshot FILE]
 *
 * Renders GET /docs in a headless Chromium that may reach nothing but the local `wrangler dev`, and
 * fails unless Swagger UI draws every operation of /openapi.json with no request leaving 127.0.0.1,
 * no CSP violation and no script error. Swagger UI draws only the tag sections in view, so the page
 * is scrolled to its end and the operations drawn on the way are compared, by method and path, with
 * the document's. Run by .ci/run after `npm test`; run it after changing the docs page, its assets or
 * swagger-ui-dist. Needs Chromium (Debian: `apt-get install chromium`; another binary:
 * CHROMIUM_PATH=/path/to/chrome). Starts its own plain `wrangler dev` (whose [build] command copies
 * the Swagger UI files) on 127.0.0.1, on a free port unless --port, with a throwaway JWT_SECRET and a
 * temporary --persist-to directory, and stops it at the end.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Page } from 'playwright-core';
import { freePort, randomHex, ROOT, wranglerEnv } from './lib.ts';

const { values } = parseArgs({ options: { port: { type: 'string' }, screenshot: { type: 'string' } } });
const PORT = values.port ? Number(values.port) : await freePort();
const ORIGIN = `http://127.0.0.1:${PORT}`;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function startWrangler(persistTo: string): ChildProcess {
  const require = createRequire(import.meta.url);
  const bin = path.join(
    path.dirname(require.resolve('wrangler/package.json', { paths: [ROOT] })),
    'bin',
    'wrangler.js',
  );
  const args = ['dev', '--ip', '127.0.0.1', '--port', String(PORT), '--persist-to', persistTo];
  args.push('--var', `JWT_SECRET:${randomHex(32)}`);
  const child = spawn(process.execPath, [bin, ...args], { cwd: ROOT, env: wranglerEnv(), stdio: 'pipe' });
  let log = '';
  child.stdout?.on('data', (d) => (log += d));
  child.stderr?.on('data', (d) => (log += d));
  child.on('exit', (code) => {
    if (code) console.error(`wrangler dev exited with ${code}:\n${log.split('\n').slice(-15).join('\n')}`);
  });
  return child;
}

async function waitForServer(child: ChildProcess, timeoutMs = 90_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error('wrangler dev stopped before answering');
    try {
      if ((await fetch(`${ORIGIN}/health`)).ok) {
        const res = await fetch(`${ORIGIN}/openapi.json`);
        if (!res.ok) throw new Error(`GET /openapi.json answered ${res.status}`);
        return (await res.json()) as { paths: Record<string, Record<string, unknown>> };
      }
    } catch (e) {
      if (e instanceof Error && e.message.startsWith('GET /openapi.json')) throw e;
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`wrangler dev did not answer on ${ORIGIN} within ${timeoutMs / 1000} s`);
}

/**
 * Scrolls the page to its end and returns every operation Swagger UI drew on the way ("GET /path"):
 * it keeps only the tag sections near the viewport in the DOM, so no single moment shows them all.
 */
async function operationsDrawn(page: Page): Promise<Set<string>> {
  const drawn = new Set<string>();
  let quietAtBottom = 0;
  for (let step = 0; step < 1000 && quietAtBottom < 3; step++) {
    const before = drawn.size;
    const now = await page.$$eval('.swagger-ui .opblock', (blocks) =>
      blocks.map(
        (b) =>
          `${b.querySelector('.opblock-summary-method')?.textContent?.trim().toUpperCase()} ` +
          `${b.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`,
      ),
    );
    for (const op of now) drawn.add(op);
    const atBottom = await page.evaluate(() => {
      const end = window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2;
      window.scrollBy(0, Math.round(window.innerHeight * 0.8));
      return end;
    });
    quietAtBottom = atBottom && drawn.size === before ? quietAtBottom + 1 : 0;
    await page.waitForTimeout(100);
  }
  return drawn;
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM'); // wrangler's launcher passes it on and shuts workerd down
  });
}

async function main(): Promise<number> {
  if (!existsSync(CHROMIUM)) {
    console.error(`docs check: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);
    return 1;
  }
  const pkg = path.join(ROOT, 'node_modules', 'swagger-ui-dist', 'package.json');
  const { version } = JSON.parse(readFileSync(pkg, 'utf8')) as { version: string };
  const persistTo = mkdtempSync(path.join(tmpdir(), 'check-docs-'));
  const server = startWrangler(persistTo);
  try {
    const doc = await waitForServer(server);
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([p, item]) =>
        Object.keys(item)
          .filter((m) => METHODS.includes(m))
          .map((m) => `${m.toUpperCase()} ${p}`),
      ),
    );
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    try {
      const page = await browser.newPage();
      const outside: string[] = [];
      const problems: string[] = [];
      // No network but this machine: every request that does not go to the local server is refused.
      await page.route('**/*', (route) => {
        const url = route.request().url();
        if (url.startsWith(`${ORIGIN}/`) || url.startsWith('data:')) return route.continue();
        outside.push(url);
        return route.abort('internetdisconnected');
      });
      page.on('console', (m) => {
        if (m.type() === 'error' || /Content Security Policy/i.test(m.text())) problems.push(`console: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      page.on('requestfailed', (r) => {
        if (!outside.includes(r.url())) problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`);
      });
      page.on('response', (r) => {
        if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
      });

      const res = await page.goto(`${ORIGIN}/docs`, { waitUntil: 'load' });
      const csp = res?.headers()['content-security-policy'] ?? '';
      let title = '';
      try {
        await page.waitForSelector('.swagger-ui .info .title', { timeout: 20_000 });
        await page.waitForSelector('.swagger-ui .opblock', { timeout: 20_000 });
        title = (await page.textContent('.swagger-ui .info .title'))?.trim() ?? '';
      } catch {
        problems.push('Swagger UI did not render the document within 20 s');
      }
      if (values.screenshot) await page.screenshot({ path: values.screenshot, fullPage: false });
      const drawn = title ? await operationsDrawn(page) : new Set<string>();
      const missing = [...documented].filter((op) => !drawn.has(op));
      const unknown = [...drawn].filter((op) => !documented.has(op));

      if (!csp.includes("script-src 'self'")) problems.push(`no script-src 'self' CSP on /docs: "${csp}"`);
      if (title && !title.startsWith('Event Operations API')) problems.push(`title is "${title}"`);
      if (missing.length)
        problems.push(`${missing.length} operations of /openapi.json never drawn: ${missing.slice(0, 10).join(', ')}`);
      if (unknown.length)
        problems.push(`operations drawn that /openapi.json lacks: ${unknown.slice(0, 10).join(', ')}`);
      for (const url of outside) problems.push(`request outside ${ORIGIN}: ${url}`);

      const summary = `swagger-ui-dist ${version}, ${documented.size - missing.length}/${documented.size} operations drawn, ${outside.length} outside requests`;
      if (problems.length) {
        console.error(`docs check: FAILED (${summary})\n  ${problems.join('\n  ')}`);
        return 1;
      }
      console.log(`docs check: ok (${summary}, no CSP violation or script error)`);
      return 0;
    } finally {
      await browser.close();
    }
  } finally {
    await stop(server);
    rmSync(persistTo, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`docs check: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
