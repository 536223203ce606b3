import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(path.join(tmpdir(), 'redocly-lint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A document that passes recommended-strict, and the same without `info` (a structural error). */
const good = {
  openapi: '3.1.0',
  info: { title: 't', version: '1', description: 'd', license: { name: 'Proprietary', url: 'https://example.test/l' } },
  servers: [{ url: 'http://localhost:8787' }],
  tags: [{ name: 'meta', description: 'd' }],
  paths: {
    '/health': {
      get: {
        operationId: 'health',
        summary: 'Health',
        description: 'd',
        tags: ['meta'],
        security: [],
        responses: Object.fromEntries(
          ['200', '400'].map((s) => [
            s,
            { description: s, content: { 'application/json': { schema: { type: 'object' } } } },
          ]),
        ),
      },
    },
  },
};

function lint(doc: object): Promise<{ code: number | null; output: string }> {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(doc));
  return new Promise((resolve) => {
    const child = spawn('node', ['scripts/redocly-lint.mjs', file], { cwd: ROOT });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe.concurrent('npm run lint:openapi (scripts/redocly-lint.mjs)', () => {
  it('a valid document: one line, without Redocly’s Node.js 20 notice box', async () => {
    const { code, output } = await lint(good);
    expect(code).toBe(0);
    expect(output.trim().split('\n')).toEqual([expect.stringMatching(/^redocly lint: .+\.json is valid/)]);
  });

  it('an invalid document: exit 1 with Redocly’s findings, still without the box', async () => {
    const { info: _info, ...bad } = good;
    const { code, output } = await lint(bad);
    expect(code).toBe(1);
    expect(output).toContain('The field `info` must be present on this level.');
    expect(output).toContain('Validation failed with 1 error');
    expect(output).not.toMatch(/Node\.js 20|[╔╚║]/);
  });
});
