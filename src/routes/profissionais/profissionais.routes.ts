import { createRoute, z } from '@hono/zod-openapi';
import { ADMIN_ROLES } from '../../db/schema';
import { auth } from '../../middleware/auth';
import { region } from '../../middleware/region';
import { requireAdmin, requireRole } from '../../middleware/require-role';
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
  ContagemSchema,
  CreateProfissionalInput,
  ProfissionalSchema,
  UpdateProfissionalInput,
} from './profissionais.schemas';

const tags = ['Professionals'];
const adminOrSelf = [auth(), requireRole(...ADMIN_ROLES, 'profissional'), region];
const adminOrSelfRead = [auth({ fold: true }), requireRole(...ADMIN_ROLES, 'profissional'), region];

export const list = createRoute({
  method: 'get',
  path: '/',
  tags,
  security: bearer,
  middleware: adminOrSelfRead,
  summary: "The region's professionals by name (a professional sees its own profile only)",
  request: { headers: RegionHeader, query: PageQuery },
  responses: { 200: listResponse(ProfissionalSchema, 'Professionals'), ...protectedErrors },
});

export const contagem = createRoute({
  method: 'get',
  path: '/contagem',
  tags,
  security: bearer,
  middleware: [auth({ fold: true }), requireAdmin, region],
  summary: 'Head count per function in the region (a professional counts once under each function it holds)',
  request: { headers: RegionHeader },
  responses: { 200: jsonResponse(z.array(ContagemSchema), 'Head count per function'), ...protectedErrors },
});

export const get = createRoute({
  method: 'get',
  path: '/{id}',
  tags,
  security: bearer,
  middleware: adminOrSelfRead,
  summary: 'One professional',
  request: { headers: RegionHeader, params: IdParam },
  responses: { 200: jsonResponse(ProfissionalSchema, 'The professional'), 404: errors[404], ...protectedErrors },
});

export const create = createRoute({
  method: 'post',
  path: '/',
  tags,
  security: bearer,
  // A pending `profissional` may create its own profile once, right after registering (decisions D4).
  middleware: [auth({ allowPending: true }), requireRole(...ADMIN_ROLES, 'profissional'), region],
  summary: "Create a professional (administrators: with email + senha also its active login) or one's own profile",
  description:
    'Administrators create any profile; with `email` and `senha` the linked user (role profissional, active) is created in the same atomic write (a taken e-mail creates nothing: 400 EMAIL_TAKEN). A user with role profissional, even pending, creates its own profile once (linked to itself; ratings and email ignored; a second one is 409 CONFLICT).',
  request: { headers: RegionHeader, body: jsonBody(CreateProfissionalInput) },
  responses: {
    201: jsonResponse(ProfissionalSchema, 'Created'),
    404: errors[404],
    409: errors[409],
    413: errors[413],
    ...protectedErrors,
  },
});

export const update = createRoute({
  method: 'put',
  path: '/{id}',
  tags,
  security: bearer,
  middleware: adminOrSelf,
  summary: 'Change the fields sent (a professional: its own profile, without ratings)',
  request: { headers: RegionHeader, params: IdParam, body: jsonBody(UpdateProfissionalInput) },
  responses: {
    200: jsonResponse(ProfissionalSchema, 'Updated'),
    404: errors[404],
    413: errors[413],
    ...protectedErrors,
  },
});

export const remove = createRoute({
  method: 'delete',
  path: '/{id}',
  tags,
  security: bearer,
  middleware: [auth(), requireAdmin, region],
  summary: 'Delete a professional and its linked user (sessions included), atomically',
  request: { headers: RegionHeader, params: IdParam },
  responses: { 200: jsonResponse(MessageSchema, 'Deleted'), 404: errors[404], 409: errors[409], ...protectedErrors },
});
