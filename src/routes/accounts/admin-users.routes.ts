import { requireAdmin } from '../../middleware/require-role';
import { listResponse, PageQuery } from '../../lib/pagination';
import { errors, IdParam, jsonBody, jsonResponse, MessageSchema } from '../openapi';
import {
  CreatedUserResponse,
  CreateUserRequest,
  PendingUserSchema,
  UpdateRoleRequest,
  UserSchema,
} from './admin-users.schemas';
import { authedRoute } from '../route';

const tags = ['Administration'];

export const list = authedRoute({
  method: 'get',
  path: '/',
  tags,
  allow: requireAdmin,
  summary: 'Every user account',
  request: { query: PageQuery },
  responses: { 200: listResponse(UserSchema, 'Users by name') },
});

export const pending = authedRoute({
  method: 'get',
  path: '/pending',
  tags,
  allow: requireAdmin,
  summary: 'Accounts waiting for approval (ativo=false), oldest first',
  request: { query: PageQuery },
  responses: { 200: listResponse(PendingUserSchema, 'Pending users') },
});

export const get = authedRoute({
  method: 'get',
  path: '/{id}',
  tags,
  allow: requireAdmin,
  summary: 'One user',
  request: { params: IdParam },
  responses: { 200: jsonResponse(UserSchema, 'The user'), 404: errors[404] },
});

export const create = authedRoute({
  method: 'post',
  path: '/',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: 'Create an active account (administrator roles also get a professional profile)',
  description:
    'Only a SUPERADMIN may create a SUPERADMIN. An administrator-role user gets the unlinked professional profile with the same e-mail, or a new one in the x-regiao region.',
  request: { body: jsonBody(CreateUserRequest) },
  responses: { 201: jsonResponse(CreatedUserResponse, 'Created') },
});

export const remove = authedRoute({
  method: 'delete',
  path: '/{id}',
  tags,
  allow: requireAdmin,
  summary: 'Delete an account (its sessions end; its professional profile stays, unlinked)',
  description:
    'Nobody deletes themselves; only a SUPERADMIN deletes a SUPERADMIN; the last SUPERADMIN cannot be deleted.',
  request: { params: IdParam },
  responses: { 200: jsonResponse(MessageSchema, 'Deleted'), 404: errors[404], 409: errors[409] },
});

export const approve = authedRoute({
  method: 'patch',
  path: '/{id}/approve',
  tags,
  allow: requireAdmin,
  summary: 'Approve a pending account (ativo=true)',
  request: { params: IdParam },
  responses: { 200: jsonResponse(MessageSchema, 'Approved'), 404: errors[404] },
});

export const changeRole = authedRoute({
  method: 'patch',
  path: '/{id}/role',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: 'Change the role of an account (and its company)',
  description:
    'Nobody changes their own role; only a SUPERADMIN promotes to or demotes from SUPERADMIN; the last SUPERADMIN keeps the role. ' +
    'An EVENT_OWNER belongs to a company, as at sign-up: without `empresa_id` the account must already have one (400 naming `empresa_id` otherwise); ' +
    '`empresa_id` must be a company of the x-regiao region (404 otherwise).',
  request: { params: IdParam, body: jsonBody(UpdateRoleRequest) },
  responses: {
    200: jsonResponse(MessageSchema, 'Role changed'),
    404: errors[404],
    409: errors[409],
  },
});

export const accessInvitation = authedRoute({
  method: 'post',
  path: '/{id}/convite-acesso',
  tags,
  allow: requireAdmin,
  summary: 'E-mail the user a new access invitation (a /definir-senha link, valid 7 days)',
  description:
    'The link sets the password through POST /auth/reset-password. A new invitation voids the older links (and any pending reset link) of the user. Only a SUPERADMIN invites a SUPERADMIN (403 otherwise).',
  request: { params: IdParam },
  responses: { 202: jsonResponse(MessageSchema, 'Invitation queued'), 404: errors[404] },
});
