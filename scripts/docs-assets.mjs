#!/usr/bin/env node
/**
 * Copies the pinned Swagger UI files that GET /docs loads from node_modules/swagger-ui-dist (an exact
 * devDependency) into public/docs/vendor/, the Workers static assets directory ([assets] in
 * wrangler.toml). It is wrangler.toml's `[build] command`, so wrangler runs it before every
 * `wrangler dev`, `wrangler deploy` and `wrangler deploy --dry-run`, however they are started (npm
 * scripts, plain `npx wrangler`, Cloudflare's git-connected builds). The test pool ignores `[build]`:
 * vitest.config.ts calls copyDocsAssets() itself. Plain JavaScript, so node alone runs it (no tsx);
 * types in docs-assets.d.mts. The copies are not committed (.gitignore); the version lives in package.json.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE = path.join(ROOT, 'node_modules', 'swagger-ui-dist');
export const DOCS_VENDOR_DIR = path.join(ROOT, 'public', 'docs', 'vendor');
/** What the /docs page references (src/routes/meta.ts), plus the licence texts that must travel with them. */
export const DOCS_VENDOR_FILES = ['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png', 'LICENSE', 'NOTICE'];

/**
 * Copies the files that are missing or differ (an upgrade) into `dir` (public/docs/vendor/ unless
 * given); returns the swagger-ui-dist version and the files it wrote.
 */
export function copyDocsAssets(dir = DOCS_VENDOR_DIR) {
  if (!existsSync(SOURCE)) throw new Error(`${SOURCE} is missing: run npm ci first`);
  mkdirSync(dir, { recursive: true });
  const written = [];
  for (const file of DOCS_VENDOR_FILES) {
    const to = path.join(dir, file);
    const bytes = readFileSync(path.join(SOURCE, file));
    // Unchanged files are left alone: wrangler dev reruns this on every change under src/ and
    // reloads the assets it sees written.
    if (existsSync(to) && readFileSync(to).equals(bytes)) continue;
    writeFileSync(to, bytes);
    written.push(file);
  }
  const { version } = JSON.parse(readFileSync(path.join(SOURCE, 'package.json'), 'utf8'));
  return { version, written };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const { version, written } = copyDocsAssets();
    const what = written.length ? `copied ${written.join(', ')}` : 'up to date';
    console.log(`docs assets: swagger-ui-dist ${version} in ${path.relative(ROOT, DOCS_VENDOR_DIR)}/ (${what})`);
  } catch (e) {
    console.error(`docs assets: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  }
}
