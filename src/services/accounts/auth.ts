import { eq, sql } from 'drizzle-orm';
import {
  notifications,
  profissionais,
  refreshTokens,
  users,
  type AuthUser,
  type NotificationRow,
} from '../../db/schema';
import { cachedBatch, returned, rows, run, runBatch, type Ready } from '../../db/cached-batch';
import { ApiError } from '../../lib/errors';
import { getDummyHash, hashPassword, verifyPassword } from '../../lib/password';
import { sha256Hex } from '../../lib/tokens';
import {
  changed,
  created,
  LOG_PARAMS,
  loggedUpdate,
  logOf,
  logRowWrite,
  logStatement,
  logValues,
  type LogCtx,
} from '../core/activity-log';
import type { Ctx } from '../core/context';
import { pixChangeNotices, pixOf, profissionalColumns, withoutOwnRegime, withPixChecked } from './profile';
import {
  attemptStatements,
  endSession,
  failLoginAttempt,
  failureKeys,
  findRefreshToken,
  inGraceWindow,
  newSession,
  releaseLoginAttempt,
  replayRotation,
  reserveLoginAttemptAnd,
  revokeAllOfUser,
  rotate,
  settleAttempt,
  takeRegisterAttempt,
} from './sessions';
import { accountByEmail, accountQuery, assertCompany, userValues, type RegisterInput } from './users';

/**
 * The authentication flows (docs/decisions.md#d3, SECURITY.md): registration, login, refresh,
 * logout and the caller's own account update. Each takes the request's context (the database, the
 * config, who acts) and the client (CF-Connecting-IP); the routes set and clear the cookies.
 */

/** A refresh refused because the session is over: the route also clears the session cookies. */
export class SessionEnded extends ApiError {}

/** What the authentication flows need of the request's context. */
type AuthCtx = Pick<Ctx, 'db' | 'config' | 'log'>;

/** Self-registration: a pending account and its first session. */
export async function register(ctx: AuthCtx, client: string, input: RegisterInput & { senha: string }) {
  const { db } = ctx;
  // Counted before anything else (and before the PBKDF2 hash): anonymous sign-ups are limited per client.
  await takeRegisterAttempt(db, client);
  await assertCompany(db, input.role, { empresaId: input.empresa_id });
  const values = userValues(input, await hashPassword(input.senha), false);
  const session = await newSession(ctx, values);
  // The new account is the actor of its own registration.
  const log: LogCtx = { ...ctx.log, atorId: values.id, atorRole: values.role };
  await runBatch(db, {
    user: run(db.insert(users).values(values)),
    session: session.insert,
    log: run(
      logStatement(db, log, {
        acao: 'auth.register',
        entidade: 'users',
        entidadeId: values.id,
        dados: created(users, values),
      }),
    ),
  });
  return { id: values.id, session };
}

/** Login with e-mail and password, under the attempt limits. */
export async function login(ctx: AuthCtx, client: string, { email, senha }: { email: string; senha: string }) {
  const { db, log } = ctx;
  const keys = failureKeys(email, client);
  // The attempt is counted before the password is checked, so parallel guesses cannot outrun the limit.
  // The account is read in the reservation's batch: one round trip for both.
  const [attempt, [account]] = await reserveLoginAttemptAnd(db, keys, accountByEmail(db, email));
  // Unknown e-mail and wrong password cost the same hash and give the same answer.
  const ok = await verifyPassword(senha, account?.user.senhaHash ?? (await getDummyHash()));
  // A failed login is logged anonymously, with the e-mail tried (never the password) and why.
  const failed = (motivo: string) =>
    logStatement(db, log, {
      acao: 'auth.login_failed',
      entidade: 'users',
      entidadeId: account?.user.id ?? null,
      dados: { email: { depois: email }, motivo: { depois: motivo } },
    });
  if (!account || !ok) {
    await failLoginAttempt(db, attempt, [failed(account ? 'senha_incorreta' : 'email_desconhecido')]);
    throw new ApiError('INVALID_CREDENTIALS', 'e-mail ou senha inválidos');
  }
  if (!account.user.ativo) {
    await runBatch(db, { release: releaseLoginAttempt(db, attempt), log: run(failed('conta_pendente')) });
    throw new ApiError('ACCOUNT_PENDING', 'conta aguardando aprovação de um administrador', { status: 401 });
  }
  const session = await newSession(ctx, account.user);
  await runBatch(db, {
    session: session.insert,
    release: releaseLoginAttempt(db, attempt, keys[0]),
    ...loginLog.bind(db, undefined, {
      user_id: account.user.id,
      ...logValues({ ...log, atorId: account.user.id, atorRole: account.user.role }),
    }),
  });
  return { account, session };
}

/** A login's entry, its SQL built once per isolate (db/cached-batch.ts: login's CPU). */
export const loginLog = cachedBatch({
  params: [...LOG_PARAMS, 'user_id'],
  build: (db, _: undefined, p) => ({
    log: run(logStatement(db, logOf(p), { acao: 'auth.login', entidade: 'users', entidadeId: p.user_id })),
  }),
});

