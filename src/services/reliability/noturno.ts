import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { confiabilidadeExecucoes, profissionais } from '../../db/schema';
import { saoPauloDate } from '../../lib/dates';
import { refreshScores } from './ledger';

/** The São Paulo hour from which the nightly refresh runs (the first dispatcher tick after it). */
export const NOTURNO_HORA = 3;

/**
 * The nightly refresh of every kept score (docs/decisions.md#d28): rows age, and the region's mean
 * moves with the whole region's ledger, so each professional with a kept score is recomputed (from its
 * kept sums: services/reliability/ledger.ts refreshScores) once a São Paulo day, from NOTURNO_HORA on. One batch: the day's claim (its primary key: a second or
 * overlapping run finds it taken) and the UPDATE guarded by this run's own claim, so the day is
 * refreshed once whatever the number of ticks. Answers whether this run did it and how many scores.
 */
export async function refreshNoturno(db: Db, now: Date) {
  const dia = saoPauloDate(now);
  const horaSp = (now.getUTCHours() + 21) % 24;
  if (horaSp < NOTURNO_HORA) return { dia, executado: false, profissionais: 0 };
  const execucao = crypto.randomUUID();
  const claim = db
    .insert(confiabilidadeExecucoes)
    .values({ dia, execucao, em: now.toISOString() })
    .onConflictDoNothing();
  const mine = sql`exists (select 1 from ${confiabilidadeExecucoes} where ${and(
    eq(confiabilidadeExecucoes.dia, dia),
    eq(confiabilidadeExecucoes.execucao, execucao),
  )})`;
  const update = refreshScores(db, {
    which: and(mine, sql`(${profissionais.confiabilidade} is not null or ${profissionais.confiabilidadePesos} > 0)`)!,
    now: now.toISOString(),
  });
  const [claimed, updated] = await db.batch([claim, update]);
  return { dia, executado: claimed.meta.changes > 0, profissionais: updated.meta.changes };
}
