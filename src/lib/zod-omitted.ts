/**
 * What the Worker bundle gets for zod's `./compile.js` and `./from-json-schema.js` (wrangler.toml
 * [alias]; the tests alias them too, vitest.config.ts): the same names, no code. `z` re-exports
 * `compile` (ahead-of-time compilation, which needs `eval`: Workers forbid it) and `fromJSONSchema`
 * (JSON Schema to zod), and `import { z }` keeps both, about 11 KiB gzipped. Nothing here calls them;
 * a call throws instead of running (docs/performance.md#the-bundle).
 */
function omitted(): never {
  throw new Error('zod compile/fromJSONSchema are left out of this bundle (docs/performance.md#the-bundle)');
}

// compile.js's exports (zod's core/index.js re-exports them all).
export const INVALID = Symbol.for('zod.compile.invalid');
export class ZodCompileAsyncError extends Error {}
export class ZodCompileUnsupportedError extends Error {}
export const compile = omitted;
export const withParser = omitted;
export const compileFn = omitted;
// from-json-schema.js's export.
export const fromJSONSchema = omitted;
