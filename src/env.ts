import * as z from 'zod';
import type { Db } from './db/client';
import type { AuthUser } from './db/schema';
import type { PendingAuth } from './lib/tokens';
import type { MailMessage, PaymentMessage, PushMessage, WhatsappMessage } from './lib/messages';

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
  /** E-mail (docs/decisions.md#d14): the queue requests enqueue outbox ids on, and the provider settings. */
  EMAIL_QUEUE?: Queue<MailMessage>;
  /** Cloudflare Email Service `send_email` binding, used when MAIL_PROVIDER=cloudflare. */
  EMAIL?: SendEmail;
  MAIL_PROVIDER?: string;
  MAIL_FROM?: string;
  APP_URL?: string;
  RESEND_API_URL?: string;
  RESEND_API_KEY?: string;
  RESET_TOKEN_TTL_SECONDS?: string;
  /** Payments (docs/decisions.md#d19): the queue of checkout creations and webhook notifications, the gateway settings. */
  PAYMENT_QUEUE?: Queue<PaymentMessage>;
  PAYMENT_PROVIDER?: string;
  MP_API_URL?: string;
  MP_ACCESS_TOKEN?: string;
  MP_WEBHOOK_SECRET?: string;
  PEDIDO_TTL_SECONDS?: string;
  /** Calendar feeds (docs/decisions.md#d16): the API's public origin for feed urls, and the token key. */
  API_URL?: string;
  ICAL_TOKEN_SECRET?: string;
  /** The activity log's chain key(s) (docs/decisions.md#d15): a secret, never in D1. */
  LOG_CHAIN_SECRET?: string;
  /** Upper bound of the edge cache TTL of public GETs (middleware/cached.ts); 0: no Cache API. */
  EDGE_CACHE_TTL_SECONDS?: string;
  /** WhatsApp (docs/decisions.md#d30): the queue of outbox ids, Meta's Cloud API settings and secrets. */
  WHATSAPP_QUEUE?: Queue<WhatsappMessage>;
  WHATSAPP_PROVIDER?: string;
  WHATSAPP_API_URL?: string;
  WHATSAPP_PHONE_NUMBER_ID?: string;
  WHATSAPP_TOKEN?: string;
  WHATSAPP_APP_SECRET?: string;
  WHATSAPP_VERIFY_TOKEN?: string;
  WHATSAPP_TEMPLATE_CONVITE?: string;
  WHATSAPP_TEMPLATE_LEMBRETE?: string;
  WHATSAPP_TEMPLATE_LOGISTICA?: string;
  WHATSAPP_TEMPLATE_REPASSE?: string;
  WHATSAPP_TEMPLATE_IDIOMA?: string;
  /** QR check-in (docs/decisions.md#d27): the key every event key and personal code is derived from (a secret). */
  CHECKIN_SECRET?: string;
  /** Travel minutes between two events in the same city when the matrix has no row (docs/decisions.md#d23). */
  DESLOCAMENTO_MESMA_CIDADE_MIN?: string;
  /** Minutes an accepted professional needs between two events beyond the travel (docs/decisions.md#d11). */
  MARGEM_DESLOCAMENTO_MIN?: string;
  /** Days ahead the weekly capacity job looks for a deficit (docs/decisions.md#d26). */
  PLANEJAMENTO_HORIZONTE_DIAS?: string;
}

const csv = (s: string) =>
  s
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** An https URL (http only for localhost): outside base URLs are configuration, never taken from a request. */
const isSafeUrl = (s: string) => {
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    return false;
  }
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname));
};
const SAFE_URL = 'must be an https URL (http only for localhost)';

/** Where push messages go (Expo format). */
const pushEndpoint = z
  .string()
  .trim()
  .optional()
  .transform((s) => s || undefined)
  .refine((s) => s === undefined || isSafeUrl(s), SAFE_URL);

/** A base URL with a default; trailing slashes dropped so that `${base}/path` is right. */
const baseUrl = (fallback: string) =>
  z
    .string()
    .trim()
    .optional()
    .transform((s) => (s || fallback).replace(/\/+$/, ''))
    .refine(isSafeUrl, SAFE_URL);

