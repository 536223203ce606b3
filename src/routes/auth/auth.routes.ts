import { createRoute } from '@hono/zod-openapi';
import { auth } from '../../middleware/auth';
import { bearer, errors, jsonBody, jsonResponse, MessageSchema } from '../../lib/validation';
import {
  LoginRequest,
  LoginResponse,
  RefreshRequest,
  RefreshResponse,
  RegisterRequest,
  RegisterResponse,
  UpdateMeRequest,
} from './auth.schemas';

const tags = ['Authentication'];

export const register = createRoute({
  method: 'post',
  path: '/auth/register',
  tags,
  summary: 'Self-registration; the account starts pending approval',
  description:
    'Roles EVENT_OWNER (needs empresa_id), RESEARCHER, agenda_viewer or profissional. The returned access token works only for GET /api/me and for creating the own professional profile until an administrator approves the account.',
  request: { body: jsonBody(RegisterRequest) },
  responses: {
    201: jsonResponse(RegisterResponse, 'Registered (pending); cookies access_token and refresh_token are set'),
    400: errors[400],
    413: errors[413],
    500: errors[500],
  },
});

export const login = createRoute({
  method: 'post',
  path: '/auth/login',
  tags,
  summary: 'Log in with e-mail and senha',
  request: { body: jsonBody(LoginRequest) },
  responses: {
    200: jsonResponse(LoginResponse, 'Logged in; cookies access_token and refresh_token are set'),
    400: errors[400],
    401: errors[401],
    429: errors[429],
    500: errors[500],
  },
});

export const refresh = createRoute({
  method: 'post',
  path: '/auth/refresh',
  tags,
  summary: 'Exchange a refresh token (body or cookie) for new tokens; the old one is spent',
  request: { body: { required: false, content: { 'application/json': { schema: RefreshRequest } } } },
  responses: {
    200: jsonResponse(RefreshResponse, 'New access and refresh tokens; cookies are set'),
    400: errors[400],
    401: errors[401],
    403: errors[403],
    500: errors[500],
  },
});

export const logout = createRoute({
  method: 'post',
  path: '/auth/logout',
  tags,
  summary: 'Revoke the refresh token (body or cookie) and clear both cookies',
  request: { body: { required: false, content: { 'application/json': { schema: RefreshRequest } } } },
  responses: { 200: jsonResponse(MessageSchema, 'Logged out'), 400: errors[400], 500: errors[500] },
});

export const getMe = createRoute({
  method: 'get',
  path: '/api/me',
  tags,
  summary: 'The current user and linked professional profile (no new token)',
  middleware: [auth({ allowPending: true, withAccount: true })],
  security: bearer,
  responses: { 200: jsonResponse(LoginResponse, 'The current account'), 401: errors[401], 500: errors[500] },
});

export const updateMe = createRoute({
  method: 'put',
  path: '/api/me',
  tags,
  summary: 'Change own nome, telefone, password (senha_atual + nova_senha) and profile fields',
  description:
    'Changing the password revokes every refresh token of the user and starts a new session (new tokens in the answer and cookies).',
  middleware: [auth()],
  security: bearer,
  request: { body: jsonBody(UpdateMeRequest) },
  responses: {
    200: jsonResponse(LoginResponse, 'The updated account'),
    400: errors[400],
    401: errors[401],
    403: errors[403],
    413: errors[413],
    500: errors[500],
  },
});
