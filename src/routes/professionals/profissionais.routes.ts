import { z } from '@hono/zod-openapi';
import { ADMIN_ROLES } from '../../db/schema';
import { requireAdmin, requireRole } from '../../middleware/require-role';
import { listResponse, PageQuery } from '../../lib/pagination';
import { errors, IdParam, jsonBody, jsonResponse, MessageSchema } from '../openapi';
import {
  ContagemSchema,
  CreateProfissionalInput,
  MinhasAvaliacoesSchema,
  ProfissionalComAvaliacaoSchema,
  ProfissionalSchema,
  UpdateProfissionalInput,
} from './profissionais.schemas';
import { authedRoute } from '../route';

const tags = ['Professionals'];

export const list = authedRoute({
  method: 'get',
  path: '/',
  tags,
  allow: requireRole(...ADMIN_ROLES, 'profissional'),
  fold: true,
  regional: true,
  summary: "The region's professionals by name (a professional sees its own profile only)",
  request: { query: PageQuery },
  responses: { 200: listResponse(ProfissionalComAvaliacaoSchema, 'Professionals, with their client ratings') },
});

export const contagem = authedRoute({
  method: 'get',
  path: '/contagem',
  tags,
  allow: requireAdmin,
  fold: true,
  regional: true,
  summary: 'Head count per function in the region (a professional counts once under each function it holds)',
  responses: { 200: jsonResponse(z.array(ContagemSchema), 'Head count per function') },
});

export const get = authedRoute({
  method: 'get',
  path: '/{id}',
  tags,
  allow: requireRole(...ADMIN_ROLES, 'profissional'),
  fold: true,
  regional: true,
  summary: 'One professional',
  request: { params: IdParam },
  responses: {
    200: jsonResponse(ProfissionalComAvaliacaoSchema, 'The professional, with its client ratings'),
    404: errors[404],
  },
});

export const create = authedRoute({
  method: 'post',
  path: '/',
  tags,
  // A pending `profissional` may create its own profile once, right after registering (docs/decisions.md#d4).
  allow: requireRole(...ADMIN_ROLES, 'profissional'),
  allowPending: true,
  regional: true,
  summary: "Create a professional (administrators: with email also its active login) or one's own profile",
  description:
    'Administrators create any profile; with `email` the linked user (role profissional, active) is created in the same atomic write (a taken e-mail creates nothing: 400 EMAIL_TAKEN): with `senha` it logs in with that password, without `senha` it gets an access invitation e-mail (`${APP_URL}/definir-senha?token=`, valid 7 days, redeemed with POST /auth/reset-password). Without `email` the profile has no login. A user with role profissional, even pending, creates its own profile once (linked to itself; ratings and email ignored; a second one is 409 CONFLICT).',
  request: { body: jsonBody(CreateProfissionalInput) },
  responses: {
    201: jsonResponse(ProfissionalSchema, 'Created'),
    404: errors[404],
    409: errors[409],
  },
});

export const update = authedRoute({
  method: 'put',
  path: '/{id}',
  tags,
  allow: requireRole(...ADMIN_ROLES, 'profissional'),
  regional: true,
  summary: 'Change the fields sent (a professional: its own profile, without ratings)',
  description:
    "A professional may not change its own `regime_fiscal` (403 FORBIDDEN; its stored value is accepted and ignored). When a professional changes its own PIX key or key type, it gets a `chave_pix_alterada` notification and e-mail and the region's administrators a notification, in the same atomic write.",
  request: { params: IdParam, body: jsonBody(UpdateProfissionalInput) },
  responses: {
    200: jsonResponse(ProfissionalSchema, 'Updated'),
    404: errors[404],
  },
});

export const remove = authedRoute({
  method: 'delete',
  path: '/{id}',
  tags,
  allow: requireAdmin,
  regional: true,
  summary: 'Delete a professional and its linked user (sessions included), atomically',
  request: { params: IdParam },
  responses: { 200: jsonResponse(MessageSchema, 'Deleted'), 404: errors[404], 409: errors[409] },
});

export const minhasAvaliacoes = authedRoute({
  method: 'get',
  path: '/avaliacoes',
  tags,
  allow: requireRole('profissional'),
  summary: "The caller's own client ratings from surveys (a professional with a profile)",
  description: 'No professional profile linked to the caller: 404.',
  responses: { 200: jsonResponse(MinhasAvaliacoesSchema, 'Own client ratings'), 404: errors[404] },
});
