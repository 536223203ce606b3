import { createMiddleware } from 'hono/factory';
import { ADMIN_ROLES, type Role } from '../db/schema';
import type { AppEnv } from '../env';
import { ApiError } from '../lib/errors';
import { checkUser } from './auth';

/** 403 unless the authenticated user holds one of the roles. Runs after `auth()`. */
export const requireRole = (...roles: readonly Role[]) =>
  createMiddleware<AppEnv>(async (c, next) => {
    await checkUser(c, ({ role, ativo }) => {
      if (!roles.includes(role)) throw new ApiError('FORBIDDEN', 'your role may not use this route');
      // Pending accounts get this far only where auth({ allowPending }) lets them (their own profile,
      // decisions D4): an administrator role given before the approval must not act there as one.
      if (!ativo && isAdmin(role))
        throw new ApiError('ACCOUNT_PENDING', 'account pending approval by an administrator');
    });
    await next();
  });

export const requireAdmin = requireRole(...ADMIN_ROLES);

export const isAdmin = (role: Role) => (ADMIN_ROLES as readonly Role[]).includes(role);
