// The import rules of docs/architecture.md#layers-and-domains, run by `npm test`:
// 1. layers: each file of src/ belongs to a layer, and a layer imports only the layers listed for it
//    (db/ never imports lib/; lib/ may read db/schema's types and constants: one direction);
// 2. domains: a service of one domain imports only its own domain and the domains before it in DOMAINS;
// 3. no import cycle between files (value imports; `import type` is erased and cannot cycle at run time).
// Prints every broken rule and exits 1.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const SRC = resolve(import.meta.dirname, '..', 'src');

/** The domains, lowest first: a domain may depend only on the domains before it. */
export const DOMAINS = [
  'core',
  'places',
  'accounts',
  'reliability',
  'catalogs',
  'records',
  'professionals',
  'agenda',
  'rules',
  'checkin',
  'availability',
  'planning',
  'money',
  'teams',
  'ranking',
  'whatsapp',
  'operations',
  'payments',
  'surveys',
  'tickets',
  'imports',
  'activity-log',
];

/** A file's layer, from its path under src/. */
function layerOf(rel) {
  if (rel.startsWith('db/schema/') || rel === 'db/scope.ts') return 'schema';
  if (rel.startsWith('lib/')) return 'lib';
  if (rel.startsWith('db/')) return 'db';
  if (rel === 'env.ts') return 'env';
  for (const l of ['middleware', 'services', 'queue', 'scheduled', 'routes']) if (rel.startsWith(`${l}/`)) return l;
  return 'entry'; // app.ts, index.ts
}

const allowed = {
  schema: ['schema'],
  db: ['schema', 'db'],
  lib: ['schema', 'lib', 'db'],
  env: ['schema', 'lib', 'db'],
  middleware: ['schema', 'lib', 'db', 'env', 'middleware'],
  services: ['schema', 'lib', 'db', 'env', 'services'],
  queue: ['schema', 'lib', 'db', 'env', 'services', 'queue'],
  scheduled: ['schema', 'lib', 'db', 'env', 'services', 'scheduled'],
  routes: ['schema', 'lib', 'db', 'env', 'middleware', 'services', 'routes'],
  entry: ['schema', 'lib', 'db', 'env', 'middleware', 'services', 'queue', 'scheduled', 'routes', 'entry'],
};

/** services/<domain>/...: the domain; anything else: none. */
const domainOf = (rel) => (rel.startsWith('services/') ? rel.split('/')[1] : undefined);

const files = [];
(function walk(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (p.endsWith('.ts')) files.push(p);
  }
})(SRC);

function resolveSpec(file, spec) {
  const abs = resolve(dirname(file), spec);
  try {
    if (statSync(abs).isDirectory()) return relative(SRC, join(abs, 'index.ts'));
  } catch {}
  return relative(SRC, abs.endsWith('.ts') ? abs : `${abs}.ts`);
}

const broken = [];
const graph = new Map(); // value imports, for cycles
for (const file of files) {
  const rel = relative(SRC, file);
  const from = layerOf(rel);
  const text = readFileSync(file, 'utf8');
  const edges = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(import|export)(\s+type)?([^'";]*?)from\s+'(\.{1,2}(?:\/[^']*)?)'/g)) {
    const [, , typeOnly, clause, spec] = m;
    const target = resolveSpec(file, spec);
    const to = layerOf(target);
    if (!allowed[from].includes(to)) broken.push(`${rel} (${from}) imports ${spec} (${to}): against the layers`);
    const [fd, td] = [domainOf(rel), domainOf(target)];
    if (fd && td && fd !== td) {
      const [fi, ti] = [DOMAINS.indexOf(fd), DOMAINS.indexOf(td)];
      if (fi < 0) broken.push(`${rel}: services/${fd}/ is not a domain of DOMAINS`);
      else if (ti < 0 || ti > fi) broken.push(`${rel} (${fd}) imports ${spec} (${td}): against the domain order`);
    }
    // `import { type A, type B }` is erased as well as `import type`.
    const erased =
      typeOnly ||
      (/^\s*\{[^}]*\}\s*$/.test(clause) &&
        clause
          .replace(/[{}\s]/g, '')
          .split(',')
          .filter(Boolean)
          .every((n) => n.startsWith('type')));
    if (!erased) edges.push(target);
  }
  graph.set(rel, edges);
}

// Cycles: depth-first search, each cycle reported once by its first file.
const state = new Map();
const seen = new Set();
function visit(node, stack) {
  state.set(node, 'open');
  stack.push(node);
  for (const next of graph.get(node) ?? []) {
    if (!graph.has(next)) continue;
    if (state.get(next) === 'open') {
      const cycle = stack.slice(stack.indexOf(next));
      const key = [...cycle].sort().join(' ');
      if (!seen.has(key)) {
        seen.add(key);
        broken.push(`import cycle: ${[...cycle, next].join(' -> ')}`);
      }
    } else if (!state.has(next)) visit(next, stack);
  }
  stack.pop();
  state.set(node, 'done');
}
for (const node of graph.keys()) if (!state.has(node)) visit(node, []);

if (broken.length) {
  console.error(`Imports against the rules (docs/architecture.md#layers-and-domains):\n  ${broken.join('\n  ')}`);
  process.exit(1);
}
console.log(`imports: ${files.length} files of src/ in their layers and domain order, no cycle`);
