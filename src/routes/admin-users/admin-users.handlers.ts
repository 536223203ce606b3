import type { RouteHandler } from '@hono/zod-openapi';
import { and, asc, eq, getTableColumns, sql, count, type SQL } from 'drizzle-orm';
import { empresas, users, type Role } from '../../db/schema';
import type { AppEnv } from '../../env';
import type { AuthUser } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { hashPassword } from '../../lib/password';
import { pageBounds, setTotal, type Page } from '../../lib/pagination';
import { inBackground } from '../../lib/background';
import { isAdmin } from '../../lib/permissions';
import { enqueuePush, prepareNotifications } from '../../services/notifications';
import {
  adminProfileStatements,
  approveProfile,
  deletePendingProfile,
  assertCompany,
  notLastSuperadmin,
  toUserResponse,
  userValues,
} from '../../services/users';
import type * as r from './admin-users.routes';
import { resendAccessInvitation } from '../../services/password-reset';
import { changed, created, deleted, logRowWrite, logStatement } from '../../services/activity-log';
import { logCtx, mailOf } from '../route';
import type { Db } from '../../db/client';

const { senhaHash: _h, ...userColumns } = getTableColumns(users);

const selectUsers = (db: Db) =>
  db
    .select({ user: userColumns, companyName: sql<string | null>`${empresas.label}`.as('company_name') })
    .from(users)
    .leftJoin(empresas, eq(empresas.id, users.empresaId));

/** SUPERADMIN accounts and the SUPERADMIN role are touched only by a SUPERADMIN (docs/decisions.md#d4). */
function assertMayTouch(caller: AuthUser, targetRole: Role, newRole?: Role) {
  if (caller.role === 'SUPERADMIN') return;
  if (targetRole === 'SUPERADMIN' || newRole === 'SUPERADMIN') {
    throw new ApiError('FORBIDDEN', 'only a SUPERADMIN may create, change or delete a SUPERADMIN');
  }
}

async function findTarget(db: Db, id: string) {
  const [target] = await db.select({ id: users.id, role: users.role }).from(users).where(eq(users.id, id));
  if (!target) throw new ApiError('NOT_FOUND', 'user not found');
  return target;
}

