import { and, asc, count, eq, gte, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import { withTotal } from '../../db/list-total';
import { writeThenRead } from '../../db/write-read';
import { cidades, feriados, instituicoes, type FeriadoRow, type FeriadoTipo } from '../../db/schema';
import { nowIso } from '../../db/schema/columns';
import { ApiError } from '../../lib/errors';
import { pageBounds, type Page } from '../../lib/pagination';
import { created, loggedDelete, logStatement } from '../core/activity-log';
import type { Ctx, QueryCtx } from '../core/context';
import { assertRefsInRegion } from '../core/references';
import { unknownCity } from '../places/cidades';

/**
 * Days that are not business days (docs/decisions.md#d25). National and state ones come from the
 * migration (scripts/feriados-migration.ts, regiao null, read-only here); a region's administrators add
 * municipal and institutional ones, which hold for that region's events only.
 */

export interface FeriadoFilters {
  de?: string;
  ate?: string;
  uf?: string;
  cidade_ibge?: number;
  instituicao_id?: string;
}

export interface FeriadoInput {
  data: string;
  nome: string;
  tipo: FeriadoTipo;
  escopo: 'municipio' | 'instituicao';
  cidade_ibge?: number | null;
  instituicao_id?: string | null;
}

export const toFeriadoResponse = (f: FeriadoRow) => ({
  id: f.id,
  data: f.data,
  nome: f.nome,
  tipo: f.tipo,
  escopo: f.escopo,
  uf: f.uf,
  cidade_ibge: f.cidadeIbge,
  instituicao_id: f.instituicaoId,
  regiao: f.regiao,
  created_at: f.createdAt,
  updated_at: f.updatedAt,
});

/**
 * The days the filters ask for, of the migration and of the caller's region. A place filter keeps
 * what holds there: `uf` the national days, the state's and its cities'; `cidade_ibge` the national
 * days, its state's and its own; `instituicao_id` adds that institution's days (otherwise listed only
 * without a place filter).
 */
function feriadosWhere(regiao: string, f: FeriadoFilters): SQL | undefined {
  const ufDaCidade = (code: number) =>
    sql`(select ${cidades.uf} from ${cidades} where ${cidades.codigoIbge} = ${code})`;
  const place = f.cidade_ibge
    ? or(
        eq(feriados.escopo, 'nacional'),
        and(eq(feriados.escopo, 'uf'), eq(feriados.uf, ufDaCidade(f.cidade_ibge))),
        and(eq(feriados.escopo, 'municipio'), eq(feriados.cidadeIbge, f.cidade_ibge)),
      )
    : f.uf
      ? or(eq(feriados.escopo, 'nacional'), and(sql`${feriados.escopo} in ('uf', 'municipio')`, eq(feriados.uf, f.uf)))
      : f.instituicao_id
        ? sql`${feriados.escopo} <> 'instituicao'`
        : undefined;
  const inst = f.instituicao_id
    ? and(eq(feriados.escopo, 'instituicao'), eq(feriados.instituicaoId, f.instituicao_id))
    : undefined;
  return and(
    or(isNull(feriados.regiao), eq(feriados.regiao, regiao)),
    f.de ? gte(feriados.data, f.de) : undefined,
    f.ate ? lte(feriados.data, f.ate) : undefined,
    place && inst ? or(place, inst) : (place ?? inst),
  );
}

export async function listFeriados({ db, regiao }: QueryCtx, q: FeriadoFilters & Page) {
  const { limit, offset, ...f } = q;
  const where = feriadosWhere(regiao, f);
  const { limit: l, offset: o } = pageBounds({ limit, offset });
  const { rows, total } = await withTotal(
    db,
    { limit, offset },
    db
      .select()
      .from(feriados)
      .where(where)
      .orderBy(asc(feriados.data), asc(feriados.escopo), asc(feriados.id))
      .limit(l)
      .offset(o),
    db.select({ n: count() }).from(feriados).where(where),
  );
  return { rows: rows.map(toFeriadoResponse), total };
}

const notFound = () => new ApiError('NOT_FOUND', 'feriado não encontrado');

export async function createFeriado(ctx: Ctx, body: FeriadoInput) {
  const { db, log, regiao } = ctx;
  const municipal = body.escopo === 'municipio';
  const instId = municipal ? null : body.instituicao_id!;
  await assertRefsInRegion(ctx, [{ field: 'instituicao_id', table: instituicoes, id: instId }]);
  const now = nowIso();
  const cidade = municipal ? body.cidade_ibge! : null;
  const values = {
    id: crypto.randomUUID(),
    regiao,
    data: body.data,
    nome: body.nome,
    tipo: body.tipo,
    escopo: body.escopo,
    // A municipal day carries its city's state, so a state's filter finds it.
    uf: municipal ? sql`(select ${cidades.uf} from ${cidades} where ${cidades.codigoIbge} = ${cidade})` : null,
    cidadeIbge: cidade,
    instituicaoId: instId,
    createdAt: now,
    updatedAt: now,
  };
  const entry = logStatement(db, log, {
    acao: 'feriados.create',
    entidade: 'feriados',
    entidadeId: values.id,
    regiao,
    dados: created(feriados, values),
  });
  const [rows] = await writeThenRead(
    db,
    [db.insert(feriados).values(values as typeof feriados.$inferInsert), entry],
    [db.select().from(feriados).where(eq(feriados.id, values.id))],
  ).catch(unknownCity(cidade));
  return toFeriadoResponse(rows[0]!);
}

/** Deletes a day the region added; the migration's (national, state) cannot be (409 INVALID_STATE). */
export async function deleteFeriado(ctx: Ctx, id: string) {
  const { db, log, regiao } = ctx;
  const where = and(eq(feriados.id, id), eq(feriados.regiao, regiao));
  const [entry, remove] = loggedDelete(
    { db, log },
    { table: feriados, where },
    { acao: 'feriados.delete', entidade: 'feriados', regiao },
  );
  const [gone, [migrated]] = await writeThenRead(
    db,
    [entry],
    [
      remove,
      db
        .select({ id: feriados.id })
        .from(feriados)
        .where(and(eq(feriados.id, id), isNull(feriados.regiao))),
    ],
  );
  if (gone.meta.changes > 0) return;
  if (migrated)
    throw new ApiError('INVALID_STATE', 'feriados nacionais e estaduais vêm da migração e não podem ser excluídos');
  throw notFound();
}
