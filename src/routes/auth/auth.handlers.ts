import type { RouteHandler } from '@hono/zod-openapi';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { Context } from 'hono';
import { eq, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { profissionais, refreshTokens, users } from '../../db/schema';
import { sha256Hex } from '../../lib/tokens';
import type { AppEnv } from '../../env';
import { ApiError } from '../../lib/errors';
import { getDummyHash, hashPassword, verifyPassword } from '../../lib/password';
import { assertCookieRequestOrigin } from '../../middleware/csrf';
import { isAdmin } from '../../lib/permissions';
import { foldedHandler, logCtx } from '../route';
import { profissionalColumns } from '../../services/profissionais';
import {
  attemptStatements,
  clearFailures,
  clientOf,
  failureKeys,
  findRefreshToken,
  failLoginAttempt,
  newSession,
  releaseLoginAttempt,
  reserveLoginAttempt,
  endSession,
  revokeAllOfUser,
  inGraceWindow,
  replayRotation,
  rotate,
  settleAttempt,
  takeRegisterAttempt,
} from '../../services/sessions';
import {
  accountQuery,
  accountSelect,
  assertCompany,
  loadAccount,
  toLoginResponse,
  userValues,
  type Account,
} from '../../services/users';
import * as r from './auth.routes';
import { writeThenRead } from '../../db/write-read';
import { changed, created, logRowWrite, logStatement, type LogCtx } from '../../services/activity-log';

type Tokens = { access: { token: string; expiresAt: string }; refreshToken: string };

function cookieFlags(c: Context<AppEnv>) {
  const { COOKIE_SAMESITE, COOKIE_SECURE } = c.var.config;
  // Browsers drop SameSite=None cookies that are not Secure.
  return { httpOnly: true, sameSite: COOKIE_SAMESITE, secure: COOKIE_SAMESITE === 'None' || COOKIE_SECURE } as const;
}

function setSessionCookies(c: Context<AppEnv>, t: Tokens) {
  const flags = cookieFlags(c);
  setCookie(c, 'access_token', t.access.token, { ...flags, path: '/', maxAge: c.var.config.ACCESS_TOKEN_TTL_SECONDS });
  setCookie(c, 'refresh_token', t.refreshToken, {
    ...flags,
    path: '/auth',
    maxAge: c.var.config.REFRESH_TOKEN_TTL_SECONDS,
  });
}

function clearSessionCookies(c: Context<AppEnv>) {
  const flags = cookieFlags(c);
  deleteCookie(c, 'access_token', { ...flags, path: '/' });
  deleteCookie(c, 'refresh_token', { ...flags, path: '/auth' });
}

const tokenFields = (t: Tokens) => ({
  access_token: t.access.token,
  expires_at: t.access.expiresAt,
  refresh_token: t.refreshToken,
});

export const register: RouteHandler<typeof r.register, AppEnv> = async (c) => {
  const input = c.req.valid('json');
  if (isAdmin(input.role))
    throw new ApiError('ROLE_NOT_ALLOWED', `role: ${input.role} cannot be chosen at registration`);
  const { db, config } = c.var;
  // Counted before anything else (and before the PBKDF2 hash): anonymous sign-ups are limited per client.
  await takeRegisterAttempt(db, clientOf(c.req.header('cf-connecting-ip')));
  await assertCompany(db, input.role, input.empresa_id);
  const values = userValues(input, await hashPassword(input.senha), false);
  const session = await newSession(db, config, values);
  // The new account is the actor of its own registration.
  const log: LogCtx = { ...logCtx(c), atorId: values.id, atorRole: values.role };
  await db.batch([
    db.insert(users).values(values),
    session.insert,
    logStatement(db, log, {
      acao: 'auth.register',
      entidade: 'users',
      entidadeId: values.id,
      dados: created(users, values),
    }),
  ]);
  setSessionCookies(c, session);
  return c.json(
    {
      id: values.id,
      ...tokenFields(session),
      message: 'registered: the account is pending approval by an administrator',
    },
    201,
  );
};

export const login: RouteHandler<typeof r.login, AppEnv> = async (c) => {
  const { email, senha } = c.req.valid('json');
  const { db, config } = c.var;
  const keys = failureKeys(email, clientOf(c.req.header('cf-connecting-ip')));
  // The attempt is counted before the password is checked, so parallel guesses cannot outrun the limit.
  const attempt = await reserveLoginAttempt(db, keys);
  const account = await loadAccount(db, eq(users.email, email));
  // Unknown e-mail and wrong password cost the same hash and give the same answer.
  const ok = await verifyPassword(senha, account?.user.senhaHash ?? (await getDummyHash()));
  // A failed login is logged anonymously, with the e-mail tried (never the password) and why.
  const failed = (motivo: string) =>
    logStatement(db, logCtx(c), {
      acao: 'auth.login_failed',
      entidade: 'users',
      entidadeId: account?.user.id ?? null,
      dados: { email: { depois: email }, motivo: { depois: motivo } },
    });
  if (!account || !ok) {
    await failLoginAttempt(db, attempt, [failed(account ? 'senha_incorreta' : 'email_desconhecido')]);
    throw new ApiError('INVALID_CREDENTIALS', 'invalid e-mail or password');
  }
  if (!account.user.ativo) {
    await db.batch([releaseLoginAttempt(db, attempt), failed('conta_pendente')]);
    throw new ApiError('ACCOUNT_PENDING', 'account pending approval by an administrator', { status: 401 });
  }
  const session = await newSession(db, config, account.user);
  await db.batch([
    session.insert,
    clearFailures(db, keys[0]!),
    releaseLoginAttempt(db, attempt),
    logStatement(
      db,
      { ...logCtx(c), atorId: account.user.id, atorRole: account.user.role },
      { acao: 'auth.login', entidade: 'users', entidadeId: account.user.id },
    ),
  ]);
  setSessionCookies(c, session);
  return c.json(toLoginResponse(account, tokenFields(session)), 200);
};

/** The refresh token from the body, else from the cookie (then the request must pass the Origin check). */
function presentedRefreshToken(c: Context<AppEnv>, body: { refresh_token?: string }) {
  if (body.refresh_token) return body.refresh_token;
  const cookie = getCookie(c, 'refresh_token');
  if (cookie) assertCookieRequestOrigin(c);
  return cookie;
}

export const refresh: RouteHandler<typeof r.refresh, AppEnv> = async (c) => {
  const { db, config } = c.var;
  const token = presentedRefreshToken(c, c.req.valid('json'));
  if (!token)
    throw new ApiError('INVALID_REFRESH_TOKEN', 'no refresh token: send refresh_token in the body or the cookie');
  const row = await findRefreshToken(db, token);
  if (!row) throw new ApiError('INVALID_REFRESH_TOKEN', 'invalid refresh token');
  if (row.revokedAt && !row.replacedBy) {
    // Ended by logout or a password change: invalid, nothing more to end.
    clearSessionCookies(c);
    throw new ApiError('INVALID_REFRESH_TOKEN', 'refresh token revoked: sign in again');
  }
  if (row.revokedAt && !inGraceWindow(row)) {
    // Theft detection: a token rotated more than REFRESH_GRACE_MS ago came back, so two parties hold
    // this login. Every session of the user ends, and with them their access tokens (security review 3).
    await db.batch([
      // Logged once, when it ends something.
      logStatement(
        db,
        { ...logCtx(c), atorId: row.userId },
        {
          acao: 'auth.refresh_reused',
          entidade: 'users',
          entidadeId: row.userId,
          atorRole: sql`(select ${users.role} from ${users} where ${users.id} = ${row.userId})`,
          when: sql`exists (select 1 from ${refreshTokens} where ${refreshTokens.userId} = ${row.userId} and ${refreshTokens.revokedAt} is null)`,
        },
      ),
      revokeAllOfUser(db, row.userId),
    ]);
    clearSessionCookies(c);
    throw new ApiError('INVALID_REFRESH_TOKEN', 'refresh token already used: every session of this account was ended');
  }
  if (Date.parse(row.expiresAt) <= Date.now()) throw new ApiError('INVALID_REFRESH_TOKEN', 'refresh token expired');
  const [user] = await db
    .select({ id: users.id, role: users.role, empresaId: users.empresaId, ativo: users.ativo })
    .from(users)
    .where(eq(users.id, row.userId));
  if (!user) throw new ApiError('INVALID_REFRESH_TOKEN', 'invalid refresh token');
  if (!user.ativo)
    throw new ApiError('ACCOUNT_PENDING', 'account pending approval by an administrator', { status: 401 });
  // A token replaced moments ago (two tabs, a retry) or a rotation lost to a concurrent request
  // answers the same successor (security review 5).
  const session =
    (row.revokedAt
      ? undefined
      : await rotate(db, config, row, token, user, (newId) => [
          logStatement(
            db,
            { ...logCtx(c), atorId: user.id, atorRole: user.role },
            {
              acao: 'auth.refresh',
              entidade: 'users',
              entidadeId: user.id,
              when: sql`exists (select 1 from ${refreshTokens} where ${refreshTokens.id} = ${newId})`,
            },
          ),
        ])) ?? (await replayRotation(db, config, row, token, user));
  if (!session) throw new ApiError('INVALID_REFRESH_TOKEN', 'refresh token already used: sign in again');
  setSessionCookies(c, session);
  return c.json(tokenFields(session), 200);
};

export const logout: RouteHandler<typeof r.logout, AppEnv> = async (c) => {
  const body = c.req.valid('json');
  const token = body.refresh_token ?? getCookie(c, 'refresh_token');
  // The session of the refresh token ends: its family, and with it every access token issued in it.
  if (token) {
    const { db } = c.var;
    // Logged when a session really ends, with the token's owner as the actor. The outer row is the
    // presented token; the session ends if any token of its family is still live.
    const tokenHash = await sha256Hex(token);
    const entry = logRowWrite(db, logCtx(c), refreshTokens, eq(refreshTokens.tokenHash, tokenHash), {
      acao: 'auth.logout',
      entidade: 'users',
      entidadeId: refreshTokens.userId,
      atorId: refreshTokens.userId,
      atorRole: sql`(select ${users.role} from ${users} where ${users.id} = ${refreshTokens.userId})`,
      when: sql`exists (select 1 from ${refreshTokens} live where live.family_id = ${refreshTokens.familyId} and live.revoked_at is null)`,
    });
    await db.batch([entry, endSession(db, tokenHash)]);
  }
  clearSessionCookies(c);
  return c.json({ message: 'logged out' }, 200);
};

export const getMe = foldedHandler(r.getMe, async (c, read) => {
  // The account is read in the authentication query's own batch: one D1 round trip in all.
  const [[account]] = await read((scope) => [accountSelect(c.var.db, scope)]);
  if (!account) throw new ApiError('UNAUTHENTICATED', 'invalid or expired access token');
  return c.json(toLoginResponse(account as Account, { access_token: '', expires_at: '' }), 200);
});

export const updateMe: RouteHandler<typeof r.updateMe, AppEnv> = async (c) => {
  const body = c.req.valid('json');
  const { db, config, user } = c.var;
  const writes: BatchItem<'sqlite'>[] = [];
  const userSet: Partial<typeof users.$inferInsert> = { updatedAt: new Date().toISOString() };
  if (body.nome !== undefined) userSet.nome = body.nome;
  if (body.telefone !== undefined) userSet.telefone = body.telefone;

  let session: Awaited<ReturnType<typeof newSession>> | undefined;
  if (body.nova_senha !== undefined) {
    // senha_atual is a password guess like a login's: the same counters and limits (security review 4).
    // The attempt is taken in the same batch as the hash is read, so the route keeps its round trips.
    const keys = failureKeys(user.email, clientOf(c.req.header('cf-connecting-ip')));
    const { ids, inserts } = attemptStatements(db, keys);
    const read = db.select({ senhaHash: users.senhaHash }).from(users).where(eq(users.id, user.id));
    const results = await db.batch([...inserts, read]);
    const attempt = await settleAttempt(db, keys, ids, results);
    const [row] = results.at(-1) as Awaited<typeof read>;
    if (!row || !(await verifyPassword(body.senha_atual ?? '', row.senhaHash))) {
      await failLoginAttempt(db, attempt, [
        logStatement(db, logCtx(c), {
          acao: 'users.update_me_failed',
          entidade: 'users',
          entidadeId: user.id,
          dados: { motivo: { depois: 'senha_atual_incorreta' } },
        }),
      ]);
      throw new ApiError('VALIDATION_FAILED', 'senha_atual: is not the current password');
    }
    userSet.senhaHash = await hashPassword(body.nova_senha);
    session = await newSession(db, config, user);
    writes.push(
      revokeAllOfUser(db, user.id),
      session.insert,
      releaseLoginAttempt(db, attempt),
      clearFailures(db, keys[0]!),
    );
  }
  const log = logCtx(c);
  writes.unshift(
    logRowWrite(db, log, users, eq(users.id, user.id), {
      acao: 'users.update_me',
      entidade: 'users',
      // The new password is never logged, only that it changed.
      dados: { ...changed(users, userSet), ...(session ? { credencial: { depois: 'alterada' } } : {}) },
    }),
    db.update(users).set(userSet).where(eq(users.id, user.id)),
  );
  if (body.profissional) {
    const cols = profissionalColumns(body.profissional);
    if (Object.keys(cols).length > 0) {
      const where = eq(profissionais.usuarioId, user.id);
      writes.push(
        logRowWrite(db, log, profissionais, where, {
          acao: 'profissionais.update',
          entidade: 'profissionais',
          regiao: profissionais.regiao,
          dados: changed(profissionais, cols),
        }),
        db.update(profissionais).set(cols).where(where),
      );
    }
  }
  // The account is read back in the same batch as the writes: one round trip.
  const [[account]] = await writeThenRead(db, writes, [accountQuery(db, eq(users.id, user.id))]);
  if (!account) throw new ApiError('UNAUTHENTICATED', 'invalid or expired access token');
  if (session) setSessionCookies(c, session);
  return c.json(toLoginResponse(account, session ? tokenFields(session) : { access_token: '', expires_at: '' }), 200);
};
