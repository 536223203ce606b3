import type { Context } from 'hono';
import type { AppEnv } from '../env';
import { ApiError } from '../lib/errors';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A state-changing request authenticated by a cookie must come from an allowed Origin
 * (docs/decisions.md#d12): cookies travel with cross-site requests, Authorization headers do not.
 */
export function assertCookieRequestOrigin(c: Context<AppEnv>) {
  if (SAFE.has(c.req.method)) return;
  const origin = c.req.header('origin') ?? originOf(c.req.header('referer'));
  const self = new URL(c.req.url).origin;
  if (origin && (origin === self || c.get('config').CORS_ORIGINS.includes(origin))) return;
  throw new ApiError(
    'FORBIDDEN',
    'requisição de outro site recusada: uma alteração autenticada por cookie deve vir de uma origem (Origin) permitida',
  );
}

function originOf(url: string | undefined) {
  if (!url) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
