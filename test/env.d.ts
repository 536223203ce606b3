import type { D1Migration } from 'cloudflare:test';
import type { Bindings } from '../src/env';

declare global {
  namespace Cloudflare {
    interface Env extends Bindings {
      TEST_MIGRATIONS: D1Migration[];
      JWT_SECRET: string;
      /** wrangler.toml [assets]: the static files (the /docs page's Swagger UI). */
      ASSETS: Fetcher;
    }
  }
}