export const MAIL_PROVIDERS = ['resend', 'cloudflare', 'log'] as const;
/** Who sends WhatsApp messages (D30): Meta's Cloud API, or `log` (npm run dev, the tests' pool) that only logs. */
export const WHATSAPP_PROVIDERS = ['cloud', 'log'] as const;
export const PAYMENT_PROVIDERS = ['mercadopago'] as const;

const optionalSecret = z
  .string()
  .trim()
  .optional()
  .transform((s) => s || undefined);

/** A template name as Meta accepts it: lowercase letters, digits and underscores. */
const templateName = (fallback: string) =>
  z
    .string()
    .trim()
    .optional()
    .transform((s) => s || fallback)
    .refine((s) => /^[a-z0-9_]{1,512}$/.test(s), 'a WhatsApp template name is lowercase letters, digits and _');

/** The keys of the activity log's chain by version; `current` seals new entries (docs/decisions.md#d15). */
export interface LogChainKeys {
  current: number;
  keys: ReadonlyMap<number, string>;
}

const LOG_CHAIN_MIN = 32;

/**
 * LOG_CHAIN_SECRET: one key (version 1), or after a rotation a list `<version>:<key>` separated by
 * spaces or commas, the current key first and with the highest version (older ones only verify
 * what they sealed). Each key at least 32 characters. Unset: nothing is sealed (the job fails).
 */
