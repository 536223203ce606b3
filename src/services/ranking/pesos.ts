import { eq, sql } from 'drizzle-orm';
import { COMPONENTES, PESOS_PADRAO, pesosRanking, type Componente, type PesosRankingRow } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { logStatement } from '../core/activity-log';
import type { Ctx, QueryCtx } from '../core/context';

/**
 * The region's ranking weights (docs/decisions.md#d29): administrators set them, the ranking reads
 * them in its own statement (services/ranking/candidatos.ts). Stored normalised to sum 1; a region
 * without a row uses D29's defaults.
 */

export type Pesos = Record<Componente, number>;

/** 4 decimals: what the answers show of a weight, a value or a contribution. */
export const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

export interface PesosAnswer {
  regiao: string;
  pesos: Pesos;
  /** true: the region has no weights of its own (D29's defaults). */
  padrao: boolean;
  updated_at: string | null;
}

export const pesosOf = (row: Partial<Record<Componente, number>>): Pesos =>
  Object.fromEntries(COMPONENTES.map((k) => [k, round4(row[k] ?? PESOS_PADRAO[k])])) as Pesos;

function toAnswer(regiao: string, row: PesosRankingRow | undefined): PesosAnswer {
  return { regiao, pesos: pesosOf(row ?? {}), padrao: !row, updated_at: row?.updatedAt ?? null };
}

const rowSelect = ({ db, regiao }: QueryCtx) => db.select().from(pesosRanking).where(eq(pesosRanking.regiao, regiao));

/** GET /api/ranking/pesos. */
export async function getPesos(ctx: QueryCtx): Promise<PesosAnswer> {
  const [row] = await rowSelect(ctx);
  return toAnswer(ctx.regiao, row);
}

/**
 * PUT /api/ranking/pesos: the seven weights, any non-negative numbers with a positive sum, stored
 * divided by their sum. One upsert (a retry writes the same row), its log entry first with the weights
 * before (null for a region on the defaults) and after, and the read-back: one batch.
 */
export async function putPesos(ctx: Pick<Ctx, 'db' | 'log' | 'regiao' | 'user'>, body: Pesos): Promise<PesosAnswer> {
  const { db, log, regiao, user } = ctx;
  const total = COMPONENTES.reduce((acc, k) => acc + body[k], 0);
  if (!(total > 0)) throw new ApiError('VALIDATION_FAILED', 'pesos: ao menos um peso deve ser maior que zero');
  const norm = Object.fromEntries(COMPONENTES.map((k) => [k, body[k] / total])) as Pesos;
  const now = new Date().toISOString();
  const entry = logStatement(db, log, {
    acao: 'pesos_ranking.update',
    entidade: 'pesos_ranking',
    // One row per region: the entry's `regiao` names it (entidade_id is an id).
    entidadeId: null,
    regiao,
    dados: Object.fromEntries(
      COMPONENTES.map((k) => [
        k,
        {
          antes: sql`(select ${pesosRanking[k]} from ${pesosRanking} where ${pesosRanking.regiao} = ${regiao})`,
          depois: round4(norm[k]),
        },
      ]),
    ),
  });
  const upsert = db
    .insert(pesosRanking)
    .values({ regiao, ...norm, atualizadoPor: user.id, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: pesosRanking.regiao, set: { ...norm, atualizadoPor: user.id, updatedAt: now } });
  const [, , rows] = await db.batch([entry, upsert, rowSelect(ctx)]);
  return toAnswer(regiao, rows[0]);
}
