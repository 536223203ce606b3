import { createMiddleware } from 'hono/factory';
import { ADMIN_ROLES, type Role } from '../db/schema';
import type { AppEnv } from '../env';
import { ApiError } from '../lib/errors';

/** 403 unless the authenticated user holds one of the roles. Runs after `auth()`. */
export const requireRole = (...roles: readonly Role[]) =>
  createMiddleware<AppEnv>(async (c, next) => {
    if (!roles.includes(c.var.user.role)) {
      throw new ApiError('FORBIDDEN', 'your role may not use this route');
    }
    await next();
  });

export const requireAdmin = requireRole(...ADMIN_ROLES);

export const isAdmin = (role: Role) => (ADMIN_ROLES as readonly Role[]).includes(role);
