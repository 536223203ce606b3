import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { empresas } from './catalogs';
import { timestamps, uuidPk } from './columns';

export const ROLES = [
  'SUPERADMIN',
  'BUSINESS_OWNER',
  'EVENT_OWNER',
  'RESEARCHER',
  'agenda_viewer',
  'profissional',
] as const;
export type Role = (typeof ROLES)[number];
export const ADMIN_ROLES = ['SUPERADMIN', 'BUSINESS_OWNER'] as const satisfies readonly Role[];

export const users = sqliteTable(
  'users',
  {
    id: uuidPk(),
    nome: text('nome').notNull(),
    email: text('email').notNull().unique(),
    senhaHash: text('senha_hash').notNull(),
    telefone: text('telefone'),
    role: text('role', { enum: ROLES }).notNull(),
    ativo: integer('ativo', { mode: 'boolean' }).notNull().default(false),
    empresaId: text('empresa_id').references(() => empresas.id, { onDelete: 'restrict' }),
    cpfCnpj: text('cpf_cnpj'),
    professionalType: text('professional_type'),
    endereco: text('endereco'),
    cidade: text('cidade'),
    uf: text('uf'),
    cep: text('cep'),
    ...timestamps,
  },
  (t) => [
    // Accounts waiting for approval in the list's order (created_at, id): a page reads its own rows.
    index('users_ativo_created_idx').on(t.ativo, t.createdAt, t.id),
    // The administrators' list of accounts, by name: a page reads its own rows instead of sorting them all.
    index('users_nome_idx').on(t.nome, t.id),
    index('users_role_idx').on(t.role),
    index('users_empresa_idx').on(t.empresaId),
  ],
);

export type UserRow = typeof users.$inferSelect;

/** A user as requests see it: never the password hash. */
export type AuthUser = Omit<UserRow, 'senhaHash'>;
