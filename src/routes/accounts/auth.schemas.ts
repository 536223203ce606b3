import { CanaisSchema } from './canais.schemas';
import { z } from '@hono/zod-openapi';
import { ADMIN_ROLES, ROLES, type Role } from '../../db/schema';
import { afterFields, email, optCep, optCpfCnpj, optStr, optUf, reqStr, senha, uuid } from '../../lib/fields';
import { out } from '../openapi';
import { ProfissionalSelfUpdate, ProfissionalSchema } from '../professionals/profissionais.schemas';

export const RoleSchema = z.enum(ROLES).openapi('Role');

export const UserSchema = z
  .object({
    id: out.id(),
    name: z.string(),
    email: z.string().openapi({ format: 'email' }),
    phone: z.string().nullable(),
    role: RoleSchema,
    ativo: z.boolean().openapi({ description: 'false = pending approval' }),
    company_id: out.id().nullable(),
    company_name: z.string().nullable(),
    cpf_cnpj: z.string().nullable(),
    professional_type: z.string().nullable(),
    endereco: z.string().nullable(),
    cidade: z.string().nullable(),
    uf: out.ufOrNull(),
    cep: z.string().nullable(),
    created_at: out.timestamp(),
    updated_at: out.timestamp(),
  })
  .openapi('userResponse');

export const PendingUserSchema = UserSchema.extend({ tipo_profissional: z.string().nullable() }).openapi('PendingUser');

/** The roles a client may register with: administrator roles are 400 ROLE_NOT_ALLOWED. */
export const SELF_REGISTER_ROLES = ROLES.filter((r) => !(ADMIN_ROLES as readonly Role[]).includes(r));

const userFields = {
  email: email(),
  senha: senha(),
  nome: reqStr(120),
  role: RoleSchema,
  telefone: optStr(30),
  empresa_id: uuid().nullish().openapi({ description: 'required for role EVENT_OWNER' }),
  cpf_cnpj: optCpfCnpj(),
  professional_type: optStr(50),
  endereco: optStr(200),
  cidade: optStr(100),
  uf: optUf(),
  cep: optCep(),
};

/** POST /auth/register: the role is one of SELF_REGISTER_ROLES (the others are refused by the handler). */
export const RegisterRequest = z
  .object({
    ...userFields,
    // A schema of its own (not RoleSchema.openapi(...), which would change the shared Role component).
    role: z.enum(ROLES).openapi({
      enum: SELF_REGISTER_ROLES,
      description: 'administrator roles are refused (400 ROLE_NOT_ALLOWED)',
    }),
  })
  .openapi('registerRequest');

/** POST /api/admin/users: any role (only a SUPERADMIN may create a SUPERADMIN). */
export const CreateUserRequest = z.object(userFields).openapi('createUserRequest');

export const RegisterResponse = z
  .object({
    id: out.id(),
    access_token: z.string(),
    expires_at: out.timestamp(),
    refresh_token: z.string(),
    message: z.string(),
  })
  .openapi('registerResponse');

export const LoginRequest = z.object({ email: email(), senha: senha() }).openapi('loginRequest');

export const LoginResponse = z
  .object({
    access_token: z.string().openapi({ description: 'empty in GET/PUT /api/me' }),
    expires_at: z.string().openapi({ description: 'expiry of the access token (ISO-8601); empty in GET /api/me' }),
    refresh_token: z
      .string()
      .optional()
      .openapi({ description: 'also set as the HttpOnly cookie refresh_token (Path=/auth)' }),
    user: UserSchema,
    profissional: ProfissionalSchema.nullable(),
    canais: CanaisSchema,
  })
  .openapi('loginResponse');

export const RefreshRequest = z
  .object({ refresh_token: z.string().max(200).optional() })
  .openapi('refreshRequest', { description: 'The refresh token, or none to use the refresh_token cookie' });

export const RefreshResponse = z
  .object({ access_token: z.string(), expires_at: out.timestamp(), refresh_token: z.string() })
  .openapi('refreshResponse');

export const UpdateMeRequest = z
  .object({
    nome: reqStr(120).optional(),
    telefone: optStr(30),
    senha_atual: z.string().max(128).optional(),
    nova_senha: senha().optional(),
    profissional: ProfissionalSelfUpdate.optional().openapi({
      description: 'non-rating fields of the linked professional profile',
    }),
  })
  .refine((b) => b.nova_senha === undefined || b.senha_atual !== undefined, {
    path: ['senha_atual'],
    message: 'é obrigatório para trocar a senha',
    ...afterFields,
  })
  .openapi('updateMeRequest');
