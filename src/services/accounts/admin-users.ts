import { and, asc, eq, getTableColumns, isNotNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { keptCount } from '../../db/kept-count';
import { withTotal } from '../../db/list-total';
import { calendarios, empresas, users, type Role } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { hashPassword } from '../../lib/password';
import { pageBounds, type Page } from '../../lib/pagination';
import { isAdmin } from '../../lib/permissions';
import { changed, created, loggedDelete, logRowWrite, logStatement } from '../core/activity-log';
import type { Ctx } from '../core/context';
import { CALENDAR_ROLES } from '../../lib/permissions';
import { feedRefColumns, type FeedRef } from '../../db/schema/operacoes';
import { prepareNotifications } from '../core/notifications';
import { assertRefsInRegion } from '../core/references';
import {
  adminProfileStatements,
  approveProfile,
  assertCompany,
  assertMayActOn,
  deletePendingProfile,
  mayActOnRow,
  notLastSuperadmin,
  superadminOnly,
  toUserResponse,
  userValues,
  type RegisterInput,
} from './users';

/**
 * Administration of accounts (/api/admin/users, docs/decisions.md#d4): the lists, approval, role
 * changes and deletion, with the SUPERADMIN rules checked in the statements themselves.
 */

const { senhaHash: _h, ...userColumns } = getTableColumns(users);

const selectUsers = (db: Db) =>
  db
    .select({ user: userColumns, companyName: sql<string | null>`${empresas.label}`.as('company_name') })
    .from(users)
    .leftJoin(empresas, eq(empresas.id, users.empresaId));

/** The account an action targets, with its calendar feed (whose edge-cached copy the handler drops when D1 stops answering it). */
async function findTarget(db: Db, id: string) {
  const [target] = await db
    .select({ id: users.id, role: users.role, empresaId: users.empresaId, feed: feedRefColumns })
    .from(users)
    .leftJoin(calendarios, eq(calendarios.userId, users.id))
    .where(eq(users.id, id));
  if (!target) throw new ApiError('NOT_FOUND', 'usuário não encontrado');
  return target;
}

/**
 * A page of users matching `where` and their total, in one round trip (db/list-total.ts). The total
 * is the count triggers keep of `kept` (drizzle/0037: '' every account, 'pendentes' those waiting).
 */
async function pageOfUsers(
  db: Db,
  { where, kept, order }: { where?: SQL; kept: '' | 'pendentes'; order: SQL[] },
  page: Page,
) {
  const { limit, offset } = pageBounds(page);
  return withTotal(
    db,
    page,
    selectUsers(db)
      .where(where)
      .orderBy(...order)
      .limit(limit)
      .offset(offset),
    keptCount(db, 'users', '', kept),
  );
}

/** Every account, by name, and the total. */
export async function listUsers({ db }: Pick<Ctx, 'db'>, page: Page) {
  const { rows, total } = await pageOfUsers(db, { kept: '', order: [asc(users.nome), asc(users.id)] }, page);
  return { users: rows.map((row) => toUserResponse(row.user, row.companyName)), total };
}

/** Accounts waiting for approval, oldest first, and the total. */
export async function pendingUsers({ db }: Pick<Ctx, 'db'>, page: Page) {
  const { rows, total } = await pageOfUsers(
    db,
    { where: eq(users.ativo, false), kept: 'pendentes', order: [asc(users.createdAt), asc(users.id)] },
    page,
  );
  return {
    users: rows.map((row) => ({
      ...toUserResponse(row.user, row.companyName),
      tipo_profissional: row.user.professionalType,
    })),
    total,
  };
}

export async function getUser({ db }: Pick<Ctx, 'db'>, id: string) {
  const [row] = await selectUsers(db).where(eq(users.id, id));
  if (!row) throw new ApiError('NOT_FOUND', 'usuário não encontrado');
  return toUserResponse(row.user, row.companyName);
}

/** An active account; an administrator role also gets a professional profile in the region. */
export async function createUser(
  { db, log, user: caller, regiao }: Pick<Ctx, 'db' | 'log' | 'user' | 'regiao'>,
  input: RegisterInput & { senha: string },
) {
  assertMayActOn(caller, input.role);
  await assertCompany(db, input.role, { empresaId: input.empresa_id, regiao });
  const values = userValues(input, await hashPassword(input.senha), true);
  const entry = logStatement(db, log, {
    acao: 'users.create',
    entidade: 'users',
    entidadeId: values.id,
    dados: created(users, values),
  });
  await db.batch([
    db.insert(users).values(values),
    entry,
    ...(isAdmin(input.role) ? adminProfileStatements(db, values, regiao) : []),
  ]);
  return values.id;
}

/** Answers the deleted account's calendar feed, if it had one. */
export async function deleteUser(
  { db, log, user: caller }: Pick<Ctx, 'db' | 'log' | 'user'>,
  id: string,
): Promise<FeedRef | null> {
  if (id === caller.id) throw new ApiError('FORBIDDEN', 'você não pode excluir a própria conta');
  const target = await findTarget(db, id);
  assertMayActOn(caller, target.role);
  const where = and(eq(users.id, id), notLastSuperadmin);
  const [, , res] = await db.batch([
    deletePendingProfile(db, id),
    ...loggedDelete({ db, log }, { table: users, where }, { acao: 'users.delete', entidade: 'users' }),
  ]);
  if (res.meta.changes === 0) throw new ApiError('CONFLICT', 'o último SUPERADMIN não pode ser excluído');
  return target.feed;
}

/** Approves a pending account (and its profile); the user is told once. */
export async function approveUser(
  { db, log, user: caller, push }: Pick<Ctx, 'db' | 'log' | 'user' | 'push'>,
  id: string,
) {
  // Activating a SUPERADMIN account is acting on a SUPERADMIN (docs/decisions.md#d4): checked in the statements.
  const mayTouch = mayActOnRow(caller);
  // The user is told once: the guard (evaluated in the batch, before the update) holds only while pending.
  const notes = prepareNotifications(
    db,
    [
      {
        userId: id,
        tipo: 'conta_aprovada',
        titulo: 'Conta aprovada',
        mensagem: 'Sua conta foi aprovada: você já pode entrar.',
      },
    ],
    { when: sql`exists (select 1 from ${users} where ${users.id} = ${id} and ${users.ativo} = 0 and ${mayTouch})` },
  );
  const where = and(eq(users.id, id), mayTouch);
  const [inserted, , res] = await db.batch([
    notes.insert[0]!,
    // Logged only when it really approves (the account was pending).
    logRowWrite(
      { db, log },
      { table: users, where: and(where, eq(users.ativo, false)) },
      {
        acao: 'users.approve',
        entidade: 'users',
        dados: changed(users, { ativo: true }),
      },
    ),
    db.update(users).set({ ativo: true }).where(where),
    approveProfile(db, id),
  ]);
  if (res.meta.changes === 0) {
    await findTarget(db, id); // 404 when there is no such user
    throw superadminOnly();
  }
  if (inserted.meta.changes > 0) push(notes.push);
}

/** An EVENT_OWNER belongs to a company (docs/decisions.md#d4), whichever route makes it one. */
const ownerWithoutCompany = () =>
  new ApiError('VALIDATION_FAILED', 'empresa_id: é obrigatório para o perfil EVENT_OWNER');

/**
 * Changes an account's role, and its company when `empresa_id` is sent (a company of `regiao`);
 * never one's own, never the last SUPERADMIN's, never to an EVENT_OWNER without a company. Answers
 * the account's calendar feed when the new role has none (D1 refuses it from now on), else null.
 */
export async function changeRole(
  { db, log, user: caller, regiao, push }: Pick<Ctx, 'db' | 'log' | 'user' | 'regiao' | 'push'>,
  id: string,
  input: { role: Role; empresa_id?: string | null },
): Promise<FeedRef | null> {
  const { role } = input;
  if (id === caller.id) throw new ApiError('FORBIDDEN', 'você não pode mudar o próprio perfil');
  const target = await findTarget(db, id);
  assertMayActOn(caller, target.role, role);
  const keepsCompany = input.empresa_id === undefined;
  if (role === 'EVENT_OWNER' && (keepsCompany ? !target.empresaId : !input.empresa_id)) throw ownerWithoutCompany();
  await assertRefsInRegion({ db, regiao }, [
    {
      field: 'empresa_id',
      table: empresas,
      id: input.empresa_id,
      message: 'empresa_id: empresa não encontrada nesta região',
    },
  ]);
  const set = keepsCompany ? { role } : { role, empresaId: input.empresa_id ?? null };
  // The company the account keeps must still be there when the update runs (not only when it was read).
  const guard = and(
    eq(users.id, id),
    role === 'SUPERADMIN' ? undefined : notLastSuperadmin,
    role === 'EVENT_OWNER' && keepsCompany ? isNotNull(users.empresaId) : undefined,
  );
  const roleChanges = sql`${users.role} <> ${role}`;
  const changes = keepsCompany ? roleChanges : or(roleChanges, sql`${users.empresaId} is not ${set.empresaId}`);
  // Told only of a real change of role that the guard lets through, judged before the update in the
  // same batch: a repeated request finds the role already set and tells nobody again.
  const notes = prepareNotifications(
    db,
    target.role === role
      ? []
      : [
          {
            userId: id,
            tipo: 'papel_alterado',
            titulo: 'Papel alterado',
            mensagem: `Seu papel agora é ${role}.`,
            dados: { role, anterior: target.role },
          },
        ],
    { when: sql`exists (select 1 from ${users} where ${and(guard, roleChanges)})` },
  );
  // Logged only for a real change that the guard lets through (the entry's own statement checks both).
  const entry = logRowWrite(
    { db, log },
    { table: users, where: and(guard, changes) },
    {
      acao: 'users.role',
      entidade: 'users',
      dados: changed(users, set),
    },
  );
  const results = await db.batch([entry, ...notes.insert, db.update(users).set(set).where(guard)]);
  const res = results[results.length - 1]!;
  if (res.meta.changes === 0) {
    const now = await findTarget(db, id);
    if (role === 'EVENT_OWNER' && !now.empresaId) throw ownerWithoutCompany();
    throw new ApiError('CONFLICT', 'o último SUPERADMIN não pode perder o perfil');
  }
  if (notes.insert.length && results[1]!.meta.changes > 0) push(notes.push);
  return (CALENDAR_ROLES as readonly Role[]).includes(role) ? null : target.feed;
}
