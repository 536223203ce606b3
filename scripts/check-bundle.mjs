#!/usr/bin/env node
/**
 * Bundle budget (issues 8 and 20): runs `npm run build` (wrangler deploy --dry-run --outdir dist --minify),
 * gzips the worker bundle in dist/ and fails when it is above 300 KiB. Part of `npm test`, after the
 * typecheck.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(ROOT, 'dist');
// Ours, to notice growth (Workers accept far larger bundles): 250 since issue 20 left zod's locales out
// (261 -> 222 KiB); 300 for the third wave, whose features add about 8-10 KiB each (docs/performance.md#the-bundle).
const LIMIT_KIB = 300;

const build = spawnSync('npm', ['run', '-s', 'build'], {
  cwd: ROOT,
  encoding: 'utf8',
  env: { ...process.env, CI: '1', WRANGLER_SEND_METRICS: 'false' },
});
if (build.status !== 0) {
  const out = `${build.stdout ?? ''}\n${build.stderr ?? ''}`
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('npm warn'));
  console.error(
    `bundle check: npm run build failed (exit ${build.status ?? build.signal}):\n${out.slice(-15).join('\n')}`,
  );
  process.exit(1);
}

// The worker's modules: the main bundle plus any additional module wrangler wrote (no source maps).
const files = readdirSync(DIST).filter((f) => /\.(m?js|cjs|wasm)$/.test(f) && statSync(path.join(DIST, f)).isFile());
if (files.length === 0) {
  console.error(`bundle check: no worker bundle found in ${DIST}`);
  process.exit(1);
}
let raw = 0;
let gz = 0;
for (const f of files) {
  const bytes = readFileSync(path.join(DIST, f));
  raw += bytes.length;
  gz += gzipSync(bytes).length; // default level, as wrangler's "gzip:" figure
}
const kib = (n) => (n / 1024).toFixed(1);
const line = `bundle: ${files.join(' + ')} ${kib(raw)} KiB minified, ${kib(gz)} KiB gzipped (limit ${LIMIT_KIB} KiB)`;
if (gz > LIMIT_KIB * 1024) {
  console.error(`${line}: OVER THE LIMIT`);
  process.exit(1);
}
console.log(`${line}: ok`);
