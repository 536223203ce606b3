import { createRoute } from '@hono/zod-openapi';
import { auth } from '../../middleware/auth';
import { region } from '../../middleware/region';
import { requireAdmin } from '../../middleware/require-role';
import { listResponse, PageQuery } from '../../lib/pagination';
import {
  bearer,
  errors,
  IdParam,
  jsonBody,
  jsonResponse,
  MessageSchema,
  protectedErrors,
  RegionHeader,
} from '../../lib/validation';
import {
  CreatedUserResponse,
  PendingUserSchema,
  RegisterRequest,
  UpdateRoleRequest,
  UserSchema,
} from './admin-users.schemas';

const tags = ['Administration'];
const middleware = [auth(), requireAdmin];

export const list = createRoute({
  method: 'get',
  path: '/',
  tags,
  security: bearer,
  middleware,
  summary: 'Every user account',
  request: { query: PageQuery },
  responses: { 200: listResponse(UserSchema, 'Users by name'), ...protectedErrors },
});

export const pending = createRoute({
  method: 'get',
  path: '/pending',
  tags,
  security: bearer,
  middleware,
  summary: 'Accounts waiting for approval (ativo=false), oldest first',
  request: { query: PageQuery },
  responses: { 200: listResponse(PendingUserSchema, 'Pending users'), ...protectedErrors },
});

export const get = createRoute({
  method: 'get',
  path: '/{id}',
  tags,
  security: bearer,
  middleware,
  summary: 'One user',
  request: { params: IdParam },
  responses: { 200: jsonResponse(UserSchema, 'The user'), 404: errors[404], ...protectedErrors },
});

export const create = createRoute({
  method: 'post',
  path: '/',
  tags,
  security: bearer,
  middleware: [auth(), requireAdmin, region],
  summary: 'Create an active account (administrator roles also get a professional profile)',
  description:
    'Only a SUPERADMIN may create a SUPERADMIN. An administrator-role user gets the unlinked professional profile with the same e-mail, or a new one in the x-regiao region.',
  request: { headers: RegionHeader, body: jsonBody(RegisterRequest) },
  responses: { 201: jsonResponse(CreatedUserResponse, 'Created'), 413: errors[413], ...protectedErrors },
});

export const remove = createRoute({
  method: 'delete',
  path: '/{id}',
  tags,
  security: bearer,
  middleware,
  summary: 'Delete an account (its sessions end; its professional profile stays, unlinked)',
  description:
    'Nobody deletes themselves; only a SUPERADMIN deletes a SUPERADMIN; the last SUPERADMIN cannot be deleted.',
  request: { params: IdParam },
  responses: { 200: jsonResponse(MessageSchema, 'Deleted'), 404: errors[404], 409: errors[409], ...protectedErrors },
});

export const approve = createRoute({
  method: 'patch',
  path: '/{id}/approve',
  tags,
  security: bearer,
  middleware,
  summary: 'Approve a pending account (ativo=true)',
  request: { params: IdParam },
  responses: { 200: jsonResponse(MessageSchema, 'Approved'), 404: errors[404], ...protectedErrors },
});

export const changeRole = createRoute({
  method: 'patch',
  path: '/{id}/role',
  tags,
  security: bearer,
  middleware,
  summary: 'Change the role of an account',
  description:
    'Nobody changes their own role; only a SUPERADMIN promotes to or demotes from SUPERADMIN; the last SUPERADMIN keeps the role.',
  request: { params: IdParam, body: jsonBody(UpdateRoleRequest) },
  responses: {
    200: jsonResponse(MessageSchema, 'Role changed'),
    404: errors[404],
    409: errors[409],
    413: errors[413],
    ...protectedErrors,
  },
});
