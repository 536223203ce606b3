import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { aliasedColumns } from '../../db/aliased';
import {
  empresas,
  funcoes,
  profissionais,
  users,
  type ProfissionalRow,
  type Role,
  type UserRow,
} from '../../db/schema';
import type { Db } from '../../db/client';
import { ApiError } from '../../lib/errors';
import type { AuthUser } from '../../db/schema';
import { cachedSelect } from '../../db/cached-batch';
import { liveSession } from '../../db/authored';
import { toProfissionalResponse } from './profile';
import { toCanais } from './canais';

export function toUserResponse(u: AuthUser, companyName: string | null) {
  return {
    id: u.id,
    name: u.nome,
    email: u.email,
    phone: u.telefone,
    role: u.role,
    ativo: u.ativo,
    company_id: u.empresaId,
    company_name: companyName,
    cpf_cnpj: u.cpfCnpj,
    professional_type: u.professionalType,
    endereco: u.endereco,
    cidade: u.cidade,
    uf: u.uf,
    cep: u.cep,
    created_at: u.createdAt,
    updated_at: u.updatedAt,
  };
}

const withoutHash = ({ senhaHash: _h, ...u }: UserRow): AuthUser => u;

/** A user with company name, linked profile and its function name: one query. */
export async function loadAccount(db: Db, where: SQL) {
  const [row] = await accountQuery(db, where);
  return row;
}

/** The query behind loadAccount, safe inside a batch (the profile's columns are aliased). */
export function accountQuery(db: Db, where: SQL) {
  return db
    .select({
      user: users,
      companyName: sql<string | null>`${empresas.label}`.as('company_name'),
      prof: aliasedColumns(profissionais, 'prof'),
      funcaoNome: sql<string | null>`${funcoes.label}`.as('funcao_nome'),
    })
    .from(users)
    .leftJoin(empresas, eq(empresas.id, users.empresaId))
    .leftJoin(profissionais, eq(profissionais.usuarioId, users.id))
    .leftJoin(funcoes, eq(funcoes.id, profissionais.funcaoProfissionalId))
    .where(where)
    .limit(1);
}

/** The account of an e-mail (login's first batch), its SQL built once per isolate (db/cached-batch.ts). */
const accountByEmailSelect = cachedSelect({
  params: ['email'],
  build: (db, _: undefined, p) => accountQuery(db, eq(users.email, p.email)),
});
export const accountByEmail = (db: Db, email: string) => accountByEmailSelect(db, undefined, { email });

/**
 * The caller's account for GET /api/me, cached (its SQL built once per shape: db/cached-batch.ts). `live`: only while
 * the token's session `sid` is live, so its `user` is the row the caller's check needs and a folded
 * GET /api/me is this one statement (middleware/folded.ts authorizedSelf); otherwise the user was
 * admitted already.
 */
const accountById = cachedSelect({
  params: ['id', 'sid'],
  build: (db, live: boolean, p) => accountQuery(db, and(eq(users.id, p.id), live ? liveSession(p.sid) : undefined)!),
});
export const accountSelect = (db: Db, id: string) => accountById(db, false, { id, sid: undefined });
export const accountSelectLive = (db: Db, id: string, sid: string) => accountById(db, true, { id, sid });

export type Account = NonNullable<Awaited<ReturnType<typeof loadAccount>>>;

/** The loginResponse body; tokens are empty where none is issued (GET /api/me). */
export function toLoginResponse(
  a: Account,
  tokens: { access_token: string; expires_at: string; refresh_token?: string },
) {
  return {
    ...tokens,
    user: toUserResponse(withoutHash(a.user), a.companyName),
    profissional: a.prof?.id
      ? toProfissionalResponse(a.prof as ProfissionalRow, { funcaoNome: a.funcaoNome, showPrivate: true })
      : null,
    // The channels consented (docs/decisions.md#d30): the linked profile's, none without one.
    canais: toCanais(a.prof?.id ? (a.prof as ProfissionalRow) : null),
  };
}

/**
 * EVENT_OWNER users belong to a company (docs/decisions.md#d4); others may name one too. An
 * administrator names a company of its x-regiao (`regiao`), as on the role change; a sign-up has no
 * region and names any.
 */
export async function assertCompany(
  db: Db,
  role: Role,
  { empresaId, regiao }: { empresaId: string | null | undefined; regiao?: string },
) {
  if (!empresaId) {
    if (role === 'EVENT_OWNER')
      throw new ApiError('VALIDATION_FAILED', 'empresa_id: é obrigatório para o perfil EVENT_OWNER');
    return;
  }
  const [hit] = await db
    .select({ id: empresas.id })
    .from(empresas)
    .where(and(eq(empresas.id, empresaId), regiao === undefined ? undefined : eq(empresas.regiao, regiao)))
    .limit(1);
  if (!hit)
    throw new ApiError(
      'VALIDATION_FAILED',
      regiao === undefined
        ? 'empresa_id: nenhuma empresa com este id'
        : 'empresa_id: empresa não encontrada nesta região',
    );
}

