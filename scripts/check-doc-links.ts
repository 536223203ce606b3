/**
 * npm run check:links (part of npm test)
 *
 * Every relative link of the Markdown documentation (README.md, SECURITY.md, docs/**\/*.md) must
 * resolve: the file or folder exists, and a `#anchor` names a heading of the target page (its
 * GitHub slug, with GitHub's -1, -2 suffixes for repeated headings) or an explicit anchor
 * (`<a id="d5"></a>`, as docs/decisions.md does, `<a name="...">`, or a heading's `{#id}`). Links to
 * other sites are not fetched. Fenced code blocks and inline code are not links.
 * Prints each broken link as `file:line: target: reason` and exits 1.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './lib.ts';

/** The Markdown files checked, relative to the repository's root. */
export function docFiles(root = ROOT): string[] {
  const out = ['README.md', 'SECURITY.md'].filter((f) => existsSync(path.join(root, f)));
  const walk = (dir: string) => {
    for (const name of readdirSync(path.join(root, dir)).sort()) {
      const rel = path.join(dir, name);
      if (statSync(path.join(root, rel)).isDirectory()) walk(rel);
      else if (name.endsWith('.md')) out.push(rel);
    }
  };
  if (existsSync(path.join(root, 'docs'))) walk('docs');
  return out;
}

/** Lines outside fenced code blocks, with inline code blanked (its length kept), numbered from 1. */
function proseLines(text: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let fence: string | undefined;
  text.split('\n').forEach((raw, i) => {
    const m = /^\s{0,3}(`{3,}|~{3,})/.exec(raw);
    if (m) {
      const marker = m[1]!;
      if (fence === undefined) fence = marker[0]!.repeat(marker.length);
      else if (marker.startsWith(fence)) fence = undefined;
      return;
    }
    if (fence !== undefined) return;
    out.push({ line: i + 1, text: raw.replace(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g, (s) => ' '.repeat(s.length)) });
  });
  return out;
}

/** GitHub's heading slug: the rendered text, lowercased, without punctuation, spaces as hyphens. */
export function slug(heading: string): string {
  const text = heading
    .replace(/\s*\{#[^}]+\}\s*$/, '')
    .replace(/<[^>]*>/g, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`/g, '')
    .replace(/\*/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '').replace(/ /g, '-');
}

const anchorCache = new Map<string, Set<string>>();

/** Every anchor a Markdown file defines. */
export function anchorsOf(file: string): Set<string> {
  const hit = anchorCache.get(file);
  if (hit) return hit;
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | undefined;
  for (const raw of readFileSync(file, 'utf8').split('\n')) {
    const m = /^\s{0,3}(`{3,}|~{3,})/.exec(raw);
    if (m) {
      const marker = m[1]!;
      if (fence === undefined) fence = marker[0]!.repeat(marker.length);
      else if (marker.startsWith(fence)) fence = undefined;
      continue;
    }
    if (fence !== undefined) continue;
    for (const a of raw.matchAll(/<a\s+(?:[^>]*\s)?(?:id|name)="([^"]+)"/g)) anchors.add(a[1]!);
    const h = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(raw);
    if (!h) continue;
    const explicit = /\{#([^}]+)\}\s*$/.exec(h[1]!);
    if (explicit) anchors.add(explicit[1]!);
    const base = slug(h[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  anchorCache.set(file, anchors);
  return anchors;
}

export interface BrokenLink {
  file: string;
  line: number;
  target: string;
  reason: string;
}

/** The broken relative links of one Markdown file (path relative to root). */
export function brokenLinks(rel: string, root = ROOT): BrokenLink[] {
  const file = path.join(root, rel);
  const broken: BrokenLink[] = [];
  for (const { line, text } of proseLines(readFileSync(file, 'utf8'))) {
    const targets = [
      ...[...text.matchAll(/!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+["'(][^)]*)?\)/g)].map((m) => m[1]!),
      ...[...text.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/g)].map((m) => m[1]!),
    ];
    for (const target of targets) {
      if (target === '' || /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue;
      const hash = target.indexOf('#');
      const pathPart = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
      const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
      const dest = pathPart === '' ? file : path.resolve(path.dirname(file), pathPart);
      const report = (reason: string) => broken.push({ file: rel, line, target, reason });
      if (!dest.startsWith(root + path.sep) && dest !== root) {
        report('points outside the repository');
        continue;
      }
      if (!existsSync(dest)) {
        report('no such file or folder');
        continue;
      }
      if (anchor === undefined || anchor === '') continue;
      let page = dest;
      if (statSync(dest).isDirectory()) page = path.join(dest, 'README.md');
      if (!page.endsWith('.md') || !existsSync(page)) continue; // an anchor into code (#L10) is not checked
      if (!anchorsOf(page).has(anchor)) report(`no heading or anchor "#${anchor}" in ${path.relative(root, page)}`);
    }
  }
  return broken;
}

function main() {
  const files = docFiles();
  const broken = files.flatMap((f) => brokenLinks(f));
  for (const b of broken) console.error(`${b.file}:${b.line}: ${b.target}: ${b.reason}`);
  if (broken.length > 0) {
    console.error(`check:links: ${broken.length} broken link(s) in ${files.length} Markdown files`);
    process.exit(1);
  }
  console.log(`check:links: every relative link and anchor of ${files.length} Markdown files resolves`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
