import { logStatement, type LogCtx } from '../core/activity-log';
import { and, eq, gt, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { insertWhere } from '../../db/guarded';
import {
  emailOutbox,
  passwordResetTokens as prt,
  refreshTokens,
  users,
  type AuthUser,
  type EmailTipo,
} from '../../db/schema';
import type { Config } from '../../env';
import { ApiError } from '../../lib/errors';
import { hashPassword } from '../../lib/password';
import { newRefreshToken, sha256Hex } from '../../lib/tokens';
import type { Ctx } from '../core/context';
import { prepareEmail } from '../core/mail';
import { mayActOnRow, superadminOnly } from './users';

/**
 * Password reset and access invitations (docs/decisions.md#d14). Both are a one-time token (32 random
 * bytes, base64url; only its SHA-256 is stored) e-mailed as a link and redeemed by
 * POST /auth/reset-password. Every rule that must hold under concurrency is inside the statements
 * of one batch: the hourly cap, "a newer token voids the older ones", "a token is spent once".
 */

/** An access invitation's link lives 7 days; a reset link RESET_TOKEN_TTL_SECONDS (default 30 minutes). */
/** Outside a request (tests, scripts): an entry with no actor and no request id. */
const NO_ACTOR: LogCtx = { atorId: null, atorRole: null, requestId: null };

export const INVITE_TTL_SECONDS = 7 * 86_400;
/** At most this many forgot-password e-mails per address per window. */
export const RESET_MAX_PER_WINDOW = 3;
export const RESET_WINDOW_MS = 60 * 60 * 1000;

type Stmt = BatchItem<'sqlite'>;

/**
 * What these flows need of the request's context: the session, the config's signing key (and
 * more), and who acts (none outside a request: tests, scripts).
 */
type MailCtx<C extends keyof Config = never> = Pick<Ctx, 'db'> & {
  config: Pick<Config, 'JWT_SECRET' | C>;
  log?: LogCtx;
};

const invalidToken = () => new ApiError('INVALID_RESET_TOKEN', 'token inválido, já usado ou expirado');

/** `(select <col> from users where id = <user>)`, for statements whose user is found inside the batch. */
const userField = (field: 'email' | 'nome', userId: SQL | string) =>
  sql`(select ${field === 'email' ? users.email : users.nome} from ${users} where ${users.id} = ${userId})`;

/**
 * A new token for a user and the e-mail carrying its link, as three statements of the caller's
 * batch: the token insert (only when `guard` holds), the voiding of the user's older unspent tokens
 * and the outbox row, both only when the new token was inserted. The token's user may be found
 * inside the batch (`userId` as SQL), so an unknown address runs exactly the same statements.
 */
async function tokenAndEmail(
  { db, config }: MailCtx,
  opts: {
    userId: SQL | string;
    guard: SQL;
    tipo: 'redefinir' | 'convite';
    emailTipo: EmailTipo;
    ttlSeconds: number;
    now: Date;
  },
) {
  const { now } = opts;
  const token = newRefreshToken();
  const tokenId = crypto.randomUUID();
  const at = now.toISOString();
  const inserted = sql`exists (select 1 from ${prt} where ${prt.id} = ${tokenId})`;
  const insert = insertWhere(
    db,
    prt,
    {
      id: tokenId,
      userId: opts.userId as string,
      tipo: opts.tipo,
      tokenHash: await sha256Hex(token),
      expiresAt: new Date(now.getTime() + opts.ttlSeconds * 1000).toISOString(),
      usedAt: null,
      revokedAt: null,
      createdAt: at,
    },
    opts.guard,
  );
  const voidOlder = db
    .update(prt)
    .set({ revokedAt: at })
    .where(and(eq(prt.userId, opts.userId), ne(prt.id, tokenId), isNull(prt.usedAt), isNull(prt.revokedAt), inserted));
  const mail = await prepareEmail(
    { db, config },
    {
      para: userField('email', opts.userId),
      tipo: opts.emailTipo,
      dados: sql`json_object('nome', ${userField('nome', opts.userId)})`,
      token,
      when: inserted,
    },
    now,
  );
  return { statements: [insert, voidOlder, mail.insert] as [Stmt, Stmt, Stmt], outboxId: mail.id, token };
}

/**
 * POST /auth/forgot-password. The same statements run whatever the address (the user is looked up
 * inside the batch), so an unknown address costs the same work and gets the same answer. The token
 * is inserted only for an existing user whose address got fewer than 3 reset e-mails in the last
 * hour, counted inside the same statement (two parallel requests cannot both pass the cap).
 * Answers the outbox id to enqueue, or undefined when nothing is to be sent.
 */
export async function requestPasswordReset(
  ctx: MailCtx<'RESET_TOKEN_TTL_SECONDS'>,
  email: string,
  now = new Date(),
): Promise<string | undefined> {
  const { db, config, log = NO_ACTOR } = ctx;
  const since = new Date(now.getTime() - RESET_WINDOW_MS).toISOString();
  const userId = sql`(select ${users.id} from ${users} where ${users.email} = ${email})`;
  const sent = sql`(select count(*) from ${emailOutbox} where ${emailOutbox.para} = ${email} and ${emailOutbox.tipo} = 'redefinir_senha' and ${emailOutbox.createdAt} > ${since})`;
  const { statements, outboxId } = await tokenAndEmail(ctx, {
    userId,
    guard: sql`${userId} is not null and ${sent} < ${RESET_MAX_PER_WINDOW}`,
    tipo: 'redefinir',
    emailTipo: 'redefinir_senha',
    ttlSeconds: config.RESET_TOKEN_TTL_SECONDS,
    now,
  });
  // Logged exactly when a link is sent (the same guard, evaluated before the token's own insert).
  const entry = logStatement(db, log, {
    acao: 'auth.forgot_password',
    entidade: 'users',
    entidadeId: userId,
    atorId: userId,
    when: sql`${userId} is not null and ${sent} < ${RESET_MAX_PER_WINDOW}`,
  });
  const [, , , mail] = await db.batch([entry, ...statements]);
  return mail.meta.changes === 1 ? outboxId : undefined;
}

/**
 * An access invitation (`/definir-senha`, 7 days) for an existing user, or one inserted earlier in
 * the same batch (team registration): statements for the caller's batch, the outbox id to enqueue
 * after it, and the index of the token insert, whose `meta.changes` is 0 when the user does not exist.
 */
export async function accessInvitation(
  ctx: MailCtx,
  userId: string,
  {
    now,
    allowed = sql`1`,
  }: {
    now: Date;
    /** A further condition on the user's row (the caller's right to act on it). */
    allowed?: SQL;
  },
) {
  const { statements, outboxId } = await tokenAndEmail(ctx, {
    userId,
    guard: sql`exists (select 1 from ${users} where ${users.id} = ${userId} and ${allowed})`,
    tipo: 'convite',
    emailTipo: 'convite_acesso',
    ttlSeconds: INVITE_TTL_SECONDS,
    now,
  });
  return { statements, outboxId };
}

/**
 * POST /api/admin/users/{id}/convite-acesso: a new invitation (the older links stop working). Only a
 * SUPERADMIN invites a SUPERADMIN (services/accounts/users.ts mayActOnRow, checked in the statements).
 */
export async function resendAccessInvitation(
  ctx: MailCtx & { user: Pick<AuthUser, 'role'> },
  userId: string,
  now = new Date(),
) {
  const { db, log = NO_ACTOR } = ctx;
  const allowed = mayActOnRow(ctx.user);
  const { statements, outboxId } = await accessInvitation(ctx, userId, { now, allowed });
  const entry = logStatement(db, log, {
    acao: 'users.access_invitation',
    entidade: 'users',
    entidadeId: userId,
    when: sql`exists (select 1 from ${users} where ${users.id} = ${userId} and ${allowed})`,
  });
  const [, inserted] = await db.batch([entry, ...statements]);
  if (inserted.meta.changes !== 1) {
    const [exists] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
    throw exists ? superadminOnly() : new ApiError('NOT_FOUND', 'usuário não encontrado');
  }
  return outboxId;
}

/**
 * A password no one knows, for a login created by an invitation: a real PBKDF2 hash of 32 random
 * bytes, so that login costs and answers exactly as for a wrong password.
 */
export const unusablePasswordHash = () => hashPassword(newRefreshToken());

/**
 * POST /auth/reset-password: the new hash, every refresh token of the user revoked, the user's other
 * tokens voided, the "senha alterada" e-mail and the token spent, in ONE batch whose every statement
 * holds only while the token is still valid (unspent, not voided, not expired at `now`). The token
 * is spent by the last statement: of two resets racing with one token exactly one changes anything;
 * the other gets 400 INVALID_RESET_TOKEN. Answers the outbox id of the e-mail.
 */
export async function resetPassword(
  { db, config, log = NO_ACTOR }: MailCtx,
  { token, novaSenha }: { token: string; novaSenha: string },
  now = new Date(),
): Promise<string> {
  const at = now.toISOString();
  // Read first, so that a wrong token is refused before the (deliberately slow) password hash.
  const [row] = await db
    .select({ id: prt.id, userId: prt.userId, expiresAt: prt.expiresAt, usedAt: prt.usedAt, revokedAt: prt.revokedAt })
    .from(prt)
    .where(eq(prt.tokenHash, await sha256Hex(token)))
    .limit(1);
  if (!row || row.usedAt || row.revokedAt || row.expiresAt <= at) throw invalidToken();
  const senhaHash = await hashPassword(novaSenha);

  const unspent = and(eq(prt.id, row.id), isNull(prt.usedAt), isNull(prt.revokedAt), gt(prt.expiresAt, at))!;
  const valid = sql`exists (select 1 from ${prt} where ${unspent})`;
  const mail = await prepareEmail(
    { db, config },
    {
      para: userField('email', row.userId),
      tipo: 'senha_alterada',
      dados: sql`json_object('nome', ${userField('nome', row.userId)})`,
      when: valid,
    },
    now,
  );
  const results = await db.batch([
    db
      .update(users)
      .set({ senhaHash, updatedAt: at })
      .where(and(eq(users.id, row.userId), valid)),
    db
      .update(refreshTokens)
      .set({ revokedAt: at })
      .where(and(eq(refreshTokens.userId, row.userId), isNull(refreshTokens.revokedAt), valid)),
    db
      .update(prt)
      .set({ revokedAt: at })
      .where(and(eq(prt.userId, row.userId), ne(prt.id, row.id), isNull(prt.usedAt), isNull(prt.revokedAt), valid)),
    mail.insert,
    // While the token is still valid: exactly the reset that happened is logged (never the password).
    logStatement(db, log, {
      acao: 'auth.password_reset',
      entidade: 'users',
      entidadeId: row.userId,
      atorId: row.userId,
      when: valid,
    }),
    db.update(prt).set({ usedAt: at }).where(unspent),
  ]);
  if (results[5].meta.changes !== 1) throw invalidToken();
  return mail.id;
}
