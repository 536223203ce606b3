/**
 * npm run check:refs (part of npm test)
 *
 * Every reference to a file of the repository, in a code comment (src/, test/, scripts/, bench/) or in
 * the Markdown documentation (inline code and prose), names a file that exists, and a `.md#anchor` an
 * anchor of that page (the rules of scripts/check-doc-links.ts). A path is read from the repository's
 * root, then from src/, src/services/ and test/ (comments say `db/authored.ts`, `core/mail.ts`,
 * `helpers/queries.ts`), then from the citing file's folder. References
 * to files outside the repository (the product's own spec folder) are refused: the
 * repository documents itself (docs/decisions.md holds every decision).
 * Prints each broken reference as `file:line: reference: reason` and exits 1.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { anchorsOf, docFiles } from './check-doc-links.ts';
import { ROOT } from './lib.ts';

const CODE_DIRS = ['src', 'test', 'scripts', 'bench'];
const CODE_EXT = /\.(ts|mts|mjs|js)$/;

/** A path with a known ending, maybe with a `#anchor`: `src/db/cached-batch.ts`, `docs/decisions.md#d5`. */
const PATH =
  /(?<![\w./@-])((?:\.\.?\/)*(?:[\w-]+\/)*[\w.-]+\.(?:ts|mts|mjs|md|sql|csv|toml|json|sh))(#[\w-]+)?(?![\w/-])/g;
/** Files that are not in the repository, whatever a comment says of them. */
const OUTSIDE = /\bdecisions-[23](?:\.md)?\b|\.\.\/shared\/|\bDESIGN\.md\b|\bservice-interface\.md\b|\bSTACK\.md\b/g;
/** Names that look like paths but are not files of ours (packages, generated or per-machine files). */
const NOT_OURS =
  /^(?:package(?:-lock)?\.json|tsconfig\.json|\.dev\.vars|wrangler\.json|vitest\.json|openapi\.json|[\w-]+\.d\.ts|node_modules\/.*|\.wrangler\/.*|test-results\/.*|public\/docs\/vendor\/.*)$/;

function walk(dir: string, out: string[] = []): string[] {
  if (!existsSync(path.join(ROOT, dir))) return out;
  for (const name of readdirSync(path.join(ROOT, dir)).sort()) {
    const rel = path.join(dir, name);
    if (name === 'node_modules' || name === 'fixtures') continue;
    if (statSync(path.join(ROOT, rel)).isDirectory()) walk(rel, out);
    else if (CODE_EXT.test(name)) out.push(rel);
  }
  return out;
}

/** The comments of a code file, as lines: `//` to the end of the line and `/* ... *\/` blocks. */
function commentLines(text: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  const lineAt = (i: number) => text.slice(0, i).split('\n').length;
  for (const m of text.matchAll(/\/\*[\s\S]*?\*\/|(?<![:'"`\w\\])\/\/[^\n]*/g)) {
    const first = lineAt(m.index!);
    m[0].split('\n').forEach((t, k) => out.push({ line: first + k, text: t }));
  }
  return out;
}

/** The lines of a Markdown file outside fenced code blocks (inline code kept: it names files). */
function markdownLines(text: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let fence = false;
  text.split('\n').forEach((t, i) => {
    if (/^\s{0,3}(`{3,}|~{3,})/.test(t)) fence = !fence;
    else if (!fence) out.push({ line: i + 1, text: t });
  });
  return out;
}

function resolveRef(from: string, ref: string): string | undefined {
  const candidates = ref.startsWith('.')
    ? [path.resolve(ROOT, path.dirname(from), ref)]
    : [
        ...['', 'src', 'src/services', 'test'].map((d) => path.join(ROOT, d, ref)),
        path.resolve(ROOT, path.dirname(from), ref),
      ];
  return candidates.find((c) => c.startsWith(ROOT + path.sep) && existsSync(c));
}

export interface BrokenRef {
  file: string;
  line: number;
  ref: string;
  reason: string;
}

export function brokenRefs(file: string, lines: { line: number; text: string }[]): BrokenRef[] {
  const broken: BrokenRef[] = [];
  for (const { line, text } of lines) {
    for (const m of text.matchAll(OUTSIDE))
      broken.push({ file, line, ref: m[0], reason: 'not in the repository (cite docs/decisions.md#dNN)' });
    for (const m of text.matchAll(PATH)) {
      const [, ref, anchor] = m as unknown as [string, string, string | undefined];
      if (NOT_OURS.test(ref) || !ref.includes('/')) continue; // a bare name (`convites.ts`) is prose
      if (/^https?:|^[\w.-]+\.(?:com|org|io|dev|net|br)\//.test(ref)) continue;
      const found = resolveRef(file, ref);
      if (!found) {
        broken.push({ file, line, ref, reason: 'no such file' });
        continue;
      }
      if (anchor && found.endsWith('.md') && !anchorsOf(found).has(anchor.slice(1)))
        broken.push({ file, line, ref: ref + anchor, reason: `no heading or anchor "${anchor}"` });
    }
  }
  return broken;
}

function main() {
  const code = CODE_DIRS.flatMap((d) => walk(d));
  const docs = docFiles();
  const broken = [
    ...code.flatMap((f) => brokenRefs(f, commentLines(readFileSync(path.join(ROOT, f), 'utf8')))),
    ...docs.flatMap((f) => brokenRefs(f, markdownLines(readFileSync(path.join(ROOT, f), 'utf8')))),
  ];
  for (const b of broken) console.error(`${b.file}:${b.line}: ${b.ref}: ${b.reason}`);
  if (broken.length > 0) {
    console.error(
      `check:refs: ${broken.length} broken reference(s) in ${code.length} code and ${docs.length} Markdown files`,
    );
    process.exit(1);
  }
  console.log(`check:refs: every file reference of ${code.length} code and ${docs.length} Markdown files resolves`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
