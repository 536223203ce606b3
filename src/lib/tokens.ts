import { sign } from 'hono/jwt';
import type { AuthUser, Role } from '../db/schema';
import type { Scope } from '../db/scope';

export interface AccessClaims {
  sub: string;
  role: Role;
  /** The company at signing time: lets a route build its query before the user row is read (auth fold). */
  empresa_id?: string | null;
  /**
   * The session: the refresh-token family the token was issued with. Every request checks, in the
   * user query, that the family still has a live token, so logout, a password change or theft
   * detection end the access tokens at once (security review 3). Tokens without it are refused.
   */
  sid: string;
  iat: number;
  exp: number;
}

/** Who a token is for: exactly the fields of a query scope (db/scope.ts). */
export type TokenSubject = Scope;

/** A role rule of a route (requireRole, allowAgenda): throws when the caller may not pass. */
export type UserCheck = (user: Pick<AuthUser, 'role' | 'ativo'>) => void;

/** A folded request before its user row is read: the token's claims and the checks still owed. */
export interface PendingAuth {
  claims: AccessClaims;
  allowPending: boolean;
  checks: UserCheck[];
}

export async function signAccessToken(user: TokenSubject, secret: string, ttlSeconds: number, session: string) {
  const iat = Math.floor(Date.now() / 1000);
  const exp = iat + ttlSeconds;
  const claims: AccessClaims = { sub: user.id, role: user.role, empresa_id: user.empresaId, sid: session, iat, exp };
  const token = await sign({ ...claims }, await hmacKey(secret), 'HS256');
  return { token, expiresAt: new Date(exp * 1000).toISOString() };
}

// hono/jwt imports a string secret on every call; the key is the same until the secret changes.
const hmacKeys = new Map<string, Promise<CryptoKey>>();
export function hmacKey(secret: string): Promise<CryptoKey> {
  let key = hmacKeys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]);
    if (hmacKeys.size >= 4) hmacKeys.clear(); // a rotated secret must not pin the old keys
    hmacKeys.set(secret, key);
  }
  return key;
}

/**
 * Verifies signature (HS256 only), time claims and claim shape; undefined for anything else. The
 * checks are hono/jwt's verify (header alg exactly HS256, typ JWT or absent, no crit; nbf, exp,
 * iat against now; the signature through WebCrypto's HMAC verify, constant time), written here for
 * our one algorithm: its generic decoding was a quarter of an authenticated request's framework CPU
 * in a workerd profile. Tests: test/routes/accounts/auth.test.ts ("access tokens").
 */
export async function verifyAccessToken(token: string, secret: string): Promise<AccessClaims | undefined> {
  const known = verified.get(token);
  if (known && known.secret === secret) return timely(known.claims, Math.floor(Date.now() / 1000));
  const claims = await verifyFully(token, secret);
  if (claims) remember(token, secret, claims);
  return claims;
}

/**
 * Tokens this isolate has verified, with their claims. A client sends the same access token on
 * every request until it expires, and the HMAC verify was the largest piece of an authenticated
 * request's own JavaScript. Keyed by the whole token (its signature included) and checked against
 * the secret it was verified with; only tokens that passed every check enter, so a forged or
 * altered token is always verified in full; the time claims are checked again on every use.
 * Bounded: the oldest entry leaves first (SECURITY.md, API2).
 */
const verified = new Map<string, { secret: string; claims: AccessClaims }>();
const VERIFIED_MAX = 2000;

function remember(token: string, secret: string, claims: AccessClaims) {
  if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value!);
  verified.set(token, { secret, claims: Object.freeze(claims) });
}

/** The claims while their time claims hold at `now` (seconds). */
const timely = (c: AccessClaims & { nbf?: number }, now: number) =>
  (c.nbf ?? 0) > now || c.exp <= now || now < c.iat ? undefined : c;

async function verifyFully(token: string, secret: string): Promise<AccessClaims | undefined> {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((part) => JWT_PART.test(part))) return undefined;
  const [h, p, s] = parts as [string, string, string];
  const header = jsonPart(h);
  if (!header || header.alg !== 'HS256' || 'crit' in header) return undefined;
  if ('typ' in header && (typeof header.typ !== 'string' || !/^(application\/)?jwt$/i.test(header.typ)))
    return undefined;
  const payload = jsonPart(p);
  if (!payload) return undefined;
  const now = Math.floor(Date.now() / 1000);
  const time = (k: string) =>
    payload[k] === undefined || (typeof payload[k] === 'number' && Number.isFinite(payload[k]));
  if (!time('nbf') || !time('iat') || typeof payload.exp !== 'number' || !Number.isFinite(payload.exp))
    return undefined;
  if (!timely(payload as unknown as AccessClaims, now)) return undefined;
  if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return undefined;
  const signature = bytesOf(s);
  if (!signature) return undefined;
  const data = utf8.encode(`${h}.${p}`);
  if (!(await crypto.subtle.verify('HMAC', await hmacKey(secret), signature, data))) return undefined;
  return payload as unknown as AccessClaims;
}

const JWT_PART = /^[A-Za-z0-9_-]*={0,2}$/;
const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder();

/** base64url → bytes; undefined when it is not base64. */
function bytesOf(part: string): Uint8Array | undefined {
  try {
    return fromB64url(part);
  } catch {
    return undefined;
  }
}

/** A JSON object part of a token; undefined for anything else. */
function jsonPart(part: string): Record<string, unknown> | undefined {
  const bytes = bytesOf(part);
  if (!bytes) return undefined;
  try {
    const v: unknown = JSON.parse(utf8Decoder.decode(bytes));
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export const b64url = (bytes: Uint8Array) => {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};

/**
 * base64url → bytes; throws when it is not base64. Padding is left to atob, which refuses a wrong
 * one (as hono/jwt does), so a token part cannot be re-padded.
 */
export const fromB64url = (s: string) => {
  const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
};

/** 32 random bytes, base64url. */
export const newRefreshToken = () => b64url(crypto.getRandomValues(new Uint8Array(32)));

const hex = (buf: ArrayBuffer) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, '0')).join('');

export async function sha256Hex(value: string): Promise<string> {
  return hex(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(value)));
}

/** Two strings compared in constant time (for their length; a different length is unequal at once). */
export function sameText(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  if (x.length !== y.length) return false;
  return (
    crypto.subtle as unknown as { timingSafeEqual(a: ArrayBufferView, b: ArrayBufferView): boolean }
  ).timingSafeEqual(x, y);
}

/** HMAC-SHA256 of `value` under `secret` (its UTF-8 bytes), lowercase hex. */
export async function hmacSha256Hex(secret: string, value: string): Promise<string> {
  return hex(await crypto.subtle.sign('HMAC', await hmacKey(secret), new TextEncoder().encode(value)));
}
