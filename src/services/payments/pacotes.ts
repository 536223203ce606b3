import { and, asc, eq, type SQL } from 'drizzle-orm';
import { keptOrCounted } from '../../db/kept-count';
import { withTotal } from '../../db/list-total';
import { pacotes, type PacoteRow, type Role } from '../../db/schema';
import { nowIso } from '../../db/schema/columns';
import { ApiError } from '../../lib/errors';
import { fromCentavos, toCentavos } from '../../lib/money';
import { pageBounds, type Page } from '../../lib/pagination';
import { isAdmin } from '../../lib/permissions';
import { created, loggedDelete, loggedUpdate, logStatement } from '../core/activity-log';
import type { Ctx } from '../core/context';

type Reader = Pick<Ctx, 'db' | 'user' | 'regiao'>;
type Writer = Pick<Ctx, 'db' | 'log' | 'regiao'>;

/**
 * Photo packages (docs/decisions.md#d19): administrators write them in their region; any active user
 * reads the region's active ones (administrators also the inactive ones, with `?ativo=false`).
 */

export interface PacoteInput {
  nome?: string;
  descricao?: string | null;
  preco?: number;
  parcelas_max?: number;
  ativo?: boolean;
}

const notFound = () => new ApiError('NOT_FOUND', 'pacote não encontrado');

export function toPacoteResponse(p: PacoteRow) {
  return {
    id: p.id,
    regiao: p.regiao,
    nome: p.nome,
    descricao: p.descricao,
    preco: fromCentavos(p.precoCentavos),
    parcelas_max: p.parcelasMax,
    ativo: p.ativo,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
  };
}

function columns(b: PacoteInput): Partial<typeof pacotes.$inferInsert> {
  const out: Partial<typeof pacotes.$inferInsert> = {};
  if (b.nome !== undefined) out.nome = b.nome;
  if (b.descricao !== undefined) out.descricao = b.descricao;
  if (b.preco !== undefined) out.precoCentavos = toCentavos(b.preco);
  if (b.parcelas_max !== undefined) out.parcelasMax = b.parcelas_max;
  if (b.ativo !== undefined) out.ativo = b.ativo;
  return out;
}

/** Non-administrators see active packages only. */
function visible(role: Role, regiao: string, ativo: boolean | undefined): SQL {
  const only = isAdmin(role) ? ativo : true;
  return and(eq(pacotes.regiao, regiao), only === undefined ? undefined : eq(pacotes.ativo, only))!;
}

/**
 * A page's total from the counts kept per region, all and active (drizzle/0032_list_counts.sql);
 * an administrator's list of inactive packages counts them.
 */
function pacotesTotal({ db, user, regiao }: Reader, ativo: boolean | undefined, where: SQL) {
  const only = isAdmin(user.role) ? ativo : true;
  const dono = only === false ? undefined : only ? 'ativos' : '';
  return keptOrCounted(db, { tabela: 'pacotes', regiao, dono }, pacotes, where);
}

/** The list (by name) and, when paged, its count: one batch. */
export async function listPacotes(ctx: Reader, { ativo, ...page }: Page & { ativo?: boolean }) {
  const { db, user, regiao } = ctx;
  const where = visible(user.role, regiao, ativo);
  const { limit, offset } = pageBounds(page);
  const list = db
    .select()
    .from(pacotes)
    .where(where)
    .orderBy(asc(pacotes.nome), asc(pacotes.id))
    .limit(limit)
    .offset(offset);
  const { rows, total } = await withTotal(db, page, list, pacotesTotal(ctx, ativo, where));
  return { rows: rows.map(toPacoteResponse), total };
}

export async function getPacote({ db, user, regiao }: Reader, id: string) {
  const [row] = await db
    .select()
    .from(pacotes)
    .where(and(eq(pacotes.id, id), visible(user.role, regiao, undefined)));
  if (!row) throw notFound();
  return toPacoteResponse(row);
}

export async function createPacote(
  { db, log, regiao }: Writer,
  body: Required<Omit<PacoteInput, 'descricao'>> & PacoteInput,
) {
  const now = nowIso();
  const values = {
    id: crypto.randomUUID(),
    regiao,
    ...columns(body),
    createdAt: now,
    updatedAt: now,
  } as typeof pacotes.$inferInsert;
  const [[row]] = await db.batch([
    db.insert(pacotes).values(values).returning(),
    logStatement(db, log, {
      acao: 'pacotes.create',
      entidade: 'pacotes',
      entidadeId: values.id,
      regiao,
      dados: created(pacotes, values),
    }),
  ]);
  return toPacoteResponse(row!);
}

/** Changes what the body carries; orders already made keep their price (they store it). */
export async function updatePacote(ctx: Writer, id: string, body: PacoteInput) {
  const where = and(eq(pacotes.id, id), eq(pacotes.regiao, ctx.regiao));
  const set = { ...columns(body), updatedAt: nowIso() };
  const [entry, update] = loggedUpdate(
    ctx,
    { table: pacotes, where, set },
    { acao: 'pacotes.update', entidade: 'pacotes', regiao: ctx.regiao },
  );
  const [, rows] = await ctx.db.batch([entry, update.returning()]);
  if (!rows[0]) throw notFound();
  return toPacoteResponse(rows[0]);
}

/** A package with orders cannot be deleted (409 IN_USE through the foreign key): deactivate it instead. */
export async function deletePacote(ctx: Writer, id: string) {
  const where = and(eq(pacotes.id, id), eq(pacotes.regiao, ctx.regiao));
  const [, res] = await ctx.db.batch(
    loggedDelete(ctx, { table: pacotes, where }, { acao: 'pacotes.delete', entidade: 'pacotes', regiao: ctx.regiao }),
  );
  if (res.meta.changes === 0) throw notFound();
}
