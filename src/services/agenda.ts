import { eq, sql } from 'drizzle-orm';
import { agenda, anosFormaturas, cadastroFot, cursos, empresas, tiposEventos, type AgendaRow } from '../db/schema';
import type { Db } from '../env';
import { rowToWire } from '../db/wire';
import type { AgendaResponse } from '../routes/agenda/agenda.schemas';

/** Agenda entries with their FOT record (and its names) and event type: one query. Names aliased (see selectFots). */
export const selectAgenda = (db: Db) =>
  db
    .select({
      e: agenda,
      fotNumero: sql<number>`${cadastroFot.fot}`.as('fot_numero'),
      fotInstituicao: sql<string | null>`${cadastroFot.instituicao}`.as('fot_instituicao'),
      fotCidade: sql<string | null>`${cadastroFot.cidade}`.as('fot_cidade'),
      fotEstado: sql<string | null>`${cadastroFot.estado}`.as('fot_estado'),
      empresaNome: sql<string>`${empresas.label}`.as('empresa_nome'),
      cursoNome: sql<string>`${cursos.label}`.as('curso_nome'),
      anoLabel: sql<string>`${anosFormaturas.label}`.as('ano_formatura_label'),
      tipoEventoNome: sql<string>`${tiposEventos.label}`.as('tipo_evento_nome'),
    })
    .from(agenda)
    .innerJoin(cadastroFot, eq(cadastroFot.id, agenda.fotId))
    .innerJoin(empresas, eq(empresas.id, cadastroFot.empresaId))
    .innerJoin(cursos, eq(cursos.id, cadastroFot.cursoId))
    .innerJoin(anosFormaturas, eq(anosFormaturas.id, cadastroFot.anoFormaturaId))
    .innerJoin(tiposEventos, eq(tiposEventos.id, agenda.tipoEventoId));

type AgendaView = Awaited<ReturnType<typeof selectAgenda>>[number];

export function toAgendaResponse(v: AgendaView): AgendaResponse {
  const e: AgendaRow = v.e;
  return {
    ...(rowToWire(agenda, e) as Omit<AgendaResponse, 'fot' | 'tipo_evento'>),
    fot: {
      id: e.fotId,
      fot: v.fotNumero,
      instituicao: v.fotInstituicao,
      cidade: v.fotCidade,
      estado: v.fotEstado,
      empresa_nome: v.empresaNome,
      curso_nome: v.cursoNome,
      ano_formatura_label: v.anoLabel,
    },
    tipo_evento: { id: e.tipoEventoId, nome: v.tipoEventoNome },
  };
}
