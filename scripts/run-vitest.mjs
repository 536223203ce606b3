// Runs vitest in the Workers pool and ends with the plain line "N passed, N failed".
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';

mkdirSync('test-results', { recursive: true });
const out = 'test-results/vitest.json';
const args = [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${out}`,
  ...process.argv.slice(2),
];
const run = spawnSync('npx', ['--no-install', ...args], { stdio: 'inherit' });
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
process.exit(run.status === 0 && failed === 0 ? 0 : 1);
