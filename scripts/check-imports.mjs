// Imports point down only (docs/architecture.md#where-code-goes): each file of src/ belongs to a layer, and a
// layer may import only the layers listed for it. Run by `npm test`; prints every upward import.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const SRC = resolve(import.meta.dirname, '..', 'src');

/** A file's layer, from its path under src/. */
function layerOf(rel) {
  if (rel.startsWith('db/schema/') || rel === 'db/scope.ts') return 'schema';
  if (rel.startsWith('lib/')) return 'lib';
  if (rel.startsWith('db/')) return 'db';
  if (rel === 'env.ts') return 'env';
  for (const l of ['middleware', 'services', 'queue', 'scheduled', 'routes']) if (rel.startsWith(`${l}/`)) return l;
  return 'entry'; // app.ts, index.ts
}

const BOTTOM = ['lib', 'schema'];
const allowed = {
  lib: BOTTOM,
  schema: BOTTOM,
  db: [...BOTTOM, 'db'],
  env: [...BOTTOM, 'db'],
  middleware: [...BOTTOM, 'db', 'env', 'middleware'],
  services: [...BOTTOM, 'db', 'env', 'services'],
  queue: [...BOTTOM, 'db', 'env', 'services', 'queue'],
  scheduled: [...BOTTOM, 'db', 'env', 'services', 'scheduled'],
  routes: [...BOTTOM, 'db', 'env', 'middleware', 'services', 'routes'],
  entry: ['lib', 'schema', 'db', 'env', 'middleware', 'services', 'queue', 'scheduled', 'routes', 'entry'],
};

const files = [];
(function walk(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (p.endsWith('.ts')) files.push(p);
  }
})(SRC);

const upward = [];
for (const file of files) {
  const from = layerOf(relative(SRC, file));
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(/(?:import|export)[^'"]*?from\s+'(\.{1,2}\/[^']+)'/g)) {
    const abs = resolve(dirname(file), m[1]);
    const isDir = (() => {
      try {
        return statSync(abs).isDirectory();
      } catch {
        return false;
      }
    })();
    const target = relative(SRC, isDir ? join(abs, 'index.ts') : abs);
    const to = layerOf(target.endsWith('.ts') ? target : `${target}.ts`);
    if (!allowed[from].includes(to)) upward.push(`${relative(SRC, file)} (${from}) imports ${m[1]} (${to})`);
  }
}
if (upward.length) {
  console.error(`Imports pointing up (see docs/architecture.md#where-code-goes):\n  ${upward.join('\n  ')}`);
  process.exit(1);
}
console.log(`imports: ${files.length} files of src/, none points up`);
