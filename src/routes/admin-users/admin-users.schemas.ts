import { z } from '@hono/zod-openapi';
import { RoleSchema } from '../auth/auth.schemas';

export const UpdateRoleRequest = z.object({ role: RoleSchema }).openapi('updateRoleRequest');

export const CreatedUserResponse = z
  .object({ id: z.string().openapi({ format: 'uuid' }), message: z.string() })
  .openapi('createdUserResponse');

export { CreateUserRequest, PendingUserSchema, UserSchema } from '../auth/auth.schemas';
