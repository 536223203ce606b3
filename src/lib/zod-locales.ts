/**
 * What the Worker bundle gets for zod's `../locales/index.js` (wrangler.toml [alias]; the tests
 * alias it too, vitest.config.ts): English only. zod re-exports all 60-odd locales as `z.locales`
 * (and `z.core.locales`), and `import { z }` (which @hono/zod-openapi does) keeps every one in the
 * bundle, about 38 KiB gzipped. Nothing here calls `z.locales.xx()`: the messages come from
 * fieldErrorMap (fields.ts), in Portuguese, for every issue code. zod's English map (which zod imports
 * from `../locales/en.js` directly, not through this module, the same file this re-exports) stays
 * its default for schemas used without createApp()'s configuration.
 */
export { default as en } from 'zod/v4/locales/en.js';
