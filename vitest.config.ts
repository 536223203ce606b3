import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-pool-workers';
import { defineConfig } from 'vitest/config';
import { copyDocsAssets } from './scripts/docs-assets.ts';
import { TEST_VARS } from './test/setup/vars.ts';

// wrangler.toml's [assets] directory must exist before the pool reads it (and /docs tests fetch its files).
copyDocsAssets();

export default defineConfig({
  plugins: [
    cloudflareTest(async () => ({
      wrangler: { configPath: './wrangler.toml' },
      miniflare: {
        // Explicit bindings override wrangler.toml's [vars] and a developer's .dev.vars alike.
        bindings: { TEST_MIGRATIONS: await readD1Migrations('drizzle'), ...TEST_VARS },
      },
    })),
  ],
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['./test/setup/apply-migrations.ts'],
    testTimeout: 20_000,
  },
});
