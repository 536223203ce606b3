// Runs vitest (both projects of vitest.config.ts) and ends with the plain line "N passed, N failed".
//
// Quiet when green: vitest's `minimal` reporter prints only failed tests, each with the console output
// it produced (the app's log lines included), then the summary; the output of passing tests is dropped.
// `npx vitest run <file>` keeps the default reporter, with everything. Two other sources of noise are not
// vitest's: the pool's wrangler says "Using secrets defined in .dev.vars" once per test file
// (WRANGLER_LOG=warn keeps its warnings and errors), and workerd reports each test file's closed
// runner socket (NOISE below drops that line only; everything else passes through).
// RUN_VITEST_REPORT names the JSON report (test/tooling/run-vitest.test.ts runs this script on fixtures).
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';

/** Lines of the child's output that say nothing about the tests (workerd prints them on stdout). */
const NOISE = [/^exception = workerd\/api\/web-socket\.c\+\+:\d+: disconnected: WebSocket peer disconnected$/];

const out = path.resolve(process.env.RUN_VITEST_REPORT ?? 'test-results/vitest.json');
mkdirSync(path.dirname(out), { recursive: true });
rmSync(out, { force: true }); // a report left by an earlier run must not be counted
const args = ['vitest', 'run', '--reporter=minimal', '--reporter=json', `--outputFile.json=${out}`];
const env = { ...process.env, WRANGLER_LOG: process.env.WRANGLER_LOG ?? 'warn' };
// Through the filter vitest writes to pipes: keep its colours when this script writes to a terminal.
if (process.stdout.isTTY && env.NO_COLOR === undefined) env.FORCE_COLOR ??= '1';
const child = spawn('npx', ['--no-install', ...args, ...process.argv.slice(2)], {
  stdio: ['inherit', 'pipe', 'pipe'],
  env,
});
for (const [from, to] of [
  [child.stdout, process.stdout],
  [child.stderr, process.stderr],
]) {
  createInterface({ input: from, crlfDelay: Infinity }).on('line', (line) => {
    const plain = line.replace(/\x1b\[[0-9;]*m/g, '').trim();
    if (!NOISE.some((re) => re.test(plain))) to.write(`${line}\n`);
  });
}
const status = await new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)));

let passed = 0;
let failed = 0;
try {
  const report = JSON.parse(readFileSync(out, 'utf8'));
  passed = report.numPassedTests;
  failed = report.numFailedTests + (report.success || report.numFailedTests ? 0 : 1);
} catch {
  failed = 1;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(status === 0 && failed === 0 ? 0 : 1);
