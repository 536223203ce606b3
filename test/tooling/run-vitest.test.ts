import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const NOISE = ['noise from a passing test', 'more noise from a passing test', 'Using secrets defined in'];

type Run = { code: number | null; output: string; lines: string[] };

/** Runs `cmd` in the repository root (stdout and stderr together, colours off). */
function run(cmd: string, args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const { WRANGLER_LOG: _inherited, ...parent } = process.env; // the script must set it itself
    const child = spawn(cmd, args, { cwd: ROOT, env: { ...parent, NO_COLOR: '1', ...env } });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      output = output.replace(/\x1b\[[0-9;]*m/g, '');
      resolve({ code, output, lines: output.split('\n').filter((l) => l.trim()) });
    });
  });
}

describe('npm test output (scripts/run-vitest.mjs)', () => {
  // A copy of test/tooling/fixtures/quiet (the Workers pool, a passing and a failing test file) with a
  // developer's .dev.vars beside its wrangler config, inside the repository so node_modules resolves.
  let dir = '';
  let control: Run;
  let green: Run;
  let red: Run;

  beforeAll(async () => {
    mkdirSync(path.join(ROOT, 'test-results'), { recursive: true });
    dir = mkdtempSync(path.join(ROOT, 'test-results', 'quiet-fixture-'));
    cpSync(path.join(ROOT, 'test', 'tooling', 'fixtures', 'quiet'), dir, { recursive: true });
    writeFileSync(path.join(dir, '.dev.vars'), 'SOME_SECRET=local-only\n');
    const config = path.join(dir, 'vitest.config.ts');
    const script = (name: string, ...filter: string[]) =>
      run('node', ['scripts/run-vitest.mjs', '--config', config, ...filter], {
        RUN_VITEST_REPORT: path.join(dir, `${name}.json`),
      });
    [control, green, red] = await Promise.all([
      run('npx', ['--no-install', 'vitest', 'run', '--config', config, 'pass'], {}),
      script('green', 'pass'),
      script('red'),
    ]);
  }, 180_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('plain vitest on the passing file prints its logs and the .dev.vars notice (what npm test hides)', () => {
    expect(control.code).toBe(0);
    for (const noise of NOISE) expect(control.output).toContain(noise);
  });

  it('a green run prints the summary and "N passed, N failed", none of the passing tests’ output', () => {
    expect(green.code).toBe(0);
    for (const noise of NOISE) expect(green.output).not.toContain(noise);
    expect(green.output).not.toContain('WebSocket peer disconnected');
    expect(green.output).toMatch(/Test Files\s+1 passed \(1\)/);
    expect(green.lines.at(-1)).toBe('1 passed, 0 failed');
    expect(green.lines.length).toBeLessThanOrEqual(10);
  });

  it('a failing run prints the failure, its assertion and what the failing test logged, and exits 1', () => {
    expect(red.code).toBe(1);
    expect(red.output).toContain('fail.fixture.ts');
    expect(red.output).toContain('fails, and its own output is the evidence');
    expect(red.output).toContain('the failing assertion: expected 2 to be 3');
    expect(red.output).toContain('evidence logged by the failing test');
    for (const noise of NOISE) expect(red.output).not.toContain(noise);
    expect(red.output).not.toContain('WebSocket peer disconnected');
    expect(red.lines.at(-1)).toBe('1 passed, 1 failed');
  });
});
