import { z } from '@hono/zod-openapi';
import { ROLES } from '../../db/schema';
import { email, optCep, optCpfCnpj, optStr, optUf, reqStr, senha, uuid } from '../../lib/fields';
import { ProfissionalSelfUpdate, ProfissionalSchema } from '../profissionais/profissionais.schemas';

export const RoleSchema = z.enum(ROLES).openapi('Role');

export const UserSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    phone: z.string().nullable(),
    role: RoleSchema,
    ativo: z.boolean().openapi({ description: 'false = pending approval' }),
    company_id: z.string().nullable(),
    company_name: z.string().nullable(),
    cpf_cnpj: z.string().nullable(),
    professional_type: z.string().nullable(),
    endereco: z.string().nullable(),
    cidade: z.string().nullable(),
    uf: z.string().nullable(),
    cep: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('userResponse');

export const PendingUserSchema = UserSchema.extend({ tipo_profissional: z.string().nullable() }).openapi('PendingUser');

export const RegisterRequest = z
  .object({
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
  })
  .openapi('registerRequest');

export const RegisterResponse = z
  .object({
    id: z.string(),
    access_token: z.string(),
    expires_at: z.string(),
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
  })
  .openapi('loginResponse');

export const RefreshRequest = z
  .object({ refresh_token: z.string().max(200).optional() })
  .openapi('refreshRequest', { description: 'The refresh token, or none to use the refresh_token cookie' });

export const RefreshResponse = z
  .object({ access_token: z.string(), expires_at: z.string(), refresh_token: z.string() })
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
    message: 'is required to change the password',
  })
  .openapi('updateMeRequest');
