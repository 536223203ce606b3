import { and, eq, isNull, or, sql } from 'drizzle-orm';
import { run } from '../../db/cached-batch';
import {
  CATEGORIAS_SISTEMA,
  categoriasFinanceiras,
  lancamentos,
  type CategoriaFinanceiraRow,
  type TipoLancamento,
} from '../../db/schema';
import { writeThenRead } from '../../db/write-read';
import { ApiError } from '../../lib/errors';
import { nameKey } from '../../lib/names';
import type { Page } from '../../lib/pagination';
import { countCatalog, deleteCatalog, insertCatalog, listCatalog, updateCatalog } from '../catalogs/catalogs';
import type { Ctx, QueryCtx, WriteCtx } from '../core/context';
import { ensureSystemCategories, systemCategoryAltName } from './financeiro';

/**
 * Finance categories (docs/decisions.md#d18-finance, docs/guide/money.md): a regional catalog (nome
 * unique per region ignoring case, as services/catalogs/catalogs.ts) with a tipo; the six system
 * categories are fixed.
 */

type RegionWriter = Pick<Ctx, 'db' | 'log' | 'regiao'>;
type CategoriaBody = { nome: string; tipo: TipoLancamento };

const cat = categoriasFinanceiras;

export function toCategoriaResponse(row: CategoriaFinanceiraRow) {
  return {
    id: row.id,
    nome: row.label,
    tipo: row.tipo,
    sistema: row.sistema !== null,
    regiao: row.regiao,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

/**
 * The page and the total, by the generic catalog's queries (services/catalogs/catalogs.ts); the region's
 * system categories are ensured in the same batch (a no-op once there).
 */
export async function listCategorias({ db, regiao }: QueryCtx, page: Page) {
  const [rows, [n]] = await writeThenRead(
    db,
    [ensureSystemCategories(db, regiao)],
    [listCatalog({ db, regiao }, cat, page), countCatalog({ db, regiao }, cat)],
  );
  return { rows: (rows as CategoriaFinanceiraRow[]).map(toCategoriaResponse), total: n?.n ?? 0 };
}

/** A system category's name, or the one it takes beside a user category of that name (financeiro.ts ensureSystemCategories). */
const SYSTEM_NAMES = new Set(
  Object.values(CATEGORIAS_SISTEMA).flatMap((c) => [nameKey(c.nome), nameKey(systemCategoryAltName(c.nome))]),
);

/**
 * The generic catalog insert with the category's tipo. A system category's name is refused (409, from
 * the list of system names, whether or not the region's row exists yet); the system categories go
 * first in the batch all the same.
 */
export async function createCategoria({ db, regiao, write }: QueryCtx & Pick<WriteCtx, 'write'>, body: CategoriaBody) {
  if (SYSTEM_NAMES.has(nameKey(body.nome)))
    throw new ApiError('CONFLICT', `nome: "${body.nome.trim()}" é o nome de uma categoria do sistema; escolha outro`);
  const row = await insertCatalog(
    { db, write, regiao },
    {
      table: cat,
      label: body.nome,
      extra: { tipo: body.tipo, sistema: null },
      before: { categories: run(ensureSystemCategories(db, regiao)) },
    },
  );
  return toCategoriaResponse(row);
}

const categoriaNotFound = () => new ApiError('NOT_FOUND', 'categoria não encontrada');
const systemCategory = () =>
  new ApiError('INVALID_STATE', 'categoria do sistema: não pode ser renomeada, ter o tipo trocado nem ser excluída');

/**
 * Renames or retypes a user category (the generic catalog update). System categories are fixed (409
 * INVALID_STATE); the tipo of a category with entries cannot change (409 IN_USE), both in the
 * update's own guard.
 */
export async function updateCategoria({ db, log, regiao }: RegionWriter, id: string, body: CategoriaBody) {
  const row = await updateCatalog(
    { db, log, regiao },
    {
      table: cat,
      id,
      label: body.nome,
      missing: 'categoria não encontrada',
      extra: { tipo: body.tipo },
      guard: and(
        isNull(cat.sistema),
        or(
          eq(cat.tipo, body.tipo),
          sql`not exists (select 1 from ${lancamentos} where ${lancamentos.categoriaId} = ${id})`,
        ),
      ),
      notFound: categoriaNotFound,
      refused: (current) =>
        current.sistema !== null
          ? systemCategory()
          : new ApiError('IN_USE', 'tipo: a categoria já tem lançamentos; o tipo não pode mudar'),
    },
  );
  return toCategoriaResponse(row);
}

/** System categories are never deleted (409 INVALID_STATE); a category with entries is 409 IN_USE (foreign key). */
export async function deleteCategoria({ db, log, regiao }: RegionWriter, id: string) {
  await deleteCatalog(
    { db, log, regiao },
    {
      table: cat,
      id,
      missing: 'categoria não encontrada',
      guard: isNull(cat.sistema),
      notFound: categoriaNotFound,
      refused: systemCategory,
    },
  );
}
