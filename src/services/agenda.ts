import { asc, count, eq, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import { preparedSelect } from '../db/fast-select';
import { placeholderScope, scopeShape, scopeValues, type Scope, type ScopeShape } from '../middleware/auth';
import { agendaVisible } from './agenda-policy';
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

// The reads' selects, prepared per scope shape and filters set, so their SQL is built once.
const ph = sql.placeholder;
type ListShape = ScopeShape & { de: boolean; ate: boolean; fot: boolean; paged: boolean };
const listWhere = (s: ListShape) =>
  agendaVisible(
    placeholderScope(s),
    ph('regiao'),
    s.de ? gte(agenda.dataEvento, ph('de')) : undefined,
    s.ate ? lte(agenda.dataEvento, ph('ate')) : undefined,
    s.fot ? eq(agenda.fotId, ph('fot')) : undefined,
  );
const listEvents = preparedSelect((db: Db, s: ListShape) =>
  selectAgenda(db)
    .where(listWhere(s))
    .orderBy(...agendaOrder)
    .limit(ph('limit'))
    .offset(ph('offset')),
);
const listTeams = preparedSelect((db: Db, s: ListShape) => {
  const pageIds = db
    .select({ id: agenda.id })
    .from(agenda)
    .where(listWhere(s))
    .orderBy(...agendaOrder)
    .limit(ph('limit'))
    .offset(ph('offset'));
  return equipeQuery(db, s.paged ? inArray(agenda.id, pageIds) : listWhere(s));
});
const listCount = preparedSelect((db: Db, s: ListShape) => db.select({ n: count() }).from(agenda).where(listWhere(s)));

export interface AgendaFilters {
  de?: string;
  ate?: string;
  fot_id?: string;
}

/** A page of the events the user may see, their team rows and (paged) the total, for one batch; `joinTeams` assembles them. */
export function agendaListSelects(db: Db, user: Scope, regiao: string, f: AgendaFilters, page: Page) {
  const shape = {
    ...scopeShape(user),
    de: f.de !== undefined,
    ate: f.ate !== undefined,
    fot: f.fot_id !== undefined,
    paged: isPaged(page),
  };
  const values = {
    ...scopeValues(user),
    regiao,
    de: f.de ?? null,
    ate: f.ate ?? null,
    fot: f.fot_id ?? null,
    ...pageBounds(page),
  };
  // Unpaged, the total is the length: no count.
  return [
    listEvents(db, shape, values),
    listTeams(db, shape, values),
    ...(shape.paged ? [listCount(db, shape, values)] : []),
  ] as const;
}

const oneWhere = (s: ScopeShape) => agendaVisible(placeholderScope(s), ph('regiao'), eq(agenda.id, ph('id')));
const oneEvent = preparedSelect((db: Db, s: ScopeShape) => selectAgenda(db).where(oneWhere(s)));
const oneTeams = preparedSelect((db: Db, s: ScopeShape) => equipeQuery(db, oneWhere(s)));

/** One event the user may see, and its team rows, for one batch. */
export function agendaByIdSelects(db: Db, user: Scope, regiao: string, id: string) {
  const shape = scopeShape(user);
  const values = { ...scopeValues(user), regiao, id };
  return [oneEvent(db, shape, values), oneTeams(db, shape, values)] as const;
}

/** The events (one page, when paged) and the team rows of exactly those events. */
function agendaQueries(db: Db, where: SQL | undefined, page: Page) {
  const { limit, offset } = pageBounds(page);
  const events = selectAgenda(db)
    .where(where)
    .orderBy(...agendaOrder)
    .limit(limit)
    .offset(offset);
  const pageIds = db
    .select({ id: agenda.id })
    .from(agenda)
    .where(where)
    .orderBy(...agendaOrder)
    .limit(limit)
    .offset(offset);
  const teams = equipeQuery(db, isPaged(page) ? inArray(agenda.id, pageIds) : where);
  return [events, teams] as const;
}

export function joinTeams(rows: AgendaView[], teamRows: EquipeRow[]) {
  const byAgenda = groupEquipe(teamRows);
  return rows.map((row) => toAgendaResponse(row, byAgenda.get(row.e.id) ?? []));
}
