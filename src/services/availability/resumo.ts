import { sql } from 'drizzle-orm';
import { disponibilidades, funcoes, profissionalFuncoes } from '../../db/schema';
import { saoPauloDate } from '../../lib/dates';
import type { Ctx } from '../core/context';
import { coversDay, type DeclSql } from './rule';

/** A stored declaration's columns, for coversDay. */
const d: DeclSql = {
  inicio: sql`${disponibilidades.dataInicio}`,
  fim: sql`${disponibilidades.dataFim}`,
  horaInicio: sql`${disponibilidades.horaInicio}`,
  horaFim: sql`${disponibilidades.horaFim}`,
  dias: sql`${disponibilidades.diasSemana}`,
};

/** A holder's state on `data`: 2 unavailable at some hour, 1 preferential, null silent (one probe of its declarations). */
const stateOn = (data: string) =>
  sql`(select max(case ${disponibilidades.tipo} when 'indisponivel' then 2 else 1 end) from ${disponibilidades}
    where ${disponibilidades.profissionalId} = ${profissionalFuncoes.profissionalId} and ${coversDay(d, sql`${data}`)})`;

export interface ResumoRow {
  funcao_id: string;
  funcao_nome: string;
  titulares: number;
  indisponiveis: number;
  preferenciais: number;
  sem_declaracao: number;
}

/**
 * GET /api/disponibilidades/resumo (docs/decisions.md#d24): per function of the region (or the one
 * asked), its listed holders (services/professionals/profissionais.ts listedProfile, kept on
 * profissional_funcoes.listado) split into unavailable, preferential and silent on `data`. Counts
 * only: no names, no `motivo`. One statement, whatever the number of holders.
 */
export async function resumoDisponibilidade(ctx: Ctx, q: { data?: string; funcao_id?: string }) {
  const { db, regiao } = ctx;
  const data = q.data ?? saoPauloDate(new Date());
  const which = sql`${funcoes.regiao} = ${regiao} ${q.funcao_id ? sql`and ${funcoes.id} = ${q.funcao_id}` : sql``}`;
  // The holders of the asked functions only (profissional_funcoes_funcao_idx; a profile holds only
  // functions of its own region), each one's declarations read once (disponibilidades_profissional_idx).
  const holders = sql`select ${profissionalFuncoes.funcaoId} as fid, ${stateOn(data)} as st
    from ${profissionalFuncoes}
    where ${profissionalFuncoes.listado} = 1 and ${profissionalFuncoes.funcaoId} in (select ${funcoes.id} from ${funcoes} where ${which})`;
  const rows = await db.all<Omit<ResumoRow, 'sem_declaracao'> & { silentes: number }>(sql`
    select ${funcoes.id} as funcao_id, ${funcoes.label} as funcao_nome, count(h.fid) as titulares,
      coalesce(sum(h.st = 2), 0) as indisponiveis, coalesce(sum(h.st = 1), 0) as preferenciais,
      coalesce(sum(h.fid is not null and h.st is null), 0) as silentes
    from ${funcoes} left join (${holders}) h on h.fid = ${funcoes.id}
    where ${which}
    group by ${funcoes.id} order by ${funcoes.label}, ${funcoes.id}`);
  return rows.map(({ silentes, ...r }): ResumoRow => ({ ...r, sem_declaracao: silentes }));
}