/** Exchanges a refresh token (spent once, with a grace window) for a new session. */
export async function refresh(ctx: AuthCtx, token: string) {
  const { db, log } = ctx;
  const row = await findRefreshToken(db, token);
  if (!row) throw new ApiError('INVALID_REFRESH_TOKEN', 'token de renovação inválido');
  if (row.revokedAt && !row.replacedBy) {
    // Ended by logout or a password change: invalid, nothing more to end.
    throw new SessionEnded('INVALID_REFRESH_TOKEN', 'token de renovação revogado: entre de novo');
  }
  if (row.revokedAt && !inGraceWindow(row)) {
    // Theft detection: a token rotated more than REFRESH_GRACE_MS ago came back, so two parties hold
    // this login. Every session of the user ends, and with them their access tokens (security review 3).
    await db.batch([
      // Logged once, when it ends something.
      logStatement(
        db,
        { ...log, atorId: row.userId },
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
    throw new SessionEnded(
      'INVALID_REFRESH_TOKEN',
      'token de renovação já usado: todas as sessões desta conta foram encerradas',
    );
  }
  if (Date.parse(row.expiresAt) <= Date.now())
    throw new ApiError('INVALID_REFRESH_TOKEN', 'token de renovação expirado');
  const [user] = await db
    .select({ id: users.id, role: users.role, empresaId: users.empresaId, ativo: users.ativo })
    .from(users)
    .where(eq(users.id, row.userId));
  if (!user) throw new ApiError('INVALID_REFRESH_TOKEN', 'token de renovação inválido');
  if (!user.ativo)
    throw new ApiError('ACCOUNT_PENDING', 'conta aguardando aprovação de um administrador', { status: 401 });
  // A token replaced moments ago (two tabs, a retry) or a rotation lost to a concurrent request
  // answers the same successor (security review 5).
  const presented = { row, token, user };
  const session =
    (row.revokedAt
      ? undefined
      : await rotate(ctx, presented, (newId) => [
          logStatement(
            db,
            { ...log, atorId: user.id, atorRole: user.role },
            {
              acao: 'auth.refresh',
              entidade: 'users',
              entidadeId: user.id,
              when: sql`exists (select 1 from ${refreshTokens} where ${refreshTokens.id} = ${newId})`,
            },
          ),
        ])) ?? (await replayRotation(ctx, presented));
  if (!session) throw new ApiError('INVALID_REFRESH_TOKEN', 'token de renovação já usado: entre de novo');
  return session;
}

/** Ends the session (refresh-token family) of the presented token. */
export async function logout({ db, log }: Pick<Ctx, 'db' | 'log'>, token: string) {
  // Logged when a session really ends, with the token's owner as the actor. The outer row is the
  // presented token; the session ends if any token of its family is still live.
  const tokenHash = await sha256Hex(token);
  const entry = logRowWrite(
    { db, log },
    { table: refreshTokens, where: eq(refreshTokens.tokenHash, tokenHash) },
    {
      acao: 'auth.logout',
      entidade: 'users',
      entidadeId: refreshTokens.userId,
      atorId: refreshTokens.userId,
      atorRole: sql`(select ${users.role} from ${users} where ${users.id} = ${refreshTokens.userId})`,
      when: sql`exists (select 1 from ${refreshTokens} live where live.family_id = ${refreshTokens.familyId} and live.revoked_at is null)`,
    },
  );
  await db.batch([entry, endSession(db, tokenHash)]);
}

/** What PUT /api/me may change. */
export interface MeInput {
  nome?: string;
  telefone?: string | null;
  senha_atual?: string;
  nova_senha?: string;
  profissional?: Record<string, unknown>;
}

/** The caller's own account update: the flows above, and the caller, its push and e-mail channels. */
type MeCtx = AuthCtx & Pick<Ctx, 'user' | 'push' | 'mail'>;

/**
 * PUT /api/me: own name, phone, password (under the attempt limits) and profile fields, in steps:
 * the profile fields checked against the stored profile, the password checked, then one batch
 * that writes everything and reads the account back.
 */
export async function updateMe(ctx: MeCtx, client: string, body: MeInput) {
  const { db, log, user } = ctx;
  // Before any password attempt is counted.
  const profile = await checkedProfile(ctx, body.profissional);
  const password = body.nova_senha === undefined ? undefined : await changedPassword(ctx, client, body);
  const userSet: Partial<typeof users.$inferInsert> = { updatedAt: new Date().toISOString() };
  if (body.nome !== undefined) userSet.nome = body.nome;
  if (body.telefone !== undefined) userSet.telefone = body.telefone;
  if (password) userSet.senhaHash = password.senhaHash;
  const { pix, profile: profileWrites } = profileStatements(ctx, profile);
  // The account is read back in the same batch as the writes: one round trip.
  const results = await runBatch(db, {
    log: run(
      logRowWrite(
        { db, log },
        { table: users, where: eq(users.id, user.id) },
        {
          acao: 'users.update_me',
          entidade: 'users',
          // The new password is never logged, only that it changed.
          dados: { ...changed(users, userSet), ...(password ? { credencial: { depois: 'alterada' } } : {}) },
        },
      ),
    ),
    update: run(db.update(users).set(userSet).where(eq(users.id, user.id))),
    ...password?.writes,
    // The PIX change's notifications and e-mail, before the profile's update (they compare with the stored key).
    ...pix,
    ...profileWrites,
    account: rows(accountQuery(db, eq(users.id, user.id))),
  });
  if (profile.told && results.pixNotes && results.pixMail) profile.told.settle(results.pixNotes, results.pixMail);
  const [account] = results.account;
  if (!account) throw new ApiError('UNAUTHENTICATED', 'token de acesso inválido ou expirado');
  return { account, session: password?.session };
}

/** The caller's own professional profile. */
const ownProfile = (user: Pick<AuthUser, 'id'>) => eq(profissionais.usuarioId, user.id);

interface CheckedProfile {
  profissional?: Record<string, unknown>;
  /** The notices of a change of the PIX pair, for the batch. */
  told?: Awaited<ReturnType<typeof pixChangeNotices>>;
}

/**
 * The profile fields of PUT /api/me: the PIX pair and the regime are checked against the stored
 * profile (docs/decisions.md#d18-finance), a read for validation only.
 */
async function checkedProfile(ctx: MeCtx, sent: Record<string, unknown> | undefined): Promise<CheckedProfile> {
  const { db, user } = ctx;
  if (!sent || (sent.conta_pix === undefined && sent.tipo_chave_pix === undefined && sent.regime_fiscal === undefined))
    return { profissional: sent };
  const [stored] = await db
    .select({
      contaPix: profissionais.contaPix,
      tipoChavePix: profissionais.tipoChavePix,
      regimeFiscal: profissionais.regimeFiscal,
      regiao: profissionais.regiao,
    })
    .from(profissionais)
    .where(ownProfile(user));
  if (!stored) return { profissional: sent };
  const profissional = withPixChecked(withoutOwnRegime(user, sent, stored.regimeFiscal), stored);
  const pair = pixOf(profissional);
  const told = pair
    ? await pixChangeNotices(ctx, { where: ownProfile(user), pair, regiao: stored.regiao, actor: user })
    : undefined;
  return { profissional, told };
}

/**
 * A new password: senha_atual is a password guess like a login's, under the same counters and limits
 * (security review 4). The attempt is taken in the same batch as the hash is read, so the route
 * keeps its round trips. Answers the new hash, the new session and its writes.
 */
async function changedPassword(ctx: MeCtx, client: string, body: MeInput) {
  const { db, log, user } = ctx;
  const keys = failureKeys(user.email, client);
  const { ids, insert } = attemptStatements(db, keys);
  const read = rows(db.select({ senhaHash: users.senhaHash }).from(users).where(eq(users.id, user.id)));
  const {
    taken,
    read: [row],
  } = await runBatch(db, { taken: insert, read });
  const attempt = await settleAttempt(db, { keys, ids, taken });
  if (!row || !(await verifyPassword(body.senha_atual ?? '', row.senhaHash))) {
    await failLoginAttempt(db, attempt, [
      logStatement(db, log, {
        acao: 'users.update_me_failed',
        entidade: 'users',
        entidadeId: user.id,
        dados: { motivo: { depois: 'senha_atual_incorreta' } },
      }),
    ]);
    throw new ApiError('VALIDATION_FAILED', 'senha_atual: não é a senha atual');
  }
  const senhaHash = await hashPassword(body.nova_senha!);
  const session = await newSession(ctx, user);
  const writes = {
    revoke: run(revokeAllOfUser(db, user.id)),
    session: session.insert,
    release: releaseLoginAttempt(db, attempt, keys[0]),
  };
  return { senhaHash, session, writes };
}

/** The profile's logged update (when it changes a column) and, before it, the notices of its PIX change. */
function profileStatements({ db, log, user }: MeCtx, { profissional, told }: CheckedProfile) {
  const cols = profissional ? profissionalColumns(profissional) : {};
  if (Object.keys(cols).length === 0) return {};
  const [entry, update] = loggedUpdate(
    { db, log },
    { table: profissionais, where: ownProfile(user), set: cols },
    { acao: 'profissionais.update', entidade: 'profissionais', regiao: profissionais.regiao },
  );
  const pix: { pixNotes: Ready<NotificationRow[]>; pixMail: Ready<{ changes: number }> } | undefined = told
    ? { pixNotes: returned(notifications, told.notify), pixMail: run(told.mail) }
    : undefined;
  return { pix, profile: { profileLog: run(entry), profile: run(update) } };
}