/** A new account's fields, as registration and the admin create route validate them. */
export interface RegisterInput {
  email: string;
  nome: string;
  role: Role;
  telefone?: string | null;
  empresa_id?: string | null;
  cpf_cnpj?: string | null;
  professional_type?: string | null;
  endereco?: string | null;
  cidade?: string | null;
  uf?: string | null;
  cep?: string | null;
}

export function userValues(input: RegisterInput, senhaHash: string, ativo: boolean) {
  return {
    id: crypto.randomUUID(),
    nome: input.nome,
    email: input.email,
    senhaHash,
    telefone: input.telefone ?? null,
    role: input.role,
    ativo,
    empresaId: input.empresa_id ?? null,
    cpfCnpj: input.cpf_cnpj ?? null,
    professionalType: input.professional_type ?? null,
    endereco: input.endereco ?? null,
    cidade: input.cidade ?? null,
    uf: input.uf ?? null,
    cep: input.cep ?? null,
  } satisfies typeof users.$inferInsert;
}

/**
 * An administrator gets a professional profile: the unlinked one with the same e-mail, or a new
 * one (the unique usuario_id makes the insert a no-op after a link). Run in the user insert's batch.
 * Only a profile an administrator created or whose owner was approved is linked (`aprovado`): a
 * sign-up's self-made profile, with whatever bank data it carries, never reaches an administrator.
 */
export function adminProfileStatements(
  db: Db,
  user: { id: string; nome: string; email: string },
  regiao: string,
): [BatchItem<'sqlite'>, BatchItem<'sqlite'>] {
  const link = db
    .update(profissionais)
    .set({ usuarioId: user.id })
    .where(
      eq(
        profissionais.id,
        // `+usuario_id`: SQLite would take `is null` to the unique index on usuario_id, where every
        // unlinked profile is; the e-mail's index finds the few profiles of this address.
        sql`(select ${profissionais.id} from ${profissionais} where ${profissionais.email} = ${user.email} and +${profissionais.usuarioId} is null and ${profissionais.aprovado} = 1 order by ${profissionais.createdAt} limit 1)`,
      ),
    );
  const create = db
    .insert(profissionais)
    .values({ regiao, usuarioId: user.id, email: user.email, nome: user.nome })
    .onConflictDoNothing({ target: profissionais.usuarioId });
  return [link, create];
}

/** Guards the last SUPERADMIN inside the statement itself, so two concurrent changes cannot both pass. */
export const notLastSuperadmin = sql`(${users.role} <> 'SUPERADMIN' or (select count(*) from ${users} where ${users.role} = 'SUPERADMIN') > 1)`;

/**
 * Only a SUPERADMIN acts on a SUPERADMIN account (creates, approves, changes the role of, deletes,
 * or sends an access invitation to one) or gives the SUPERADMIN role (docs/decisions.md#d4). The one
 * rule, in two forms: `assertMayActOn` for a target already read, `mayActOnRow` as a condition on the
 * target's `users` row for a statement that checks it itself (refused: `superadminOnly()`).
 */
export const superadminOnly = () =>
  new ApiError('FORBIDDEN', 'só um SUPERADMIN pode agir sobre uma conta SUPERADMIN ou dar esse papel');
export function assertMayActOn(caller: Pick<AuthUser, 'role'>, targetRole: Role | null, newRole?: Role) {
  if (caller.role !== 'SUPERADMIN' && (targetRole === 'SUPERADMIN' || newRole === 'SUPERADMIN')) throw superadminOnly();
}
export const mayActOnRow = (caller: Pick<AuthUser, 'role'>) =>
  caller.role === 'SUPERADMIN' ? sql`1` : sql`${users.role} <> 'SUPERADMIN'`;

/**
 * Rejecting a sign-up deletes what it created: the self-made profile of a still-pending account
 * (its functions cascade). Runs in the batch BEFORE the user delete (which would unlink it), guarded
 * by the same conditions as that delete, so the profile goes only if the account does.
 */
export const deletePendingProfile = (db: Db, userId: string) =>
  db
    .delete(profissionais)
    .where(
      and(
        eq(profissionais.usuarioId, userId),
        eq(profissionais.aprovado, false),
        sql`exists (select 1 from ${users} where ${users.id} = ${userId} and ${users.ativo} = 0 and ${notLastSuperadmin})`,
      ),
    );

/** Approving an account approves its profile too (then linkable, see adminProfileStatements). Batch it after the approval. */
export const approveProfile = (db: Db, userId: string) =>
  db
    .update(profissionais)
    .set({ aprovado: true })
    .where(
      and(
        eq(profissionais.usuarioId, userId),
        sql`exists (select 1 from ${users} where ${users.id} = ${userId} and ${users.ativo} = 1)`,
      ),
    );
