import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-pool-workers';
import { configDefaults, defineConfig } from 'vitest/config';
import { copyDocsAssets } from './scripts/docs-assets.mjs';
import { TEST_VARS } from './test/setup/vars.ts';

// wrangler.toml's [assets] directory must exist before the pool reads it (and /docs tests fetch its files).
copyDocsAssets();

/**
 * wrangler.toml's [alias] table (`"specifier" = "./path"`), which the pool reads but does not apply:
 * given to Vite, so the tests import the modules the Worker bundle ships (zod's locales: English only).
 */
function wranglerAliases(): Record<string, string> {
  const toml = readFileSync(new URL('./wrangler.toml', import.meta.url), 'utf8');
  const section = /^\[alias\]\s*$([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(toml)?.[1] ?? '';
  const root = path.dirname(fileURLToPath(import.meta.url));
  return Object.fromEntries(
    [...section.matchAll(/^"([^"]+)"\s*=\s*"([^"]+)"/gm)].map((m) => [m[1]!, path.resolve(root, m[2]!)]),
  );
}

export default defineConfig({
  test: {
    projects: [
      {
        plugins: [
          cloudflareTest(async () => ({
            wrangler: { configPath: './wrangler.toml' },
            miniflare: {
              // Explicit bindings override wrangler.toml's [vars] and a developer's .dev.vars alike.
              bindings: { TEST_MIGRATIONS: await readD1Migrations('drizzle'), ...TEST_VARS },
            },
          })),
        ],
        resolve: { alias: wranglerAliases() },
        test: {
          name: 'workers',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'test/tooling/**'],
          setupFiles: ['./test/setup/apply-migrations.ts'],
          testTimeout: 20_000,
        },
      },
      {
        // The repository's own scripts (docs assets, the dev server's output, run-vitest.mjs), in Node:
        // they spawn wrangler and vitest, which the Workers runtime cannot.
        test: {
          name: 'tooling',
          include: ['test/tooling/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
        },
      },
    ],
  },
});
