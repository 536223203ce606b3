import { z } from '@hono/zod-openapi';
import { uuid } from '../../lib/fields';
import { RoleSchema } from './auth.schemas';

export const UpdateRoleRequest = z
  .object({
    role: RoleSchema,
    empresa_id: uuid().nullish().openapi({
      description:
        "The account's company, of the x-regiao region (absent: unchanged; null: none). An EVENT_OWNER must end up with one.",
    }),
  })
  .openapi('updateRoleRequest');

export const CreatedUserResponse = z
  .object({ id: z.string().openapi({ format: 'uuid' }), message: z.string() })
  .openapi('createdUserResponse');

export { CreateUserRequest, PendingUserSchema, UserSchema } from './auth.schemas';
