import type { RouteHandler } from '@hono/zod-openapi';
import { and, asc, count, eq, isNull, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { funcoes, profissionais, profissionalFuncoes, users } from '../../db/schema';
import type { AppEnv, Db } from '../../env';
import {
  authorizedBatch,
  placeholderScope,
  scopeShape,
  scopeValues,
  type AuthUser,
  type ScopeShape,
  type SqlScope,
} from '../../middleware/auth';
import { preparedSelect } from '../../db/fast-select';
import { isPaged, pageBounds, setTotal, totalOf } from '../../lib/pagination';
import { ApiError } from '../../lib/errors';
import { hashPassword } from '../../lib/password';
import { isAdmin } from '../../middleware/require-role';
import {
  funcoesInRegion,
  profissionaisQueries,
  profissionalColumns,
  toProfissionalResponse,
  withFuncoes,
} from '../../services/profissionais';
import { notLastSuperadmin } from '../../services/users';
import { adminOnlyFields, type ProfissionalInput } from './profissionais.schemas';
import type * as r from './profissionais.routes';

/** Administrators see the region; a professional only the profile linked to itself (decisions D4). */
function visible(user: SqlScope, regiao: string | Placeholder): SQL {
  const inRegion = eq(profissionais.regiao, regiao);
  return isAdmin(user.role) ? inRegion : and(inRegion, eq(profissionais.usuarioId, user.id))!;
}

const notFound = () => new ApiError('NOT_FOUND', 'professional not found');

/** A professional's own writes keep ratings and e-mail as they are. */
function allowedInput<T extends ProfissionalInput>(user: AuthUser, body: T): T {
  if (isAdmin(user.role)) return body;
  const copy = { ...body };
  for (const f of adminOnlyFields) delete copy[f];
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
  if (missing) throw new ApiError('NOT_FOUND', `funcoes_ids: function ${missing} not found in region ${regiao}`);
}

type Writes = BatchItem<'sqlite'>[];

/** Runs the writes and reads the profile back in the same batch (one round trip). */
async function writeAndRead(db: Db, writes: Writes, id: string, user: AuthUser, regiao: string) {
  const [q1, q2] = profissionaisQueries(db, and(eq(profissionais.id, id), visible(user, regiao))!);
  const results = await db.batch([...writes, q1, q2] as unknown as [typeof q1, typeof q2]);
  const [row] = withFuncoes(results.at(-2) as Awaited<typeof q1>, results.at(-1) as Awaited<typeof q2>);
  if (!row) throw notFound();
  return toProfissionalResponse(row.p, { funcaoNome: row.funcaoNome, funcoes: row.funcoes, showPrivate: true });
}

// The reads' selects, prepared per scope shape (and paging) so their SQL is built once.
const ph = sql.placeholder;
type ListShape = ScopeShape & { paged: boolean };
const listWhere = (s: ScopeShape) => visible(placeholderScope(s), ph('regiao'));
const listQueries = (db: Db, s: ListShape) =>
  profissionaisQueries(db, listWhere(s), s.paged ? { limit: ph('limit'), offset: ph('offset') } : undefined);
const listProfiles = preparedSelect((db: Db, s: ListShape) => listQueries(db, s)[0]);
const listHeld = preparedSelect((db: Db, s: ListShape) => listQueries(db, s)[1]);
const listCount = preparedSelect((db: Db, s: ScopeShape) =>
  db.select({ n: count() }).from(profissionais).where(listWhere(s)),
);
const oneWhere = (s: ScopeShape) => and(eq(profissionais.id, ph('id')), listWhere(s))!;
const oneProfile = preparedSelect((db: Db, s: ScopeShape) => profissionaisQueries(db, oneWhere(s))[0]);
const oneHeld = preparedSelect((db: Db, s: ScopeShape) => profissionaisQueries(db, oneWhere(s))[1]);

export const list: RouteHandler<typeof r.list, AppEnv> = async (c) => {
  const { db, regiao } = c.var;
  const page = c.req.valid('query');
  const [profiles, held, counted] = await authorizedBatch(c, (user) => {
    const shape = { ...scopeShape(user), paged: isPaged(page) };
    const values = { ...scopeValues(user), regiao, ...pageBounds(page) };
    return [
      listProfiles(db, shape, values),
      listHeld(db, shape, values),
      ...(shape.paged ? [listCount(db, scopeShape(user), values)] : []),
    ];
  });
  setTotal(c, totalOf(counted, profiles.length));
  return c.json(
    withFuncoes(profiles, held).map((row) =>
      toProfissionalResponse(row.p, { funcaoNome: row.funcaoNome, funcoes: row.funcoes, showPrivate: true }),
    ),
    200,
  );
};

export const contagem: RouteHandler<typeof r.contagem, AppEnv> = async (c) => {
  const { db, regiao } = c.var;
  const [rows] = await authorizedBatch(c, () => [
    db
      .select({ funcao_id: funcoes.id, funcao_nome: funcoes.label, total: count(profissionalFuncoes.profissionalId) })
      .from(funcoes)
      .leftJoin(profissionalFuncoes, eq(profissionalFuncoes.funcaoId, funcoes.id))
      .where(eq(funcoes.regiao, regiao))
      .groupBy(funcoes.id)
      .orderBy(asc(funcoes.labelKey)),
  ]);
  return c.json(rows, 200);
};

export const get: RouteHandler<typeof r.get, AppEnv> = async (c) => {
  const { db, regiao } = c.var;
  const { id } = c.req.valid('param');
  const [profiles, held] = await authorizedBatch(c, (user) => {
    const values = { ...scopeValues(user), regiao, id };
    return [oneProfile(db, scopeShape(user), values), oneHeld(db, scopeShape(user), values)];
  });
  const [row] = withFuncoes(profiles, held);
  if (!row) throw notFound();
  return c.json(
    toProfissionalResponse(row.p, { funcaoNome: row.funcaoNome, funcoes: row.funcoes, showPrivate: true }),
    200,
  );
};

export const create: RouteHandler<typeof r.create, AppEnv> = async (c) => {
  const { db, user, regiao } = c.var;
  const { senha, ...body } = allowedInput(user, c.req.valid('json'));
  const { main, ids, toCheck } = resolveFuncoes(body, null);
  if (toCheck.length) assertFuncoesFound(await funcoesInRegion(db, regiao, toCheck), toCheck, regiao);

  const id = crypto.randomUUID();
  const writes: Writes = [];
  let usuarioId: string | null = null;
  let email = body.email ?? null;
  if (!isAdmin(user.role)) {
    usuarioId = user.id;
    email = user.email;
  } else if (senha !== undefined && email) {
    // Team registration: the login and the profile exist together or not at all.
    usuarioId = crypto.randomUUID();
    writes.push(
      db.insert(users).values({
        id: usuarioId,
        nome: body.nome!,
        email,
        senhaHash: await hashPassword(senha),
        role: 'profissional',
        ativo: true,
        telefone: body.whatsapp ?? null,
      }),
    );
  }
  writes.push(
    db.insert(profissionais).values({
      ...profissionalColumns(body),
      id,
      regiao,
      usuarioId,
      email,
      funcaoProfissionalId: main,
      nome: body.nome!,
    }),
  );
  const held = ids ?? (main ? [main] : []);
  if (held.length)
    writes.push(db.insert(profissionalFuncoes).values(held.map((funcaoId) => ({ profissionalId: id, funcaoId }))));
  return c.json(await writeAndRead(db, writes, id, user, regiao), 201);
};

export const update: RouteHandler<typeof r.update, AppEnv> = async (c) => {
  const { db, user, regiao } = c.var;
  const { id } = c.req.valid('param');
  const body = allowedInput(user, c.req.valid('json'));
  const where = and(eq(profissionais.id, id), visible(user, regiao))!;
  const { toCheck } = resolveFuncoes(body, null);
  const [[current], found] = await db.batch([
    db.select({ main: profissionais.funcaoProfissionalId }).from(profissionais).where(where),
    funcoesInRegion(db, regiao, toCheck),
  ]);
  if (!current) throw notFound();
  assertFuncoesFound(found, toCheck, regiao);
  const { main, ids } = resolveFuncoes(body, current.main);

  const writes: Writes = [
    db
      .update(profissionais)
      .set({ ...profissionalColumns(body), funcaoProfissionalId: main, updatedAt: new Date().toISOString() })
      .where(where),
  ];
  if (ids) {
    writes.push(db.delete(profissionalFuncoes).where(eq(profissionalFuncoes.profissionalId, id)));
    if (ids.length)
      writes.push(db.insert(profissionalFuncoes).values(ids.map((funcaoId) => ({ profissionalId: id, funcaoId }))));
  } else if (main) {
    writes.push(db.insert(profissionalFuncoes).values({ profissionalId: id, funcaoId: main }).onConflictDoNothing());
  }
  return c.json(await writeAndRead(db, writes, id, user, regiao), 200);
};

export const remove: RouteHandler<typeof r.remove, AppEnv> = async (c) => {
  const { db, user, regiao } = c.var;
  const { id } = c.req.valid('param');
  const [found] = await db
    .select({ usuarioId: profissionais.usuarioId, role: users.role })
    .from(profissionais)
    .leftJoin(users, eq(users.id, profissionais.usuarioId))
    .where(and(eq(profissionais.id, id), eq(profissionais.regiao, regiao)));
  if (!found) throw notFound();
  // Deleting a profile deletes its login, so the account protections of decisions D4 apply.
  if (found.usuarioId === user.id) throw new ApiError('FORBIDDEN', 'you cannot delete your own account');
  if (found.role === 'SUPERADMIN' && user.role !== 'SUPERADMIN')
    throw new ApiError('FORBIDDEN', 'only a SUPERADMIN may delete a SUPERADMIN');
  const writes: Writes = [];
  // The user goes first (its sessions cascade, the profile is unlinked); the profile is deleted
  // only once unlinked, so a refused user delete leaves both in place.
  if (found.usuarioId) writes.push(db.delete(users).where(and(eq(users.id, found.usuarioId), notLastSuperadmin)));
  writes.push(db.delete(profissionais).where(and(eq(profissionais.id, id), isNull(profissionais.usuarioId))));
  const results = await db.batch(writes as [BatchItem<'sqlite'>]);
  const deleted = results[results.length - 1] as { meta: { changes: number } };
  if (deleted.meta.changes === 0) throw new ApiError('CONFLICT', 'the last SUPERADMIN cannot be deleted');
  return c.json({ message: 'professional deleted' }, 200);
};
