import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { ApiError } from '../../lib/errors';
import { isAdmin } from '../../lib/permissions';
import { ACCESS_COOKIE } from '../../middleware/auth';
import { assertCookieRequestOrigin } from '../../middleware/csrf';
import * as authFlows from '../../services/accounts/auth';
import { clientOf } from '../../services/accounts/sessions';
import { accountSelect, accountSelectLive, toLoginResponse, type Account } from '../../services/accounts/users';
import { foldedHandler, handler } from '../route';
import * as r from './auth.routes';

type Tokens = { access: { token: string; expiresAt: string }; refreshToken: string };

function cookieFlags(c: Context<AppEnv>) {
  const { COOKIE_SAMESITE, COOKIE_SECURE } = c.get('config');
  // Browsers drop SameSite=None cookies that are not Secure.
  return { httpOnly: true, sameSite: COOKIE_SAMESITE, secure: COOKIE_SAMESITE === 'None' || COOKIE_SECURE } as const;
}

function setSessionCookies(c: Context<AppEnv>, t: Tokens) {
  const flags = cookieFlags(c);
  setCookie(c, ACCESS_COOKIE, t.access.token, {
    ...flags,
    path: '/',
    maxAge: c.get('config').ACCESS_TOKEN_TTL_SECONDS,
  });
  setCookie(c, 'refresh_token', t.refreshToken, {
    ...flags,
    path: '/auth',
    maxAge: c.get('config').REFRESH_TOKEN_TTL_SECONDS,
  });
}

function clearSessionCookies(c: Context<AppEnv>) {
  const flags = cookieFlags(c);
  deleteCookie(c, ACCESS_COOKIE, { ...flags, path: '/' });
  deleteCookie(c, 'refresh_token', { ...flags, path: '/auth' });
}

const tokenFields = (t: Tokens) => ({
  access_token: t.access.token,
  expires_at: t.access.expiresAt,
  refresh_token: t.refreshToken,
});

const clientIp = (c: Context<AppEnv>) => clientOf(c.req.header('cf-connecting-ip'));

export const register = handler(r.register, async (c, ctx) => {
  const input = c.req.valid('json');
  if (isAdmin(input.role))
    throw new ApiError('ROLE_NOT_ALLOWED', `role: ${input.role} não pode ser escolhido no cadastro`);
  const { id, session } = await authFlows.register(ctx, clientIp(c), input);
  setSessionCookies(c, session);
  return c.json(
    { id, ...tokenFields(session), message: 'cadastro feito: a conta aguarda a aprovação de um administrador' },
    201,
  );
});

export const login = handler(r.login, async (c, ctx) => {
  const { account, session } = await authFlows.login(ctx, clientIp(c), c.req.valid('json'));
  setSessionCookies(c, session);
  return c.json(toLoginResponse(account, tokenFields(session)), 200);
});

/** The refresh token from the body, else from the cookie (then the request must pass the Origin check). */
function presentedRefreshToken(c: Context<AppEnv>, body: { refresh_token?: string }) {
  if (body.refresh_token) return body.refresh_token;
  const cookie = getCookie(c, 'refresh_token');
  if (cookie) assertCookieRequestOrigin(c);
  return cookie;
}

export const refresh = handler(r.refresh, async (c, ctx) => {
  const token = presentedRefreshToken(c, c.req.valid('json'));
  if (!token)
    throw new ApiError('INVALID_REFRESH_TOKEN', 'nenhum token de renovação: envie refresh_token no corpo ou no cookie');
  try {
    const session = await authFlows.refresh(ctx, token);
    setSessionCookies(c, session);
    return c.json(tokenFields(session), 200);
  } catch (err) {
    if (err instanceof authFlows.SessionEnded) clearSessionCookies(c);
    throw err;
  }
});

export const logout = handler(r.logout, async (c, ctx) => {
  const body = c.req.valid('json');
  // The session of the refresh token ends: its family, and with it every access token issued in it.
  const token = body.refresh_token ?? getCookie(c, 'refresh_token');
  if (token) await authFlows.logout(ctx, token);
  clearSessionCookies(c);
  return c.json({ message: 'sessão encerrada' }, 200);
});

export const getMe = foldedHandler(r.getMe, async (c, { read }) => {
  // The account is the authentication query itself (its user row admits the caller): one statement.
  const account = await read.self(accountSelectLive, accountSelect);
  if (!account) throw new ApiError('UNAUTHENTICATED', 'token de acesso inválido ou expirado');
  return c.json(toLoginResponse(account as Account, { access_token: '', expires_at: '' }), 200);
});

export const updateMe = handler(r.updateMe, async (c, ctx) => {
  const { account, session } = await authFlows.updateMe(ctx, clientIp(c), c.req.valid('json'));
  if (session) setSessionCookies(c, session);
  return c.json(toLoginResponse(account, session ? tokenFields(session) : { access_token: '', expires_at: '' }), 200);
});
