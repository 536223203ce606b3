import { ApiError } from '../../lib/errors';
import type { CapacidadeQuery, EventoSimulado } from './capacidade';

/**
 * POST /api/planejamento/simulacao's input (docs/decisions.md#d26): the hypothetical events as one JSON
 * parameter of the planner's statements, and the references they name, checked as creating the
 * events would check them.
 */

type Row = Record<string, unknown>;

/** The references the hypothetical events name, each checked against the region in the planner's batch. */
export interface Refs {
  tipos: string[];
  funcoes: string[];
  instituicoes: string[];
}

/** The hypothetical events as one JSON parameter, and the references to check. 400 for one outside the range. */
export function simulation(simulados: EventoSimulado[], q: CapacidadeQuery) {
  simulados.forEach((s, i) => {
    if (s.data_evento < q.de || s.data_evento > q.ate)
      throw new ApiError('VALIDATION_FAILED', `eventos.${i}.data_evento: fora do período de ${q.de} a ${q.ate}`);
  });
  const json = JSON.stringify(
    simulados.map((s) => ({
      data_evento: s.data_evento,
      horario: s.horario ?? null,
      horario_fim: s.horario_fim ?? null,
      cidade_ibge: s.cidade_ibge ?? null,
    })),
  );
  const uniq = (xs: (string | null | undefined)[]) => [...new Set(xs.filter((x): x is string => !!x))];
  const refs: Refs = {
    tipos: uniq(simulados.map((s) => s.tipo_evento_id)),
    funcoes: uniq(simulados.flatMap((s) => (s.equipe ?? []).map((t) => t.funcao_id))),
    instituicoes: uniq(simulados.map((s) => s.instituicao_id)),
  };
  return { json, refs };
}

/** 404 for a reference missing from the region, 400 for an unknown city (as creating the event would answer). */
export function checkSimulation(missing: Row[], cities: Row[], simulados: EventoSimulado[]) {
  const first = missing[0];
  if (first)
    throw new ApiError(
      'NOT_FOUND',
      `${first.campo as string}: registro não encontrado na região (${first.id as string})`,
    );
  const known = new Set(cities.map((c) => Number(c.codigo_ibge)));
  const i = simulados.findIndex((s) => s.cidade_ibge != null && !known.has(s.cidade_ibge));
  if (i >= 0) throw new ApiError('VALIDATION_FAILED', `eventos.${i}.cidade_ibge: cidade não encontrada`);
}
