import { createMiddleware } from 'hono/factory';
import { ADMIN_ROLES, type Role } from '../db/schema';
import type { AppEnv } from '../env';
import { ApiError } from '../lib/errors';
import { isAdmin, mayAgenda, type AgendaAction } from '../lib/permissions';
import type { UserCheck } from '../lib/tokens';
import { checkUser } from './folded';

/** A role rule as middleware: runs after `auth()`, folded or not (see checkUser). */
const allow = (check: UserCheck) =>
  createMiddleware<AppEnv>(async (c, next) => {
    await checkUser(c, check);
    await next();
  });

/** 403 unless the authenticated user holds one of the roles. */
export const requireRole = (...roles: readonly Role[]) =>
  allow(({ role, ativo }) => {
    if (!roles.includes(role)) throw new ApiError('FORBIDDEN', 'seu perfil não pode usar esta rota');
    // Pending accounts get this far only where auth({ allowPending }) lets them (their own profile,
    // docs/decisions.md#d4): an administrator role given before the approval must not act there as one.
    if (!ativo && isAdmin(role))
      throw new ApiError('ACCOUNT_PENDING', 'conta aguardando aprovação de um administrador');
  });

export const requireAdmin = requireRole(...ADMIN_ROLES);

const AGENDA_VERBS: Record<AgendaAction, string> = {
  read: 'ler',
  create: 'criar',
  update: 'alterar',
  delete: 'excluir',
};

/** The agenda's role x action table (lib/permissions.ts) as a route rule. */
export const allowAgenda = (action: AgendaAction) =>
  allow(({ role }) => {
    if (!mayAgenda(role, action))
      throw new ApiError('FORBIDDEN', `seu perfil não pode ${AGENDA_VERBS[action]} eventos da agenda`);
  });
