// The house's size signals (docs/architecture.md, "Keeping the house livable"): lines per folder, the
// largest files, long functions, functions with many positional parameters, type escapes, import cycles
// and README lines. `npx tsx scripts/house-metrics.ts [--json]`; it reads src/ and writes nothing.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '..');
const SRC = join(ROOT, 'src');

function walk(dir: string, out: string[] = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (p.endsWith('.ts')) out.push(p);
  }
  return out;
}

const files = walk(SRC);
const lines = (f: string) => readFileSync(f, 'utf8').split('\n').length - 1;

// Lines per top-level folder of src/ (a file at the top counts as its own name).
const perFolder = new Map<string, { files: number; lines: number }>();
for (const f of files) {
  const rel = relative(SRC, f);
  const key = rel.includes('/') ? rel.split('/')[0]! + '/' : rel;
  const v = perFolder.get(key) ?? { files: 0, lines: 0 };
  v.files++;
  v.lines += lines(f);
  perFolder.set(key, v);
}

const largest = files
  .map((f) => ({ file: relative(ROOT, f), lines: lines(f) }))
  .sort((a, b) => b.lines - a.lines)
  .slice(0, 10);

// Functions: length in lines, and positional parameters (a destructured object counts as one).
interface Fn {
  file: string;
  name: string;
  line: number;
  lines: number;
  params: number;
  exported: boolean;
}
const fns: Fn[] = [];
let asUnknownAs = 0;
let asNever = 0;
for (const f of files) {
  const text = readFileSync(f, 'utf8');
  asUnknownAs += (text.match(/\bas unknown as\b/g) ?? []).length;
  asNever += (text.match(/\bas never\b/g) ?? []).length;
  const sf = ts.createSourceFile(f, text, ts.ScriptTarget.Latest, true);
  const visit = (node: ts.Node, exported: boolean, name: string | undefined) => {
    if (
      ts.isFunctionDeclaration(node) ||
      ts.isArrowFunction(node) ||
      ts.isFunctionExpression(node) ||
      ts.isMethodDeclaration(node)
    ) {
      const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      const fnName =
        (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name
          ? node.name.getText(sf)
          : (name ?? '(anonymous)');
      const isExported =
        exported ||
        (ts.isFunctionDeclaration(node) && !!node.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword));
      fns.push({
        file: relative(ROOT, f),
        name: fnName,
        line: start + 1,
        lines: end - start + 1,
        params: node.parameters.length,
        exported: isExported,
      });
    }
    // The name and export of `export const x = (...) => ...`.
    if (ts.isVariableStatement(node)) {
      const exp = !!node.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
      for (const d of node.declarationList.declarations)
        if (d.initializer) visit(d.initializer, exp, d.name.getText(sf));
      return;
    }
    ts.forEachChild(node, (c) => visit(c, false, undefined));
  };
  ts.forEachChild(sf, (c) => visit(c, false, undefined));
}
const long = fns.filter((f) => f.lines > 60).sort((a, b) => b.lines - a.lines);
const manyParams = fns.filter((f) => f.params > 3).sort((a, b) => b.params - a.params);
const exportedManyParams = manyParams.filter((f) => f.exported && f.file.startsWith('src/services/'));

// Import cycles among value imports (type-only imports do not run).
const set = new Set(files);
const edges = new Map<string, string[]>();
for (const f of files) {
  const deps: string[] = [];
  for (const m of readFileSync(f, 'utf8').matchAll(
    /^\s*(?:import|export)\s+(?!type\b)[^'"]*?from\s+['"](\.[^'"]+)['"]/gm,
  )) {
    const t = resolve(dirname(f), m[1]!);
    for (const c of [t + '.ts', join(t, 'index.ts'), t])
      if (set.has(c)) {
        deps.push(c);
        break;
      }
  }
  edges.set(f, deps);
}
const cycles: string[] = [];
{
  const state = new Map<string, number>();
  const stack: string[] = [];
  const visit = (f: string) => {
    state.set(f, 1);
    stack.push(f);
    for (const d of edges.get(f) ?? []) {
      if (state.get(d) === 1)
        cycles.push(
          stack
            .slice(stack.indexOf(d))
            .concat(d)
            .map((x) => relative(SRC, x))
            .join(' -> '),
        );
      else if (!state.get(d)) visit(d);
    }
    stack.pop();
    state.set(f, 2);
  };
  for (const f of files) if (!state.get(f)) visit(f);
}

const readme = lines(join(ROOT, 'README.md'));
const total = [...perFolder.values()].reduce((s, v) => s + v.lines, 0);
const result = {
  src: { files: files.length, lines: total },
  perFolder: Object.fromEntries([...perFolder.entries()].sort((a, b) => b[1].lines - a[1].lines)),
  largest,
  functionsOver60Lines: long.length,
  functionsOverThreeParams: manyParams.length,
  exportedServiceFunctionsOverThreeParams: exportedManyParams.length,
  asUnknownAs,
  asNever,
  importCycles: cycles.length,
  readmeLines: readme,
};

if (process.argv.includes('--json')) console.log(JSON.stringify({ ...result, long, manyParams, cycles }, null, 2));
else {
  console.log(`src: ${total} lines in ${files.length} files; README.md ${readme} lines`);
  console.log('lines per folder:');
  for (const [k, v] of Object.entries(result.perFolder))
    console.log(`  ${k.padEnd(14)} ${String(v.lines).padStart(6)} (${v.files} files)`);
  console.log('largest files:');
  for (const l of largest) console.log(`  ${String(l.lines).padStart(5)} ${l.file}`);
  console.log(`functions over 60 lines: ${long.length}`);
  for (const f of long.slice(0, 15)) console.log(`  ${String(f.lines).padStart(4)} ${f.file}:${f.line} ${f.name}`);
  console.log(
    `functions with more than 3 positional parameters: ${manyParams.length} (exported from services/: ${exportedManyParams.length})`,
  );
  for (const f of manyParams.slice(0, 15)) console.log(`  ${f.params} ${f.file}:${f.line} ${f.name}`);
  console.log(`'as unknown as': ${asUnknownAs}; 'as never': ${asNever}`);
  console.log(`import cycles: ${cycles.length}`);
  for (const c of cycles.slice(0, 10)) console.log(`  ${c}`);
}
