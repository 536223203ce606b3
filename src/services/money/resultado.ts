import { and, eq, sql, type SQL } from 'drizzle-orm';
import { cachedSelect } from '../../db/cached-batch';
import { agenda, cadastroFot, somasLancamentos, type TipoLancamento } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { fromCentavos } from '../../lib/money';
import type { QueryCtx } from '../core/context';

export type ResultadoQuery = { fot_id?: string; agenda_id?: string; de?: string; ate?: string };

interface ResultadoRow {
  categoria_id: string;
  nome: string;
  tipo: TipoLancamento;
  previsto: number;
  realizado: number;
}

/**
 * The result of an event, a class (its own entries, its events' and its gastos_captacao as
 * category Captação, counted as realizado) or a period (on vencimento): ONE grouped query,
 * whatever the number of entries. Counts `previsto` and `pago` only; mirrors (origem `estorno`)
 * never (their original is `estornado`, so both are out). margem_pct = resultado / receitas × 100,
 * 2 decimals, null when receitas is 0.
 */
/**
 * The result's two selects (the FOT or event exists in the region; the grouped sums), for a folded
 * read (routes/financeiro: one round trip with the caller's check). Invalid query: 400 at once.
 */
export function resultadoSelects({ db, regiao }: QueryCtx, q: ResultadoQuery) {
  const modes = [q.fot_id !== undefined, q.agenda_id !== undefined, q.de !== undefined || q.ate !== undefined];
  if (modes.filter(Boolean).length !== 1)
    throw new ApiError('VALIDATION_FAILED', 'informe exatamente um de: fot_id, agenda_id, ou de+ate');
  if (modes[2] && (!q.de || !q.ate)) throw new ApiError('VALIDATION_FAILED', 'de e ate: informe os dois');
  if (q.de && q.ate && q.de > q.ate) throw new ApiError('VALIDATION_FAILED', 'de: deve ser anterior ou igual a ate');

  const mode: ResultadoMode = q.fot_id ? 'fot' : q.agenda_id ? 'agenda' : 'periodo';
  const values = { regiao, fot: q.fot_id, agenda: q.agenda_id, de: q.de, ate: q.ate };
  return [resultadoExists(db, mode, values), resultadoSums(db, mode, values)] as const;
}

/** Which result: its SQL is built once per mode (db/cached-batch.ts cachedSelect), values bound. */
type ResultadoMode = 'fot' | 'agenda' | 'periodo';

/**
 * The result's sums per category and tipo from somas_lancamentos, kept by triggers on lancamentos
 * (drizzle/0035_result_sums.sql): one row per category and tipo of the FOT record or event, one per
 * day, category and tipo of a period, whatever the number of entries. A class's result adds its
 * gastos_captacao (category Captação, realizado). Keys whose entries are gone hold 0: left out.
 */
const RESULTADO_PARAMS = ['regiao', 'fot', 'agenda', 'de', 'ate'] as const;
const resultadoSums = cachedSelect({
  params: RESULTADO_PARAMS,
  build: (db, mode: ResultadoMode, p) => {
    const { regiao, fot } = p;
    const s = somasLancamentos;
    let scope: SQL;
    let captacao = sql``;
    if (mode === 'fot') {
      scope = sql`${s.escopo} = 'fot' and ${s.chave} = ${fot}`;
      captacao = sql`union all
      select (select c.id from categorias_financeiras c where c.regiao = f.regiao and c.sistema = 'captacao'),
             'despesa', 0, f.gastos_captacao_centavos
      from cadastro_fot f where f.id = ${fot} and f.regiao = ${regiao} and f.gastos_captacao_centavos > 0`;
    } else if (mode === 'agenda') scope = sql`${s.escopo} = 'evento' and ${s.chave} = ${p.agenda}`;
    else scope = sql`${s.escopo} = 'dia' and ${s.chave} between ${p.de} and ${p.ate}`;

    // A drizzle select over a SQL source (a raw db.all() cannot join a D1 batch).
    const source = sql`(
      select ${s.categoriaId} as categoria_id, ${s.tipo} as tipo, ${s.previsto} as previsto, ${s.realizado} as realizado
      from ${s} where ${s.regiao} = ${regiao} and ${scope}
      ${captacao}
    ) x join categorias_financeiras c on c.id = x.categoria_id`;
    return db
      .select({
        categoria_id: sql<string>`x.categoria_id`.as('categoria_id'),
        nome: sql<string>`c.nome`.as('nome'),
        tipo: sql<TipoLancamento>`x.tipo`.as('tipo'),
        previsto: sql<number>`sum(x.previsto)`.as('previsto'),
        realizado: sql<number>`sum(x.realizado)`.as('realizado'),
      })
      .from(source)
      .groupBy(sql`x.categoria_id, x.tipo`)
      .having(sql`sum(x.previsto) <> 0 or sum(x.realizado) <> 0`)
      .orderBy(sql`x.tipo desc, c.nome_key`);
  },
});

const resultadoExists = cachedSelect({
  params: RESULTADO_PARAMS,
  build: (db, mode: ResultadoMode, p) =>
    mode === 'fot'
      ? db
          .select({ id: cadastroFot.id })
          .from(cadastroFot)
          .where(and(eq(cadastroFot.id, p.fot), eq(cadastroFot.regiao, p.regiao)))
      : mode === 'agenda'
        ? db
            .select({ id: agenda.id })
            .from(agenda)
            .where(and(eq(agenda.id, p.agenda), eq(agenda.regiao, p.regiao)))
        : db.select({ id: sql<string>`'periodo'` }).from(sql`(select 1) p`),
});

/** The answer from the selects' rows: 404 when the FOT or event is not in the region. */
export function resultadoAnswer(q: ResultadoQuery, found: unknown[], rows: unknown[]) {
  if (!found[0]) throw new ApiError('NOT_FOUND', q.fot_id ? 'FOT não encontrado' : 'evento não encontrado');
  return toResultado(rows as ResultadoRow[]);
}

export function toResultado(rows: ResultadoRow[]) {
  const sum = (tipo: TipoLancamento, k: 'previsto' | 'realizado') =>
    rows.filter((r) => r.tipo === tipo).reduce((s, r) => s + r[k], 0);
  const prev = { receitas: sum('receita', 'previsto'), despesas: sum('despesa', 'previsto') };
  const real = { receitas: sum('receita', 'realizado'), despesas: sum('despesa', 'realizado') };
  const receitas = prev.receitas + real.receitas;
  const despesas = prev.despesas + real.despesas;
  const res = receitas - despesas;
  return {
    receitas: fromCentavos(receitas),
    despesas: fromCentavos(despesas),
    resultado: fromCentavos(res),
    margem_pct: receitas === 0 ? null : Math.round((res * 10_000) / receitas) / 100,
    previsto: { receitas: fromCentavos(prev.receitas), despesas: fromCentavos(prev.despesas) },
    realizado: { receitas: fromCentavos(real.receitas), despesas: fromCentavos(real.despesas) },
    por_categoria: rows.map((r) => ({
      categoria_id: r.categoria_id,
      nome: r.nome,
      tipo: r.tipo,
      previsto: fromCentavos(r.previsto),
      realizado: fromCentavos(r.realizado),
    })),
  };
}
