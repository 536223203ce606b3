import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  notifications,
  profissionais,
  refreshTokens,
  users,
  type AuthUser,
  type NotificationRow,
} from '../../db/schema';
import { cachedBatch, returned, rows, run, runBatch, type Ready, type Statements } from '../../db/cached-batch';
import type { Config } from '../../env';
import { ApiError } from '../../lib/errors';
import { getDummyHash, hashPassword, verifyPassword } from '../../lib/password';
import { sha256Hex } from '../../lib/tokens';
import {
  changed,
  created,
  LOG_PARAMS,
  logOf,
  logRowWrite,
  logStatement,
  logValues,
  type LogCtx,
} from '../core/activity-log';
import {
  pixChangeNotices,
  pixOf,
  profissionalColumns,
  withoutOwnRegime,
  withPixChecked,
  type PixNoticeCtx,
} from './profile';
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
 * logout and the caller's own account update. Each takes the database, the config, the log context
 * and the client (CF-Connecting-IP) as plain values; the routes set and clear the cookies.
 */

/** A refresh refused because the session is over: the route also clears the session cookies. */
export class SessionEnded extends ApiError {}

/** Self-registration: a pending account and its first session. */
export async function register(
  db: Db,
  config: Config,
  log0: LogCtx,
  client: string,
  input: RegisterInput & { senha: string },
) {
  // Counted before anything else (and before the PBKDF2 hash): anonymous sign-ups are limited per client.
  await takeRegisterAttempt(db, client);
  await assertCompany(db, input.role, input.empresa_id);
  const values = userValues(input, await hashPassword(input.senha), false);
  const session = await newSession(db, config, values);
  // The new account is the actor of its own registration.
  const log: LogCtx = { ...log0, atorId: values.id, atorRole: values.role };
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
export async function login(db: Db, config: Config, log: LogCtx, client: string, email: string, senha: string) {
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
  const session = await newSession(db, config, account.user);
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
export async function refresh(db: Db, config: Config, log: LogCtx, token: string) {
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
  const session =
    (row.revokedAt
      ? undefined
      : await rotate(db, config, row, token, user, (newId) => [
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
        ])) ?? (await replayRotation(db, config, row, token, user));
  if (!session) throw new ApiError('INVALID_REFRESH_TOKEN', 'token de renovação já usado: entre de novo');
  return session;
}

/** Ends the session (refresh-token family) of the presented token. */
export async function logout(db: Db, log: LogCtx, token: string) {
  // Logged when a session really ends, with the token's owner as the actor. The outer row is the
  // presented token; the session ends if any token of its family is still live.
  const tokenHash = await sha256Hex(token);
  const entry = logRowWrite(db, log, refreshTokens, eq(refreshTokens.tokenHash, tokenHash), {
    acao: 'auth.logout',
    entidade: 'users',
    entidadeId: refreshTokens.userId,
    atorId: refreshTokens.userId,
    atorRole: sql`(select ${users.role} from ${users} where ${users.id} = ${refreshTokens.userId})`,
    when: sql`exists (select 1 from ${refreshTokens} live where live.family_id = ${refreshTokens.familyId} and live.revoked_at is null)`,
  });
  await db.batch([entry, endSession(db, tokenHash)]);
}

/** PUT /api/me: own name, phone, password (under the attempt limits) and profile fields. */
export async function updateMe(
  db: Db,
  config: Config,
  log: LogCtx,
  client: string,
  user: AuthUser,
  body: {
    nome?: string;
    telefone?: string | null;
    senha_atual?: string;
    nova_senha?: string;
    profissional?: Record<string, unknown>;
  },
  notices: PixNoticeCtx,
) {
  // The PIX pair and the regime are checked against the stored profile first (docs/decisions.md#d18-finance),
  // before any password attempt is counted: a read for validation only.
  let profissional = body.profissional;
  let told: Awaited<ReturnType<typeof pixChangeNotices>> | undefined;
  const profileWhere = eq(profissionais.usuarioId, user.id);
  if (
    profissional &&
    (profissional.conta_pix !== undefined ||
      profissional.tipo_chave_pix !== undefined ||
      profissional.regime_fiscal !== undefined)
  ) {
    const [stored] = await db
      .select({
        contaPix: profissionais.contaPix,
        tipoChavePix: profissionais.tipoChavePix,
        regimeFiscal: profissionais.regimeFiscal,
        regiao: profissionais.regiao,
      })
      .from(profissionais)
      .where(profileWhere);
    if (stored) {
      profissional = withPixChecked(withoutOwnRegime(user, profissional, stored.regimeFiscal), stored);
      const pix = pixOf(profissional);
      if (pix) told = await pixChangeNotices(db, notices, profileWhere, pix, stored.regiao, user);
    }
  }
  let sessionWrites: Statements = {};
  const userSet: Partial<typeof users.$inferInsert> = { updatedAt: new Date().toISOString() };
  if (body.nome !== undefined) userSet.nome = body.nome;
  if (body.telefone !== undefined) userSet.telefone = body.telefone;

  let session: Awaited<ReturnType<typeof newSession>> | undefined;
  if (body.nova_senha !== undefined) {
    // senha_atual is a password guess like a login's: the same counters and limits (security review 4).
    // The attempt is taken in the same batch as the hash is read, so the route keeps its round trips.
    const keys = failureKeys(user.email, client);
    const { ids, insert } = attemptStatements(db, keys);
    const read = rows(db.select({ senhaHash: users.senhaHash }).from(users).where(eq(users.id, user.id)));
    const {
      taken,
      read: [row],
    } = await runBatch(db, { taken: insert, read });
    const attempt = await settleAttempt(db, keys, ids, taken);
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
    userSet.senhaHash = await hashPassword(body.nova_senha);
    session = await newSession(db, config, user);
    sessionWrites = {
      revoke: run(revokeAllOfUser(db, user.id)),
      session: session.insert,
      release: releaseLoginAttempt(db, attempt, keys[0]),
    };
  }
  let profileWrites: Statements = {};
  // The PIX change's notifications and e-mail, before the profile's update (they compare with the stored key).
  let pixWrites: { pixNotes: Ready<NotificationRow[]>; pixMail: Ready<{ changes: number }> } | undefined;
  if (profissional) {
    const cols = profissionalColumns(profissional);
    if (Object.keys(cols).length > 0) {
      const where = profileWhere;
      if (told) pixWrites = { pixNotes: returned(notifications, told.notify), pixMail: run(told.mail) };
      profileWrites = {
        profileLog: run(
          logRowWrite(db, log, profissionais, where, {
            acao: 'profissionais.update',
            entidade: 'profissionais',
            regiao: profissionais.regiao,
            dados: changed(profissionais, cols),
          }),
        ),
        profile: run(db.update(profissionais).set(cols).where(where)),
      };
    }
  }
  // The account is read back in the same batch as the writes: one round trip.
  const results = await runBatch(db, {
    log: run(
      logRowWrite(db, log, users, eq(users.id, user.id), {
        acao: 'users.update_me',
        entidade: 'users',
        // The new password is never logged, only that it changed.
        dados: { ...changed(users, userSet), ...(session ? { credencial: { depois: 'alterada' } } : {}) },
      }),
    ),
    update: run(db.update(users).set(userSet).where(eq(users.id, user.id))),
    ...sessionWrites,
    ...pixWrites,
    ...profileWrites,
    account: rows(accountQuery(db, eq(users.id, user.id))),
  });
  if (told && results.pixNotes && results.pixMail) told.settle(results.pixNotes, results.pixMail);
  const [account] = results.account;
  if (!account) throw new ApiError('UNAUTHENTICATED', 'token de acesso inválido ou expirado');
  return { account, session };
}
