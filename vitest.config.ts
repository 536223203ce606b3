import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-pool-workers';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [
    cloudflareTest(async () => ({
      wrangler: { configPath: './wrangler.toml' },
      miniflare: {
        bindings: {
          TEST_MIGRATIONS: await readD1Migrations('drizzle'),
          JWT_SECRET: 'test-secret-for-vitest-only-0123456789abcdef',
          CORS_ORIGINS: 'https://app.example.com',
        },
      },
    })),
  ],
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['./test/setup/apply-migrations.ts'],
    testTimeout: 20_000,
  },
});
