import * as z from 'zod';
import type { Db } from './db/client';
import type { AuthUser } from './db/schema';
import type { PendingAuth } from './lib/tokens';
import type { PushMessage } from './lib/messages';

/** Bindings and vars as wrangler passes them (all vars arrive as strings). */
export interface Bindings {
  DB: D1Database;
  JWT_SECRET?: string;
  REGIOES?: string;
  REGIAO_PADRAO?: string;
  CORS_ORIGINS?: string;
  ACCESS_TOKEN_TTL_SECONDS?: string;
  REFRESH_TOKEN_TTL_SECONDS?: string;
  COOKIE_SECURE?: string;
  COOKIE_SAMESITE?: string;
  /** Push delivery (docs/decisions.md#d10): the queue the requests enqueue on, and the Expo-format endpoint. */
  PUSH_QUEUE?: Queue<PushMessage>;
  PUSH_ENDPOINT?: string;
}

const csv = (s: string) =>
  s
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Where push messages go (Expo format). Configuration only, never taken from a request: https, or http to localhost. */
const pushEndpoint = z
  .string()
  .trim()
  .optional()
  .transform((s) => s || undefined)
  .refine((s) => {
    if (s === undefined) return true;
    let url: URL;
    try {
      url = new URL(s);
    } catch {
      return false;
    }
    return url.protocol === 'https:' || (url.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname));
  }, 'must be an https URL (http only for localhost)');

export const configSchema = z.object({
  JWT_SECRET: z
    .string({ error: 'JWT_SECRET is not set (wrangler secret put JWT_SECRET, or .dev.vars locally)' })
    .min(32, 'JWT_SECRET must be at least 32 characters'),
  REGIOES: z
    .string()
    .default('SP,MG')
    .transform((s) => csv(s).map((r) => r.toUpperCase())),
  REGIAO_PADRAO: z
    .string()
    .default('SP')
    .transform((s) => s.trim().toUpperCase()),
  CORS_ORIGINS: z.string().default('').transform(csv),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().positive().max(86_400).default(900),
  REFRESH_TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(30 * 86_400),
  COOKIE_SECURE: z
    .string()
    .default('true')
    .transform((s) => s.trim().toLowerCase() !== 'false'),
  COOKIE_SAMESITE: z
    .string()
    .default('Lax')
    .transform((s) => s.trim().toLowerCase())
    .pipe(z.enum(['lax', 'strict', 'none']))
    .transform((s) => (s === 'lax' ? 'Lax' : s === 'strict' ? 'Strict' : 'None') as 'Lax' | 'Strict' | 'None'),
  PUSH_ENDPOINT: pushEndpoint,
});

export type Config = z.infer<typeof configSchema>;

export class ConfigError extends Error {}

const cache = new WeakMap<object, Config>();

/** Validates the env once per isolate (per env object); throws ConfigError with one clear sentence. */
export function getConfig(env: Bindings): Config {
  const hit = cache.get(env);
  if (hit) return hit;
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`invalid configuration: ${issue?.path.join('.')}: ${issue?.message}`);
  }
  if (!parsed.data.REGIOES.includes(parsed.data.REGIAO_PADRAO)) {
    throw new ConfigError('invalid configuration: REGIAO_PADRAO must be one of REGIOES');
  }
  cache.set(env, parsed.data);
  return parsed.data;
}

export interface AppEnv {
  Bindings: Bindings;
  Variables: {
    requestId: string;
    config: Config;
    db: Db;
    user: AuthUser;
    /** Set by a folded route's auth until the handler's batch has read and admitted the user. */
    pendingAuth: PendingAuth | undefined;
    regiao: string;
  };
}
