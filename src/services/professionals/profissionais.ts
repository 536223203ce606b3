import { and, asc, eq, inArray, isNull, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { Db } from '../../db/client';
import {
  calendarios,
  funcoes,
  profissionais,
  profissionalFuncoes,
  users,
  type AuthUser,
  type NotificationRow,
} from '../../db/schema';
import type { Placeholders } from '../../db/cached-batch';
import type { Scope, SqlScope } from '../../db/scope';
import { jsonRows } from '../../db/json-rows';
import { keptCountOf, keptOrCounted } from '../../db/kept-count';
import { scopedSelect } from '../../db/scoped-select';
import { writeThenRead } from '../../db/write-read';
import { ApiError } from '../../lib/errors';
import { isPaged, pageBounds, type Page } from '../../lib/pagination';
import { hashPassword } from '../../lib/password';
import { isAdmin } from '../../lib/permissions';
import { assertMayActOn, notLastSuperadmin } from '../accounts/users';
import { feedRefColumns, type FeedRef } from '../../db/schema/operacoes';
import { accessInvitation, unusablePasswordHash } from '../accounts/password-reset';
import { changed, created, loggedDelete, logRowWrite, logStatement } from '../core/activity-log';
import type { Ctx, QueryCtx } from '../core/context';
import { avaliacoesJson, toAvaliacao } from './avaliacoes';
import {
  toProfissionalResponse,
  profissionalColumns,
  withPixChecked,
  withoutOwnRegime,
  pixChangeNotices,
  pixOf,
  type PixNoticeCtx,
} from '../accounts/profile';

/** Every function a profile holds, by label, as a JSON column: a correlated subquery on its primary key. */
const heldFuncoes = (db: Db) =>
  jsonRows(
    db
      .select({ id: funcoes.id, nome: funcoes.label })
      .from(profissionalFuncoes)
      .innerJoin(funcoes, eq(funcoes.id, profissionalFuncoes.funcaoId))
      .where(eq(profissionalFuncoes.profissionalId, profissionais.id))
      .orderBy(asc(funcoes.labelKey)),
    'held',
  );

type Paging = { limit: number | Placeholder; offset: number | Placeholder };

/** The profiles select with `more` columns: its main function's name and every function it holds ride in its rows. */
function profilesSelect<More extends Record<string, SQL.Aliased>>(
  db: Db,
  where: SQL,
  { paging, more }: { paging: Paging | undefined; more: More },
) {
  const { limit, offset } = paging ?? pageBounds({});
  return db
    .select({
      p: profissionais,
      funcaoNome: sql<string | null>`${funcoes.label}`.as('funcao_nome'),
      funcoes: heldFuncoes(db).as('funcoes_json'),
      ...more,
    })
    .from(profissionais)
    .leftJoin(funcoes, eq(funcoes.id, profissionais.funcaoProfissionalId))
    .where(where)
    .orderBy(asc(profissionais.nome), asc(profissionais.id))
    .limit(limit)
    .offset(offset);
}

/** The query behind a profile view: profiles with the main function's name and every function they hold (`funcoes`). */
export const profissionaisQuery = (db: Db, where: SQL, paging?: Paging) =>
  profilesSelect(db, where, { paging, more: {} });

/**
 * The same with each profile's client ratings (services/professionals/avaliacoes.ts) in `avaliacoes`, as the list and
 * the by-id read answer them; the region mean they use is the profile's own region's.
 */
export const profissionaisComAvaliacaoQuery = (db: Db, where: SQL, paging?: Paging) =>
  profilesSelect(db, where, {
    paging,
    more: { avaliacoes: avaliacoesJson(db, profissionais.id, profissionais.regiao).as('avaliacoes_json') },
  });

/** Names of the given functions that exist in the region (to check references in the same round trip). */
export const funcoesInRegion = (db: Db, regiao: string, ids: string[]) =>
  db
    .select({ id: funcoes.id, nome: funcoes.label })
    .from(funcoes)
    .where(and(eq(funcoes.regiao, regiao), inArray(funcoes.id, ids)));

/** The profile fields a create or update may carry (wire names; validated by the route). */
export interface ProfissionalInput {
  nome?: string;
  email?: string | null;
  whatsapp?: string | null;
  funcao_profissional_id?: string | null;
  funcoes_ids?: string[];
  qual_tec?: number | null;
  educacao_simpatia?: number | null;
  desempenho_evento?: number | null;
  disp_horario?: number | null;
  [field: string]: unknown;
}

/** Fields only administrators may set: a professional's own writes drop them. */
export const adminOnlyFields = ['qual_tec', 'educacao_simpatia', 'desempenho_evento', 'disp_horario', 'email'] as const;
/**
 * On an update a professional also keeps its functions: they decide which events it can be invited to,
 * so only administrators change them (as PUT /api/me, whose schema has no function fields). Its own
 * profile's creation may still declare them: that profile is invisible until an administrator approves it.
 */
export const adminOnlyUpdateFields = [...adminOnlyFields, 'funcoes_ids', 'funcao_profissional_id'] as const;

/**
 * A profile is listed, counted and invitable unless its account is still pending (security review 8):
 * a self-registered professional's own profile stays out of sight until an administrator approves
 * the account. Profiles without a login (created by an administrator) are always listed.
 */
export const listedProfile = sql`(${profissionais.usuarioId} is null or exists (select 1 from ${users} where ${users.id} = ${profissionais.usuarioId} and ${users.ativo} = 1))`;

/** Administrators see the region; a professional only the profile linked to itself (docs/decisions.md#d4). */
export function visible(scope: SqlScope, regiao: string | Placeholder): SQL {
  const inRegion = eq(profissionais.regiao, regiao);
  return isAdmin(scope.role) ? inRegion : and(inRegion, eq(profissionais.usuarioId, scope.id))!;
}

const notFound = () => new ApiError('NOT_FOUND', 'profissional não encontrado');

/** A professional's own writes keep ratings and e-mail as they are. */
function allowedInput<T extends ProfissionalInput>(
  user: AuthUser,
  body: T,
  adminOnly: readonly string[] = adminOnlyFields,
): T {
  if (isAdmin(user.role)) return body;
  const copy = { ...body };
  for (const f of adminOnly) delete copy[f];
  return copy;
}

/**
 * The functions a professional holds: the ids sent plus the main one. A main function that is
 * cleared while others are sent becomes the first of them.
 */
function resolveFuncoes(body: ProfissionalInput, currentMain: string | null) {
  let main = body.funcao_profissional_id === undefined ? currentMain : body.funcao_profissional_id;
  if (!main && body.funcoes_ids?.length) main = body.funcoes_ids[0]!;
  const ids = body.funcoes_ids === undefined ? undefined : [...new Set([...(main ? [main] : []), ...body.funcoes_ids])];
  const toCheck = [...new Set([...(ids ?? []), ...(body.funcao_profissional_id ? [body.funcao_profissional_id] : [])])];
  return { main, ids, toCheck };
}

function assertFuncoesFound(found: { id: string; nome: string }[], wanted: string[], regiao: string) {
  const missing = wanted.find((id) => !found.some((f) => f.id === id));
  if (missing) throw new ApiError('NOT_FOUND', `funcoes_ids: função ${missing} não encontrada na região ${regiao}`);
}

type Writes = BatchItem<'sqlite'>[];

type ProfileRow = Awaited<ReturnType<typeof profissionaisQuery>>[number];
type RatedProfileRow = Awaited<ReturnType<typeof profissionaisComAvaliacaoQuery>>[number];

const present = (row: ProfileRow) =>
  toProfissionalResponse(row.p, { funcaoNome: row.funcaoNome, funcoes: row.funcoes, showPrivate: true });

/** A profile with its client ratings (`avaliacao_clientes`), as the list and the by-id read answer it. */
const presentRated = (row: RatedProfileRow) => ({ ...present(row), avaliacao_clientes: toAvaliacao(row.avaliacoes) });

function oneOf<R, T>(rows: R[], answer: (row: R) => T): T {
  const [row] = rows;
  if (!row) throw notFound();
  return answer(row);
}

/** The profile `id` as the caller may see it. */
const visibleProfile = ({ db, user, regiao }: ProfileCtx, id: string) =>
  profissionaisQuery(db, and(eq(profissionais.id, id), visible(user, regiao))!);

/** Runs the writes and reads the profile back in the same batch (one round trip). */
async function writeAndRead(ctx: ProfileCtx, writes: Writes, id: string) {
  const [rows] = await writeThenRead(ctx.db, writes, [visibleProfile(ctx, id)]);
  return oneOf(rows, present);
}

// The reads, cached per scope shape and paging (db/scoped-select.ts).
const scopeWhere = (scope: SqlScope, p: Placeholders<'regiao'>) => visible(scope, p.regiao);
// Lists and their totals leave out the profiles of pending accounts (by id they stay reachable to administrators).
const listWhere = (scope: SqlScope, p: Placeholders<'regiao'>) =>
  isAdmin(scope.role) ? and(scopeWhere(scope, p), listedProfile)! : scopeWhere(scope, p);
const LIST_PARAMS = ['regiao', 'limit', 'offset'] as const;
const listProfiles = scopedSelect({
  params: LIST_PARAMS,
  build: (db, scope, p, x: { paged: boolean }) =>
    profissionaisComAvaliacaoQuery(db, listWhere(scope, p), x.paged ? { limit: p.limit, offset: p.offset } : undefined),
});
// An administrator's total is the region's listed profiles, kept by triggers (drizzle/0025): one row.
const listCount = scopedSelect({
  params: LIST_PARAMS,
  build: (db, scope, p) =>
    keptOrCounted(
      db,
      { tabela: 'profissionais', regiao: p.regiao, dono: isAdmin(scope.role) ? '' : undefined },
      profissionais,
      listWhere(scope, p),
    ),
});
const oneProfile = scopedSelect({
  params: ['regiao', 'id'],
  build: (db, scope, p) => profissionaisComAvaliacaoQuery(db, and(eq(profissionais.id, p.id), scopeWhere(scope, p))!),
});

/**
 * A page of the profiles the caller may see (with the functions they hold and their client ratings,
 * in the same rows) and, paged, the total: one statement, two when paged.
 */
export function profissionaisListSelects({ db, regiao }: QueryCtx, scope: Scope, page: Page) {
  const x = { paged: isPaged(page) };
  const values = { regiao, ...pageBounds(page) };
  return [listProfiles(db, scope, values, x), ...(x.paged ? [listCount(db, scope, values)] : [])] as const;
}

export const profissionaisList = (profiles: RatedProfileRow[]) => profiles.map(presentRated);

/** One profile with its functions and client ratings: one statement. */
export const profissionalByIdSelects = ({ db, regiao }: QueryCtx, scope: Scope, id: string) =>
  [oneProfile(db, scope, { regiao, id })] as const;

export const profissionalOne = (profiles: RatedProfileRow[]) => oneOf(profiles, presentRated);

/**
 * Head count per function of the region (a listed professional counts once under each function it
 * holds): the count triggers keep per function (drizzle/0030), one row per function however many
 * hold it.
 */
export const contagemSelect = ({ db, regiao }: QueryCtx) =>
  db
    .select({ funcao_id: funcoes.id, funcao_nome: funcoes.label, total: keptCountOf('funcoes', '', funcoes.id) })
    .from(funcoes)
    .where(eq(funcoes.regiao, regiao))
    .orderBy(asc(funcoes.labelKey));

/** What the profile writes need of the request's context. */
type ProfileCtx = Pick<Ctx, 'db' | 'log' | 'user' | 'regiao'>;

/**
 * Administrators create any profile, and with `email` its active login in the same batch (team
 * registration): with `senha` that password; without one, a password nobody knows and an access
 * invitation e-mail (`/definir-senha`, 7 days: docs/decisions.md#d14), whose outbox id goes to
 * `ctx.mail` once the batch succeeded. A `profissional` creates its own profile once, linked to itself.
 */
export async function createProfissional(
  ctx: ProfileCtx & Pick<Ctx, 'config' | 'mail'>,
  input: ProfissionalInput & { senha?: string },
) {
  const { db, log, user, regiao } = ctx;
  const { senha, ...sent } = allowedInput(user, input);
  const body = withPixChecked(withoutOwnRegime(user, sent, 'mei'));
  const { main, ids, toCheck } = resolveFuncoes(body, null);
  if (toCheck.length) assertFuncoesFound(await funcoesInRegion(db, regiao, toCheck), toCheck, regiao);

  const id = crypto.randomUUID();
  // Its own profile is linked to the caller; an administrator's may come with a new login.
  const login = !isAdmin(user.role)
    ? { usuarioId: user.id, email: user.email, writes: [] }
    : body.email
      ? await teamLogin(ctx, { ...body, email: body.email }, senha)
      : { usuarioId: null, email: body.email ?? null, writes: [] };
  const values = {
    ...profissionalColumns(body),
    id,
    regiao,
    usuarioId: login.usuarioId,
    email: login.email,
    funcaoProfissionalId: main,
    nome: body.nome!,
    // A pending sign-up's own profile waits for the approval of the account (security review 2).
    aprovado: isAdmin(user.role) || user.ativo,
  };
  const held = ids ?? (main ? [main] : []);
  const writes: Writes = [
    ...login.writes,
    db.insert(profissionais).values(values),
    logStatement(db, log, {
      acao: 'profissionais.create',
      entidade: 'profissionais',
      entidadeId: id,
      regiao,
      dados: { ...created(profissionais, values), funcoes_ids: { depois: held } },
    }),
  ];
  if (held.length)
    writes.push(db.insert(profissionalFuncoes).values(held.map((funcaoId) => ({ profissionalId: id, funcaoId }))));
  const profile = await writeAndRead(ctx, writes, id);
  if ('invitation' in login && login.invitation) ctx.mail([login.invitation]);
  return profile;
}

/**
 * Team registration: the login of a profile an administrator creates, its statements to run with
 * the profile's (both exist together or not at all) and, without `senha`, the invitation's outbox id.
 */
async function teamLogin(
  ctx: ProfileCtx & Pick<Ctx, 'config'>,
  body: ProfissionalInput & { email: string },
  senha: string | undefined,
) {
  const { db, log } = ctx;
  const usuarioId = crypto.randomUUID();
  const login = {
    id: usuarioId,
    nome: body.nome!,
    email: body.email,
    senhaHash: senha !== undefined ? await hashPassword(senha) : await unusablePasswordHash(),
    role: 'profissional' as const,
    ativo: true,
    telefone: body.whatsapp ?? null,
  };
  const writes: Writes = [
    db.insert(users).values(login),
    logStatement(db, log, {
      acao: 'users.create',
      entidade: 'users',
      entidadeId: usuarioId,
      dados: created(users, login),
    }),
  ];
  if (senha !== undefined) return { usuarioId, email: body.email, writes };
  const invite = await accessInvitation(ctx, usuarioId, { now: new Date() });
  return { usuarioId, email: body.email, writes: [...writes, ...invite.statements], invitation: invite.outboxId };
}

/** The functions a profile holds, as a JSON array, for an entry's `antes` (evaluated in its statement). */
const heldJson = sql`json((select json_group_array(${profissionalFuncoes.funcaoId}) from ${profissionalFuncoes} where ${profissionalFuncoes.profissionalId} = ${profissionais.id}))`;

export async function updateProfissional(ctx: ProfileCtx & PixNoticeCtx, id: string, input: ProfissionalInput) {
  const { db, log, user, regiao } = ctx;
  const sent = allowedInput(user, input, adminOnlyUpdateFields);
  const where = and(eq(profissionais.id, id), visible(user, regiao))!;
  const { toCheck } = resolveFuncoes(sent, null);
  const { current, found } = await storedForUpdate(ctx, where, toCheck);
  const body = withPixChecked(withoutOwnRegime(user, sent, current.regimeFiscal), current);
  assertFuncoesFound(found, toCheck, regiao);
  const { main, ids } = resolveFuncoes(body, current.main);

  const set = { ...profissionalColumns(body), funcaoProfissionalId: main, updatedAt: new Date().toISOString() };
  // Only its own user's change is told (the statements check it again in SQL).
  const pair = current.usuarioId === user.id ? pixOf(body) : undefined;
  const told = pair ? await pixChangeNotices(ctx, { where, pair, regiao, actor: user }) : undefined;
  const writes: Writes = [
    ...(told ? [told.notify, told.mail] : []),
    logRowWrite(
      { db, log },
      { table: profissionais, where },
      {
        acao: 'profissionais.update',
        entidade: 'profissionais',
        regiao,
        dados: { ...changed(profissionais, set), ...(ids ? { funcoes_ids: { antes: heldJson, depois: ids } } : {}) },
      },
    ),
    db.update(profissionais).set(set).where(where),
    ...heldWrites(db, id, { main, ids }),
  ];
  const results = await db.batch([...writes, visibleProfile(ctx, id)] as unknown as [Writes[number], ...Writes]);
  // The PIX change's two statements lead the batch.
  told?.settle(results[0] as NotificationRow[], { changes: (results[1] as D1Result).meta.changes });
  return oneOf(results[results.length - 1] as ProfileRow[], present);
}

/**
 * The stored PIX pair, regime, main function and login of the profile an update targets (404 when
 * the caller cannot see it), and which of the functions it sends exist, read in one batch. Read for
 * validation only: the write does not depend on them otherwise (it writes the whole pair, or none of it).
 */
async function storedForUpdate({ db, regiao }: ProfileCtx, where: SQL, toCheck: string[]) {
  const [[current], found] = await db.batch([
    db
      .select({
        main: profissionais.funcaoProfissionalId,
        contaPix: profissionais.contaPix,
        tipoChavePix: profissionais.tipoChavePix,
        regimeFiscal: profissionais.regimeFiscal,
        usuarioId: profissionais.usuarioId,
      })
      .from(profissionais)
      .where(where),
    funcoesInRegion(db, regiao, toCheck),
  ]);
  if (!current) throw notFound();
  return { current, found };
}

/** The functions an update sets: all of them when `ids` is sent, else the main one kept among them. */
function heldWrites(db: Db, id: string, { main, ids }: { main: string | null; ids?: string[] }): Writes {
  if (ids)
    return [
      db.delete(profissionalFuncoes).where(eq(profissionalFuncoes.profissionalId, id)),
      ...(ids.length
        ? [db.insert(profissionalFuncoes).values(ids.map((funcaoId) => ({ profissionalId: id, funcaoId })))]
        : []),
    ];
  return main
    ? [db.insert(profissionalFuncoes).values({ profissionalId: id, funcaoId: main }).onConflictDoNothing()]
    : [];
}

/**
 * Deleting a profile deletes its login, so the account protections of docs/decisions.md#d4 apply.
 * Answers the deleted login's calendar feed, if it had one (the handler drops its edge-cached copy).
 */
export async function deleteProfissional({ db, log, user, regiao }: ProfileCtx, id: string): Promise<FeedRef | null> {
  const [found] = await db
    .select({ usuarioId: profissionais.usuarioId, role: users.role, feed: feedRefColumns })
    .from(profissionais)
    .leftJoin(users, eq(users.id, profissionais.usuarioId))
    .leftJoin(calendarios, eq(calendarios.userId, profissionais.usuarioId))
    .where(and(eq(profissionais.id, id), eq(profissionais.regiao, regiao)));
  if (!found) throw notFound();
  if (found.usuarioId === user.id) throw new ApiError('FORBIDDEN', 'você não pode excluir a própria conta');
  assertMayActOn(user, found.role);
  // The user goes first (its sessions cascade, the profile is unlinked); the profile is deleted
  // only once unlinked, so a refused user delete leaves both in place.
  const userWhere = found.usuarioId ? and(eq(users.id, found.usuarioId), notLastSuperadmin) : undefined;
  const userDelete = userWhere
    ? loggedDelete({ db, log }, { table: users, where: userWhere }, { acao: 'users.delete', entidade: 'users' })
    : [];
  const profileWhere = and(eq(profissionais.id, id), isNull(profissionais.usuarioId));
  const [entry, remove] = loggedDelete(
    { db, log },
    { table: profissionais, where: profileWhere },
    { acao: 'profissionais.delete', entidade: 'profissionais', regiao },
  );
  const [gone] = await writeThenRead(db, [...userDelete, entry], [remove]);
  if (gone.meta.changes === 0) throw new ApiError('CONFLICT', 'o último SUPERADMIN não pode ser excluído');
  return found.usuarioId ? found.feed : null;
}
