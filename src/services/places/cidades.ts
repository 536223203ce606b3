import { and, asc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { cidades, cidadesBusca, type CidadeRow } from '../../db/schema';
import { ApiError, mapDbError } from '../../lib/errors';
import { searchKey } from '../../lib/names';

/**
 * Brazil's municipalities (docs/decisions.md#d23): a fixed table loaded by a migration, read by every
 * active user. No region: a city is a city in every region.
 */

export const MAX_CIDADES = 50;

export interface CidadesQuery {
  uf?: string;
  q?: string;
  limit?: number;
}

/** What an answer says of a city (an event's `cidade`, an institution's, the search's items). */
export interface CidadeRef {
  codigo_ibge: number;
  nome: string;
  uf: string;
}
export type CidadeBody = CidadeRef & { latitude: number; longitude: number };

/**
 * Cities with a word that starts with `q`, ignoring case and accents (lib/names.ts searchKey): those
 * whose name starts with it first, then the others, each by name; at most `limit` (50). A search reads
 * the index range of `q` in `cidades_busca` (every word start of every name), so it reads the matching
 * cities only; without `q`, the first names in order of the (uf, name) or name index.
 */
export function searchCidades(db: Db, query: CidadesQuery) {
  const limit = Math.min(query.limit ?? MAX_CIDADES, MAX_CIDADES);
  const key = query.q === undefined ? '' : searchKey(query.q);
  const columns = {
    codigo_ibge: cidades.codigoIbge,
    nome: cidades.nome,
    uf: cidades.uf,
    latitude: cidades.latitude,
    longitude: cidades.longitude,
  };
  const inUf = query.uf ? eq(cidades.uf, query.uf) : undefined;
  if (!key)
    return db
      .select(columns)
      .from(cidades)
      .where(inUf)
      .orderBy(asc(cidades.nomeKey), asc(cidades.uf), asc(cidades.codigoIbge))
      .limit(limit);
  // Every key that starts with `key` sorts from `key` up to `key` followed by the highest code point.
  // `+` keeps the planner on that range (not the state's every city, probing its words by code).
  return db
    .select(columns)
    .from(cidadesBusca)
    .innerJoin(cidades, eq(cidades.codigoIbge, sql`+${cidadesBusca.codigoIbge}`))
    .where(
      and(
        gte(cidadesBusca.chave, key),
        lt(cidadesBusca.chave, key + '\u{10FFFF}'),
        query.uf ? sql`+${cidades.uf} = ${query.uf}` : undefined,
      ),
    )
    .groupBy(cidades.codigoIbge)
    .orderBy(sql`min(${cidadesBusca.posicao}) > 0`, asc(cidades.nomeKey), asc(cidades.uf), asc(cidades.codigoIbge))
    .limit(limit);
}

/** The cities of the given codes (for answers that name them), by code. */
export const cidadesByCode = (db: Db, codes: number[]) =>
  db
    .select({ codigo_ibge: cidades.codigoIbge, nome: cidades.nome, uf: cidades.uf })
    .from(cidades)
    .where(inArray(cidades.codigoIbge, codes));

export const toCidadeRef = (row: Pick<CidadeRow, 'codigoIbge' | 'nome' | 'uf'>): CidadeRef => ({
  codigo_ibge: row.codigoIbge,
  nome: row.nome,
  uf: row.uf,
});

/**
 * A write that names a city and fails on a missing parent: the references of the region were checked
 * just before, so it is the city code (a 400, docs/decisions.md#d23). Anything else passes through.
 */
export const unknownCity =
  (code: unknown, field = 'cidade_ibge') =>
  (e: unknown): never => {
    if (code !== null && code !== undefined && mapDbError(e)?.code === 'NOT_FOUND')
      throw new ApiError('VALIDATION_FAILED', `${field}: cidade não encontrada`);
    throw e;
  };
