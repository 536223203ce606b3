import { z } from '@hono/zod-openapi';
import { RoleSchema } from '../auth/auth.schemas';

export const UpdateRoleRequest = z.object({ role: RoleSchema }).openapi('updateRoleRequest');

export const CreatedUserResponse = z.object({ id: z.string(), message: z.string() }).openapi('createdUserResponse');

export { PendingUserSchema, RegisterRequest, UserSchema } from '../auth/auth.schemas';
