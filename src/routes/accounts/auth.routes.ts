import { errors, jsonBody, jsonResponse, MessageSchema } from '../openapi';
import {
  LoginRequest,
  LoginResponse,
  RefreshRequest,
  RefreshResponse,
  RegisterRequest,
  RegisterResponse,
  UpdateMeRequest,
} from './auth.schemas';
import { authedRoute, publicRoute } from '../route';

const tags = ['Authentication'];

export const register = publicRoute({
  method: 'post',
  path: '/auth/register',
  tags,
  summary: 'Self-registration; the account starts pending approval',
  description:
    'Roles EVENT_OWNER (needs empresa_id), RESEARCHER, agenda_viewer or profissional. The returned access token works only for GET /api/me and for creating the own professional profile until an administrator approves the account. At most 10 sign-ups per client (CF-Connecting-IP) in 15 minutes.',
  request: { body: jsonBody(RegisterRequest) },
  responses: {
    201: jsonResponse(RegisterResponse, 'Registered (pending); cookies access_token and refresh_token are set'),
    429: errors[429],
  },
});

export const login = publicRoute({
  method: 'post',
  path: '/auth/login',
  tags,
  summary: 'Log in with e-mail and senha',
  request: { body: jsonBody(LoginRequest) },
  responses: {
    200: jsonResponse(LoginResponse, 'Logged in; cookies access_token and refresh_token are set'),
    401: errors[401],
    429: errors[429],
  },
});

export const refresh = publicRoute({
  method: 'post',
  path: '/auth/refresh',
  tags,
  summary: 'Exchange a refresh token (body or cookie) for new tokens; the old one is spent',
  request: { body: { required: false, content: { 'application/json': { schema: RefreshRequest } } } },
  responses: {
    200: jsonResponse(RefreshResponse, 'New access and refresh tokens; cookies are set'),
    401: errors[401],
    403: errors[403],
  },
});

export const logout = publicRoute({
  method: 'post',
  path: '/auth/logout',
  tags,
  summary: 'Revoke the refresh token (body or cookie) and clear both cookies',
  request: { body: { required: false, content: { 'application/json': { schema: RefreshRequest } } } },
  // 403: a cookie-authenticated logout from a foreign Origin (decisions D12).
  responses: { 200: jsonResponse(MessageSchema, 'Logged out'), 403: errors[403] },
});

const getMeDef = {
  method: 'get',
  tags,
  summary: 'The current user and linked professional profile (no new token)',
  allowPending: true,
  fold: true,
  responses: { 200: jsonResponse(LoginResponse, 'The current account') },
} as const;

export const getMe = authedRoute({ ...getMeDef, path: '/api/me' });

const updateMeDef = {
  method: 'put',
  tags,
  summary: 'Change own nome, telefone, password (senha_atual + nova_senha) and profile fields',
  description:
    "Changing the password ends every session of the user (refresh and access tokens) and starts a new one (new tokens in the answer and cookies). A wrong senha_atual counts as a failed login (429 past the login limits). In `profissional`, a non-administrator may not change `regime_fiscal` (403 FORBIDDEN; its stored value is accepted and ignored), and a change of `conta_pix`/`tipo_chave_pix` is told to the user (a `chave_pix_alterada` notification and e-mail) and to the region's administrators (a notification), in the same atomic write.",
  request: { body: jsonBody(UpdateMeRequest) },
  responses: {
    200: jsonResponse(LoginResponse, 'The updated account'),
    429: errors[429],
  },
} as const;

export const updateMe = authedRoute({ ...updateMeDef, path: '/api/me' });

// The same two operations under /api/users/me, which older frontends call (docs/decisions.md#d14).
export const getUsersMe = authedRoute({
  ...getMeDef,
  path: '/api/users/me',
  summary: `${getMeDef.summary}; the same as GET /api/me`,
});
export const updateUsersMe = authedRoute({
  ...updateMeDef,
  path: '/api/users/me',
  summary: `${updateMeDef.summary}; the same as PUT /api/me`,
});
