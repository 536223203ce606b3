import { and, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { cadastroFot, cidades, instituicoes, type InstituicaoRow } from '../../db/schema';
import { ApiError, mapDbError } from '../../lib/errors';
import { matchKey } from '../../lib/names';
import { changed, logEachRow } from '../core/activity-log';
import type { Ctx } from '../core/context';
import { cidadesByCode, type CidadeRef } from '../places/cidades';
import { toCatalogResponse, type CatalogPresenter, type CatalogRow } from './catalogs';

/**
 * Institutions (docs/decisions.md#d23): the generic regional catalog (services/catalogs/catalogs.ts)
 * with an optional acronym and city. Their answers name the city; `vincular` links the region's FOT
 * records whose free-text `instituicao` is a catalog name.
 */

export interface InstituicaoInput {
  sigla?: string | null;
  cidade_ibge?: number | null;
}

/** The body's own columns: a create gives both (null when absent), an update the fields sent. */
export function instituicaoColumns(body: InstituicaoInput, create: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (create || body.sigla !== undefined) out.sigla = body.sigla ?? null;
  if (create || body.cidade_ibge !== undefined) out.cidadeIbge = body.cidade_ibge ?? null;
  return out;
}

/** The only reference an institution's write makes is its city: a missing parent is an unknown code. */
export function instituicaoWriteError(e: unknown): Error | undefined {
  const mapped = mapDbError(e);
  if (mapped?.code === 'NOT_FOUND') return new ApiError('VALIDATION_FAILED', 'cidade_ibge: cidade não encontrada');
  return undefined;
}

const toInstituicao = (row: CatalogRow, cidade: CidadeRef | null) => {
  const own = row as unknown as InstituicaoRow;
  const { id, nome, regiao, created_at, updated_at } = toCatalogResponse('nome', row);
  return { id, nome, sigla: own.sigla, cidade, regiao, created_at, updated_at };
};
export type InstituicaoBody = ReturnType<typeof toInstituicao>;

/** The list's cities come in its batch: those of the region's institutions (one query for the whole list). */
export const instituicaoPresenter: CatalogPresenter<InstituicaoBody, CidadeRef> = {
  related: ({ db, regiao }) =>
    db
      .select({ codigo_ibge: cidades.codigoIbge, nome: cidades.nome, uf: cidades.uf })
      .from(cidades)
      .where(
        inArray(
          cidades.codigoIbge,
          db
            .select({ c: instituicoes.cidadeIbge })
            .from(instituicoes)
            .where(and(eq(instituicoes.regiao, regiao), isNotNull(instituicoes.cidadeIbge))),
        ),
      ),
  list: (rows, related) => {
    const byCode = new Map(related.map((c) => [c.codigo_ibge, c]));
    return rows.map((row) => toInstituicao(row, cityOf(row, byCode)));
  },
  one: async ({ db }, row) => {
    const code = (row as unknown as InstituicaoRow).cidadeIbge;
    const [cidade] = code === null ? [] : await cidadesByCode(db, [code]);
    return toInstituicao(row, cidade ?? null);
  },
};

const cityOf = (row: CatalogRow, byCode: Map<number, CidadeRef>) => {
  const code = (row as unknown as InstituicaoRow).cidadeIbge;
  return code === null ? null : (byCode.get(code) ?? null);
};

/** Texts per update statement: D1 binds at most 100 parameters (each text is one, plus the region and ids). */
const TEXTS_PER_STATEMENT = 80;

/**
 * Links the region's FOT records that have no institution yet and whose free-text `instituicao` equals
 * a catalog name ignoring case, accents and spaces (lib/names.ts matchKey). A text that matches two
 * entries (e.g. "PUC SP" and "PUC-SP") is left unmatched. Every update is guarded by "still unlinked,
 * same text", so a second run (or two at once) links nothing twice; each linked record gets its log
 * entry in the same batch. Answers the records linked and the distinct texts left unmatched.
 */
export async function vincularInstituicoes({ db, log, regiao }: Pick<Ctx, 'db' | 'log' | 'regiao'>) {
  const unlinked = and(
    eq(cadastroFot.regiao, regiao),
    isNull(cadastroFot.instituicaoId),
    isNotNull(cadastroFot.instituicao),
  );
  const [catalog, texts] = await db.batch([
    db
      .select({ id: instituicoes.id, nome: instituicoes.label })
      .from(instituicoes)
      .where(eq(instituicoes.regiao, regiao)),
    db
      .select({ texto: sql<string>`${cadastroFot.instituicao}` })
      .from(cadastroFot)
      .where(unlinked)
      .groupBy(cadastroFot.instituicao),
  ]);
  const byKey = new Map<string, string | null>();
  for (const c of catalog) {
    const key = matchKey(c.nome);
    byKey.set(key, byKey.has(key) ? null : c.id);
  }
  const matched = new Map<string, string[]>();
  const unmatched: string[] = [];
  for (const { texto } of texts) {
    const key = matchKey(texto);
    if (!key) continue;
    const id = byKey.get(key);
    if (id) matched.set(id, [...(matched.get(id) ?? []), texto]);
    else unmatched.push(texto);
  }
  const writes: BatchItem<'sqlite'>[] = [];
  for (const [id, all] of matched)
    for (let i = 0; i < all.length; i += TEXTS_PER_STATEMENT) {
      const where = and(unlinked, inArray(cadastroFot.instituicao, all.slice(i, i + TEXTS_PER_STATEMENT)));
      const set = { instituicaoId: id, updatedAt: new Date().toISOString() };
      writes.push(
        logEachRow(db, log, {
          acao: 'cadastro_fot.vincular_instituicao',
          entidade: 'cadastro_fot',
          entidadeId: cadastroFot.id,
          regiao,
          dados: changed(cadastroFot, set),
          from: sql`from ${cadastroFot}`,
          when: where,
        }),
        db.update(cadastroFot).set(set).where(where).returning({ id: cadastroFot.id }),
      );
    }
  const results = writes.length ? ((await db.batch(writes as [BatchItem<'sqlite'>])) as unknown[]) : [];
  const vinculados = results.filter(Array.isArray).reduce((n, rows) => n + (rows as unknown[]).length, 0);
  return { vinculados, sem_correspondencia: unmatched.sort((a, b) => a.localeCompare(b, 'pt-BR')) };
}
