import { asc, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { isPaged, pageBounds, type Page } from '../lib/pagination';
import type { BatchItem } from 'drizzle-orm/batch';
import { agenda, anosFormaturas, cadastroFot, cursos, empresas, tiposEventos } from '../db/schema';
import type { Db } from '../env';
import { wireColumns } from '../db/wire';
import type { AgendaResponse } from '../routes/agenda/agenda.schemas';
import { derivedFromEquipe, equipeQuery, groupEquipe, type EquipeItem, type EquipeRow } from './convites';

/** Agenda entries with their FOT record (and its names) and event type: one query. Names aliased (see selectFots). */
export const selectAgenda = (db: Db) =>
  db
    .select({
      e: wireColumns(agenda),
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

export function toAgendaResponse(v: AgendaView, equipe: EquipeItem[]): AgendaResponse {
  // The event's columns come out in wire names; the view's fresh object is completed in place
  // (no copies: a whole-region list converts thousands of events).
  const out: Record<string, unknown> = v.e;
  if (equipe.length > 0) Object.assign(out, derivedFromEquipe(equipe));
  out.fot = {
    id: v.e.fot_id,
    fot: v.fotNumero,
    instituicao: v.fotInstituicao,
    cidade: v.fotCidade,
    estado: v.fotEstado,
    empresa_nome: v.empresaNome,
    curso_nome: v.cursoNome,
    ano_formatura_label: v.anoLabel,
  };
  out.tipo_evento = { id: v.e.tipo_evento_id, nome: v.tipoEventoNome };
  out.equipe = equipe;
  return out as AgendaResponse;
}

export const agendaOrder = [asc(agenda.dataEvento), asc(agenda.horario), asc(agenda.id)];

/**
 * Agenda events matching `where` with their teams, after the given writes, in ONE batch (one
 * round trip, atomic with the writes): the events, then every team row of those events.
 */
export async function readAgenda(db: Db, where: SQL | undefined, writes: BatchItem<'sqlite'>[] = []) {
  const [events, teams] = agendaQueries(db, where, {});
  const results = await db.batch([...writes, events, teams] as unknown as [typeof events, typeof teams]);
  return joinTeams(results.at(-2) as Awaited<typeof events>, results.at(-1) as Awaited<typeof teams>);
}

/** A page of events, their team rows and the total, to run in one batch; `joinTeams` assembles them. */
export function agendaPageQueries(db: Db, where: SQL | undefined, page: Page) {
  const [events, teams] = agendaQueries(db, where, page);
  return [events, teams, db.select({ n: count() }).from(agenda).where(where)] as const;
}

/** The events (one page, when paged) and the team rows of exactly those events. */
export function agendaQueries(db: Db, where: SQL | undefined, page: Page) {
  const { limit, offset } = pageBounds(page);
  const events = selectAgenda(db).where(where).orderBy(...agendaOrder).limit(limit).offset(offset);
  const pageIds = db.select({ id: agenda.id }).from(agenda).where(where).orderBy(...agendaOrder).limit(limit).offset(offset);
  const teams = equipeQuery(db, isPaged(page) ? inArray(agenda.id, pageIds) : where);
  return [events, teams] as const;
}

export function joinTeams(rows: AgendaView[], teamRows: EquipeRow[]) {
  const byAgenda = groupEquipe(teamRows);
  return rows.map((row) => toAgendaResponse(row, byAgenda.get(row.e.id) ?? []));
}
