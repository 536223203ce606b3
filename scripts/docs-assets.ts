/**
 * Copies the pinned Swagger UI files that GET /docs loads from node_modules/swagger-ui-dist (an exact
 * devDependency) into public/docs/vendor/, the Workers static assets directory ([assets] in
 * wrangler.toml). Run by npm before dev, test, build and deploy (the pre* scripts) and by
 * vitest.config.ts; the copies are not committed (.gitignore), the version lives in package.json.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE = path.join(ROOT, 'node_modules', 'swagger-ui-dist');
export const DOCS_VENDOR_DIR = path.join(ROOT, 'public', 'docs', 'vendor');
/** What the /docs page references (src/docs.ts), plus the licence texts that must travel with them. */
export const DOCS_VENDOR_FILES = [
  'swagger-ui.css',
  'swagger-ui-bundle.js',
  'favicon-32x32.png',
  'LICENSE',
  'NOTICE',
] as const;

/** Copies the files that are missing or differ (an upgrade); returns the swagger-ui-dist version. */
export function copyDocsAssets(): string {
  if (!existsSync(SOURCE)) throw new Error(`${SOURCE} is missing: run npm ci first`);
  mkdirSync(DOCS_VENDOR_DIR, { recursive: true });
  for (const file of DOCS_VENDOR_FILES) {
    const from = path.join(SOURCE, file);
    const to = path.join(DOCS_VENDOR_DIR, file);
    const bytes = readFileSync(from);
    // Unchanged files are left alone, so a running `wrangler dev` does not reload for nothing.
    if (!existsSync(to) || !readFileSync(to).equals(bytes)) writeFileSync(to, bytes);
  }
  return (JSON.parse(readFileSync(path.join(SOURCE, 'package.json'), 'utf8')) as { version: string }).version;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const version = copyDocsAssets();
    console.log(`docs assets: swagger-ui-dist ${version} in ${path.relative(ROOT, DOCS_VENDOR_DIR)}/`);
  } catch (e) {
    console.error(`docs assets: ${(e as Error).message}`);
    process.exit(1);
  }
}