export function parseLogChainSecret(raw: string): LogChainKeys | string {
  const parts = raw.split(/[\s,]+/).filter(Boolean);
  if (parts.length === 0) return 'is empty';
  if (parts.length === 1 && !/^\d+:/.test(parts[0]!)) {
    if (parts[0]!.length < LOG_CHAIN_MIN) return `must be at least ${LOG_CHAIN_MIN} characters`;
    return { current: 1, keys: new Map([[1, parts[0]!]]) };
  }
  const keys = new Map<number, string>();
  for (const part of parts) {
    const m = /^([1-9]\d{0,5}):(.*)$/.exec(part);
    if (!m) return 'must be one key, or a list of <version>:<key> (version a positive integer)';
    const version = Number(m[1]);
    if (keys.has(version)) return `has version ${version} twice`;
    if (m[2]!.length < LOG_CHAIN_MIN) return `key version ${version} must be at least ${LOG_CHAIN_MIN} characters`;
    keys.set(version, m[2]!);
  }
  const current = Number(/^\d+/.exec(parts[0]!)![0]);
  if (Math.max(...keys.keys()) !== current) return 'must list the current key (the highest version) first';
  return { current, keys };
}

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
  /** Who sends e-mail (D14): `log` (the local default) only writes one log line per message. */
  MAIL_PROVIDER: z
    .string()
    .trim()
    .optional()
    .transform((s) => (s || 'log').toLowerCase())
    .pipe(z.enum(MAIL_PROVIDERS)),
  MAIL_FROM: z
    .string()
    .trim()
    .optional()
    .transform((s) => s || 'Event Ops <nao-responda@example.com>'),
  /** The frontend: every link in an e-mail is built from it, never from the request's Host. */
  APP_URL: baseUrl('http://localhost:5173'),
  RESEND_API_URL: baseUrl('https://api.resend.com'),
  RESEND_API_KEY: z
    .string()
    .trim()
    .optional()
    .transform((s) => s || undefined),
  RESET_TOKEN_TTL_SECONDS: z.coerce.number().int().positive().max(86_400).default(1800),
  /** The payment gateway (D19); only Mercado Pago today. */
  PAYMENT_PROVIDER: z
    .string()
    .trim()
    .optional()
    .transform((s) => (s || 'mercadopago').toLowerCase())
    .pipe(z.enum(PAYMENT_PROVIDERS)),
  MP_API_URL: baseUrl('https://api.mercadopago.com'),
  MP_ACCESS_TOKEN: optionalSecret,
  /** Signs the webhook's notifications; unset, every notification is refused (401). */
  MP_WEBHOOK_SECRET: optionalSecret,
  /** How long an order waits for its payment before the scheduled job expires it (default 72 h). */
  PEDIDO_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(900)
    .max(30 * 86_400)
    .default(3 * 86_400),
  /** The API's public origin: calendar feed urls start with it (unset: the request's own origin). */
  API_URL: z
    .string()
    .trim()
    .optional()
    .transform((s) => (s ? s.replace(/\/+$/, '') : undefined))
    .refine((s) => s === undefined || isSafeUrl(s), SAFE_URL),
  /**
   * The key calendar-feed tokens are derived from (HMAC): a secret. Unset, a key derived from
   * JWT_SECRET is used, so rotating JWT_SECRET would then also change every feed url.
   */
  ICAL_TOKEN_SECRET: z
    .string()
    .optional()
    .transform((s) => s || undefined)
    .refine((s) => s === undefined || s.length >= 32, 'ICAL_TOKEN_SECRET must be at least 32 characters'),
  EDGE_CACHE_TTL_SECONDS: z.coerce.number().int().min(0).max(3600).default(300),
  /** WhatsApp (docs/decisions.md#d30): `cloud` sends through Meta, `log` only writes a log line. */
  WHATSAPP_PROVIDER: z
    .string()
    .trim()
    .optional()
    .transform((s) => (s || 'cloud').toLowerCase())
    .pipe(z.enum(WHATSAPP_PROVIDERS)),
  WHATSAPP_API_URL: baseUrl('https://graph.facebook.com/v21.0'),
  WHATSAPP_PHONE_NUMBER_ID: z
    .string()
    .trim()
    .optional()
    .transform((s) => s || undefined)
    .refine((s) => s === undefined || /^\d{1,32}$/.test(s), 'WHATSAPP_PHONE_NUMBER_ID must be digits'),
  /** The Cloud API's Bearer token. Unset: the channel is off and nothing is queued. */
  WHATSAPP_TOKEN: optionalSecret,
  /** Signs the webhook's deliveries (X-Hub-Signature-256); unset, every delivery is refused (401). */
  WHATSAPP_APP_SECRET: optionalSecret,
  /** The subscription handshake's token; unset, every handshake is refused (403). */
  WHATSAPP_VERIFY_TOKEN: optionalSecret,
  /** The approved templates' names and language (Meta's WhatsApp Manager). */
  WHATSAPP_TEMPLATE_CONVITE: templateName('convite_evento'),
  WHATSAPP_TEMPLATE_LEMBRETE: templateName('lembrete_evento'),
  WHATSAPP_TEMPLATE_LOGISTICA: templateName('logistica_alterada'),
  WHATSAPP_TEMPLATE_REPASSE: templateName('repasse_pago'),
  WHATSAPP_TEMPLATE_IDIOMA: z
    .string()
    .trim()
    .optional()
    .transform((s) => s || 'pt_BR')
    .refine((s) => /^[a-z]{2,3}(_[A-Z]{2})?$/.test(s), 'WHATSAPP_TEMPLATE_IDIOMA must be a language code like pt_BR'),
  /**
   * QR check-in (docs/decisions.md#d27): the event keys and personal codes are HMACs derived from it.
   * Unset: the codes, the display key and the code-based check-ins answer 503 CONFIG_MISSING.
   */
  CHECKIN_SECRET: z
    .string()
    .optional()
    .transform((s) => s?.trim() || undefined)
    .refine((s) => s === undefined || s.length >= 32, 'CHECKIN_SECRET must be at least 32 characters'),
  DESLOCAMENTO_MESMA_CIDADE_MIN: z.coerce.number().int().min(0).max(600).default(40),
  MARGEM_DESLOCAMENTO_MIN: z.coerce.number().int().min(0).max(600).default(30),
  /** Days ahead the weekly capacity job looks for deficits (docs/decisions.md#d26). */
  PLANEJAMENTO_HORIZONTE_DIAS: z.coerce.number().int().min(1).max(120).default(120),
  /** The activity log's chain keys (parseLogChainSecret); unset: the sealing job refuses to run. */
  LOG_CHAIN_SECRET: z
    .string()
    .optional()
    .transform((s, ctx) => {
      if (!s?.trim()) return undefined;
      const parsed = parseLogChainSecret(s.trim());
      if (typeof parsed !== 'string') return parsed;
      ctx.addIssue({ code: 'custom', message: `LOG_CHAIN_SECRET ${parsed}` });
      return z.NEVER;
    }),
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
