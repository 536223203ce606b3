import { sign, verify } from 'hono/jwt';
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

/** Verifies signature (HS256 only), expiry and claim shape; undefined for anything else. */
export async function verifyAccessToken(token: string, secret: string): Promise<AccessClaims | undefined> {
  try {
    const payload = await verify(token, await hmacKey(secret), 'HS256');
    if (typeof payload.sub !== 'string' || typeof payload.exp !== 'number' || typeof payload.sid !== 'string')
      return undefined;
    return payload as unknown as AccessClaims;
  } catch {
    return undefined;
  }
}

export const b64url = (bytes: Uint8Array) => {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};

/** 32 random bytes, base64url. */
export const newRefreshToken = () => b64url(crypto.getRandomValues(new Uint8Array(32)));

export async function sha256Hex(value: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(value));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