/** A page of users matching `where` and their total, in one round trip. */
async function pageOfUsers(c: { var: AppEnv['Variables'] }, where: SQL | undefined, order: SQL[], page: Page) {
  const { db } = c.var;
  const { limit, offset } = pageBounds(page);
  const [rows, [total]] = await db.batch([
    selectUsers(db)
      .where(where)
      .orderBy(...order)
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(users).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

export const list: RouteHandler<typeof r.list, AppEnv> = async (c) => {
  const { rows, total } = await pageOfUsers(c, undefined, [asc(users.nome), asc(users.id)], c.req.valid('query'));
  setTotal(c, total);
  return c.json(
    rows.map((row) => toUserResponse(row.user, row.companyName)),
    200,
  );
};

export const pending: RouteHandler<typeof r.pending, AppEnv> = async (c) => {
  const { rows, total } = await pageOfUsers(
    c,
    eq(users.ativo, false),
    [asc(users.createdAt), asc(users.id)],
    c.req.valid('query'),
  );
  setTotal(c, total);
  return c.json(
    rows.map((row) => ({ ...toUserResponse(row.user, row.companyName), tipo_profissional: row.user.professionalType })),
    200,
  );
};

export const get: RouteHandler<typeof r.get, AppEnv> = async (c) => {
  const [row] = await selectUsers(c.var.db).where(eq(users.id, c.req.valid('param').id));
  if (!row) throw new ApiError('NOT_FOUND', 'user not found');
  return c.json(toUserResponse(row.user, row.companyName), 200);
};

export const create: RouteHandler<typeof r.create, AppEnv> = async (c) => {
  const input = c.req.valid('json');
  const { db, user, regiao } = c.var;
  assertMayTouch(user, input.role);
  await assertCompany(db, input.role, input.empresa_id);
  const values = userValues(input, await hashPassword(input.senha), true);
  const entry = logStatement(db, logCtx(c), {
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
  return c.json({ id: values.id, message: 'user created' }, 201);
};

export const remove: RouteHandler<typeof r.remove, AppEnv> = async (c) => {
  const { db, user } = c.var;
  const { id } = c.req.valid('param');
  if (id === user.id) throw new ApiError('FORBIDDEN', 'you cannot delete your own account');
  const target = await findTarget(db, id);
  assertMayTouch(user, target.role);
  const where = and(eq(users.id, id), notLastSuperadmin);
  const [, , res] = await db.batch([
    deletePendingProfile(db, id),
    logRowWrite(db, logCtx(c), users, where, { acao: 'users.delete', entidade: 'users', dados: deleted(users) }),
    db.delete(users).where(where),
  ]);
  if (res.meta.changes === 0) throw new ApiError('CONFLICT', 'the last SUPERADMIN cannot be deleted');
  return c.json({ message: 'user deleted' }, 200);
};

export const approve: RouteHandler<typeof r.approve, AppEnv> = async (c) => {
  const { db, user } = c.var;
  const { id } = c.req.valid('param');
  // Activating a SUPERADMIN account is touching a SUPERADMIN (docs/decisions.md#d4): checked in the statements.
  const mayTouch = user.role === 'SUPERADMIN' ? sql`1` : sql`${users.role} <> 'SUPERADMIN'`;
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
    logRowWrite(db, logCtx(c), users, and(where, eq(users.ativo, false)), {
      acao: 'users.approve',
      entidade: 'users',
      dados: changed(users, { ativo: true }),
    }),
    db.update(users).set({ ativo: true }).where(where),
    approveProfile(db, id),
  ]);
  if (res.meta.changes === 0) {
    await findTarget(db, id); // 404 when there is no such user
    throw new ApiError('FORBIDDEN', 'only a SUPERADMIN may create, change or delete a SUPERADMIN');
  }
  if (inserted.meta.changes > 0) enqueuePush(c.env.PUSH_QUEUE, inBackground(c), notes.push);
  return c.json({ message: 'user approved' }, 200);
};

export const changeRole: RouteHandler<typeof r.changeRole, AppEnv> = async (c) => {
  const { db, user } = c.var;
  const { id } = c.req.valid('param');
  const { role } = c.req.valid('json');
  if (id === user.id) throw new ApiError('FORBIDDEN', 'you cannot change your own role');
  const target = await findTarget(db, id);
  assertMayTouch(user, target.role, role);
  const guard = role === 'SUPERADMIN' ? eq(users.id, id) : and(eq(users.id, id), notLastSuperadmin);
  // Told only of a real change, and only if the guarded update went through (checked in the batch).
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
    { when: sql`exists (select 1 from ${users} where ${users.id} = ${id} and ${users.role} = ${role})` },
  );
  // Logged only for a real change that the guard lets through (the entry's own statement checks both).
  const entry = logRowWrite(db, logCtx(c), users, and(guard, sql`${users.role} <> ${role}`), {
    acao: 'users.role',
    entidade: 'users',
    dados: changed(users, { role }),
  });
  const [, res] = await db.batch([entry, db.update(users).set({ role }).where(guard), ...notes.insert]);
  if (res.meta.changes === 0) throw new ApiError('CONFLICT', 'the last SUPERADMIN cannot be demoted');
  enqueuePush(c.env.PUSH_QUEUE, inBackground(c), notes.push);
  return c.json({ message: `role changed to ${role}` }, 200);
};

export const accessInvitation: RouteHandler<typeof r.accessInvitation, AppEnv> = async (c) => {
  const { db, config } = c.var;
  const outboxId = await resendAccessInvitation(db, config, c.req.valid('param').id, new Date(), logCtx(c));
  mailOf(c)([outboxId]);
  return c.json({ message: 'access invitation queued' }, 202);
};
