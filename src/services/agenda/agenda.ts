import { and, asc, eq, gte, lte, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { Db } from '../../db/client';
import {
  agenda,
  anosFormaturas,
  cidades,
  cadastroFot,
  convites,
  cursos,
  empresas,
  instituicoes,
  profissionais,
  tiposEventos,
} from '../../db/schema';
import type { Placeholders } from '../../db/cached-batch';
import type { Scope, SqlScope } from '../../db/scope';
import { keptOrCounted } from '../../db/kept-count';
import { scopedSelect } from '../../db/scoped-select';
import { wireColumns, wireToRow } from '../../db/wire';
import { writeThenRead } from '../../db/write-read';
import { ApiError } from '../../lib/errors';
import { isPaged, pageBounds, type Page } from '../../lib/pagination';
import { agendaExists, agendaNotifications, agendaRecipients, prepareAgendaNotifications } from './agenda-notify';
import { derivedFromEquipe, equipeOfEvents, equipeQuery, groupEquipe, type EquipeItem, type EquipeRow } from './equipe';
import { prepareNotifications } from '../core/notifications';
import { assertRefsInRegion } from '../core/references';
import type { Ctx, QueryCtx } from '../core/context';
import { unknownCity, type CidadeRef } from '../places/cidades';
import { created, loggedDelete, loggedUpdate, logStatement } from '../core/activity-log';

/** The agenda entries a user may see and act on, beyond the region filter; undefined = all. */
export function agendaScope(user: SqlScope): SQL | undefined {
  switch (user.role) {
    case 'agenda_viewer':
      return eq(agenda.userId, user.id);
    case 'EVENT_OWNER':
      if (!user.empresaId) return sql`0`;
      return sql`${agenda.fotId} in (select ${cadastroFot.id} from ${cadastroFot} where ${cadastroFot.empresaId} = ${user.empresaId})`;
    case 'profissional':
      // Events it is invited to, applied to or on the team of (not declined), through its linked profile.
      return sql`${agenda.id} in (select ${convites.agendaId} from ${convites} where ${convites.status} in ('pendente', 'aceito', 'solicitado', 'espera')
        and ${convites.profissionalId} in (select ${profissionais.id} from ${profissionais} where ${profissionais.usuarioId} = ${user.id}))`;
    case 'RESEARCHER':
      return sql`0`;
    default:
      return undefined;
  }
}

/**
 * Region plus what the caller's role may see (docs/decisions.md#d4): the one filter every agenda route
 * applies. A professional's events (its invitations) and an EVENT_OWNER's (its companies' records)
 * are a few of the region's: `+regiao` keeps SQLite from walking the region's every event in date
 * order to find them, so it starts from the caller's own rows (test/perf/query-plans.test.ts).
 */
export function visible(user: SqlScope, regiao: string | Placeholder, ...more: (SQL | undefined)[]) {
  const own = user.role === 'profissional' || user.role === 'EVENT_OWNER';
  return and(own ? sql`+${agenda.regiao} = ${regiao}` : eq(agenda.regiao, regiao), agendaScope(user), ...more);
}

/** Agenda entries with their FOT record (and its names) and event type: one query. Names aliased (see selectFots). */
export const selectAgenda = (db: Db) =>
  db
    .select({
      e: wireColumns(agenda),
      fotNumero: sql<number>`${cadastroFot.fot}`.as('fot_numero'),
      // The institution's catalog name when the record has one (docs/decisions.md#d23), else its text.
      fotInstituicao: sql<
        string | null
      >`coalesce((select ${instituicoes.label} from ${instituicoes} where ${instituicoes.id} = ${cadastroFot.instituicaoId}), ${cadastroFot.instituicao})`.as(
        'fot_instituicao',
      ),
      fotCidade: sql<string | null>`${cadastroFot.cidade}`.as('fot_cidade'),
      fotEstado: sql<string | null>`${cadastroFot.estado}`.as('fot_estado'),
      empresaNome: sql<string>`${empresas.label}`.as('empresa_nome'),
      cursoNome: sql<string>`${cursos.label}`.as('curso_nome'),
      anoLabel: sql<string>`${anosFormaturas.label}`.as('ano_formatura_label'),
      tipoEventoNome: sql<string>`${tiposEventos.label}`.as('tipo_evento_nome'),
      cidadeNome: sql<string | null>`${cidades.nome}`.as('cidade_nome'),
      cidadeUf: sql<string | null>`${cidades.uf}`.as('cidade_uf'),
    })
    .from(agenda)
    .innerJoin(cadastroFot, eq(cadastroFot.id, agenda.fotId))
    .innerJoin(empresas, eq(empresas.id, cadastroFot.empresaId))
    .innerJoin(cursos, eq(cursos.id, cadastroFot.cursoId))
    .innerJoin(anosFormaturas, eq(anosFormaturas.id, cadastroFot.anoFormaturaId))
    .innerJoin(tiposEventos, eq(tiposEventos.id, agenda.tipoEventoId))
    .leftJoin(cidades, eq(cidades.codigoIbge, agenda.cidadeIbge));

type AgendaView = Awaited<ReturnType<typeof selectAgenda>>[number];

/** An agenda event as the API answers it (the routes' AgendaSchema documents it). */
type N = number | null;
type S = string | null;
export interface AgendaBody {
  id: string;
  user_id: S;
  regiao: string;
  fot_id: string;
  tipo_evento_id: string;
  data_evento: string;
  horario: S;
  horario_fim: S;
  local_evento: S;
  endereco: S;
  cidade_ibge: N;
  latitude: N;
  longitude: N;
  cidade: CidadeRef | null;
  observacoes_evento: S;
  logistica_observacoes: S;
  status_profissionais: S;
  pre_venda: boolean | null;
  qtd_formandos: N;
  qtd_fotografos: N;
  qtd_cinegrafistas: N;
  qtd_recepcionistas: N;
  qtd_estudios: N;
  qtd_ponto_foto: N;
  qtd_ponto_id: N;
  qtd_ponto_decorado: N;
  qtd_pontos_led: N;
  qtd_plataforma_360: N;
  foto_faltante: N;
  cine_faltante: N;
  recep_faltante: N;
  chave_externa: S;
  created_at: string;
  updated_at: string;
  fot: {
    id: string;
    fot: number;
    instituicao: string | null;
    cidade: string | null;
    estado: string | null;
    empresa_nome: string;
    curso_nome: string;
    ano_formatura_label: string;
  };
  tipo_evento: { id: string; nome: string };
  equipe: EquipeItem[];
}

export function toAgendaResponse(v: AgendaView, equipe: EquipeItem[]): AgendaBody {
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
  out.cidade = v.e.cidade_ibge === null ? null : { codigo_ibge: v.e.cidade_ibge, nome: v.cidadeNome!, uf: v.cidadeUf! };
  out.equipe = equipe;
  return out as unknown as AgendaBody;
}

export const agendaOrder = [asc(agenda.dataEvento), asc(agenda.horario), asc(agenda.id)];

/**
 * Agenda events matching `where` with their teams, after the given writes, in ONE batch (one
 * round trip, atomic with the writes): the events, then every team row of those events.
 */
export async function readAgenda(db: Db, where: SQL | undefined, writes: BatchItem<'sqlite'>[] = []) {
  const [events, teams] = await writeThenRead(db, writes, agendaQueries(db, where, {}));
  return joinTeams(events, teams);
}

// The reads, cached per scope shape and filters set (db/scoped-select.ts).
type ListSwitches = { de: boolean; ate: boolean; fot: boolean; paged: boolean };
const LIST_PARAMS = ['regiao', 'de', 'ate', 'fot', 'limit', 'offset'] as const;
type ListParams = Placeholders<(typeof LIST_PARAMS)[number]>;
const listWhere = (scope: SqlScope, x: ListSwitches, p: ListParams) =>
  visible(
    scope,
    p.regiao,
    x.de ? gte(agenda.dataEvento, p.de) : undefined,
    x.ate ? lte(agenda.dataEvento, p.ate) : undefined,
    x.fot ? eq(agenda.fotId, p.fot) : undefined,
  );
const listEvents = scopedSelect({
  params: LIST_PARAMS,
  build: (db, scope, p, x: ListSwitches) =>
    selectAgenda(db)
      .where(listWhere(scope, x, p))
      .orderBy(...agendaOrder)
      .limit(p.limit)
      .offset(p.offset),
});
const listTeams = scopedSelect({
  params: LIST_PARAMS,
  build: (db, scope, p, x: ListSwitches) => {
    const pageIds = db
      .select({ id: agenda.id })
      .from(agenda)
      .where(listWhere(scope, x, p))
      .orderBy(...agendaOrder)
      .limit(p.limit)
      .offset(p.offset);
    return x.paged ? equipeOfEvents(db, pageIds) : equipeQuery(db, listWhere(scope, x, p));
  },
});
const listCount = scopedSelect({
  params: LIST_PARAMS,
  build: (db, scope, p, x: ListSwitches) => {
    const dono = x.de || x.ate || x.fot ? undefined : keptTotalOwner(scope);
    return keptOrCounted(db, { tabela: 'agenda', regiao: p.regiao, dono }, agenda, listWhere(scope, x, p));
  },
});

/**
 * The `contagens` row that holds the unfiltered total of what agendaScope lets `user` see: the
 * region's ('') for the roles that see all of it, its own for an agenda_viewer (agenda.user_id);
 * undefined for the others, whose totals are counted.
 */
function keptTotalOwner(user: SqlScope): string | Placeholder | undefined {
  if (user.role === 'agenda_viewer') return user.id;
  return agendaScope(user) === undefined ? '' : undefined;
}

export interface AgendaFilters {
  de?: string;
  ate?: string;
  fot_id?: string;
}

/** A page of the events the user may see, their team rows and (paged) the total, for one batch; `joinTeams` assembles them. */
export function agendaListSelects({ db, regiao }: QueryCtx, scope: Scope, q: AgendaFilters & Page) {
  const { de, ate, fot_id, ...page } = q;
  const f = { de, ate, fot_id };
  const x = { de: f.de !== undefined, ate: f.ate !== undefined, fot: f.fot_id !== undefined, paged: isPaged(page) };
  const values = { regiao, de: f.de ?? null, ate: f.ate ?? null, fot: f.fot_id ?? null, ...pageBounds(page) };
  // Unpaged, the total is the length: no count.
  return [
    listEvents(db, scope, values, x),
    listTeams(db, scope, values, x),
    ...(x.paged ? [listCount(db, scope, values, x)] : []),
  ] as const;
}

const oneWhere = (scope: SqlScope, p: Placeholders<'regiao' | 'id'>) => visible(scope, p.regiao, eq(agenda.id, p.id));
const oneEvent = scopedSelect({
  params: ['regiao', 'id'],
  build: (db, scope, p) => selectAgenda(db).where(oneWhere(scope, p)),
});
const oneTeams = scopedSelect({
  params: ['regiao', 'id'],
  build: (db, scope, p) => equipeQuery(db, oneWhere(scope, p)),
});

/** One event the user may see, and its team rows, for one batch. */
export function agendaByIdSelects({ db, regiao }: QueryCtx, scope: Scope, id: string) {
  const values = { regiao, id };
  return [oneEvent(db, scope, values), oneTeams(db, scope, values)] as const;
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
  const teams = isPaged(page) ? equipeOfEvents(db, pageIds) : equipeQuery(db, where);
  return [events, teams] as const;
}

export function joinTeams(rows: AgendaView[], teamRows: EquipeRow[]) {
  const byAgenda = groupEquipe(teamRows);
  return rows.map((row) => toAgendaResponse(row, byAgenda.get(row.e.id) ?? []));
}

const notFound = () => new ApiError('NOT_FOUND', 'evento não encontrado');

/** The agenda fields a create or update may carry (validated by the route). */
export interface AgendaInput {
  fot_id?: string;
  tipo_evento_id?: string;
  data_evento?: string;
  [field: string]: unknown;
}

const refs = (b: AgendaInput) => [
  { field: 'fot_id', table: cadastroFot, id: b.fot_id },
  { field: 'tipo_evento_id', table: tiposEventos, id: b.tipo_evento_id },
];

/** One event: the caller's own if single, or 404. */
export function oneAgenda(events: AgendaBody[]) {
  if (!events[0]) throw notFound();
  return events[0];
}

/**
 * Venue coordinates come in pairs (docs/decisions.md#d23): both numbers, both null, or neither sent.
 * A check of the service (400 without `campos`): the document cannot state a rule between two fields.
 */
function coordinatesPaired(b: AgendaInput) {
  const lat = b.latitude as number | null | undefined;
  const lon = b.longitude as number | null | undefined;
  if ((lat === undefined) !== (lon === undefined) || (lat === null) !== (lon === null))
    throw new ApiError('VALIDATION_FAILED', 'longitude: latitude e longitude vão juntas: informe as duas ou nenhuma');
}

export async function createAgenda({ db, log, user, regiao, push }: Ctx, body: AgendaInput) {
  coordinatesPaired(body);
  const id = crypto.randomUUID();
  // Who to notify is found in the reference check's query: no round trip of its own (docs/decisions.md#d10).
  const found = await assertRefsInRegion(
    { db, regiao },
    refs(body),
    agendaRecipients(user.id, { id, fotId: body.fot_id }),
  );
  const notes = prepareNotifications(
    db,
    agendaNotifications('agenda_criada', { id, dataEvento: body.data_evento }, found),
  );
  const values = { ...wireToRow(agenda, body), id, regiao, userId: user.id } as typeof agenda.$inferInsert;
  const entry = logStatement(db, log, {
    acao: 'agenda.create',
    entidade: 'agenda',
    entidadeId: id,
    regiao,
    dados: created(agenda, values),
  });
  const event = oneAgenda(
    await readAgenda(db, eq(agenda.id, id), [db.insert(agenda).values(values), entry, ...notes.insert]).catch(
      unknownCity(body.cidade_ibge),
    ),
  );
  push(notes.push);
  return event;
}

export async function updateAgenda({ db, log, user, regiao, push }: Ctx, id: string, body: AgendaInput) {
  coordinatesPaired(body);
  const where = visible(user, regiao, eq(agenda.id, id));
  const found = await assertRefsInRegion(
    { db, regiao },
    refs(body),
    agendaRecipients(user.id, { id, fotId: body.fot_id }),
  );
  // Written only if the update finds the event (the guard runs in the batch).
  const notes = prepareNotifications(
    db,
    agendaNotifications('agenda_alterada', { id, dataEvento: body.data_evento }, found),
    { when: agendaExists(where) },
  );
  // id, regiao and user_id are not request fields, so a body cannot move an event.
  const set = { ...wireToRow(agenda, body), updatedAt: new Date().toISOString() };
  const [entry, update] = loggedUpdate(
    { db, log },
    { table: agenda, where, set },
    { acao: 'agenda.update', entidade: 'agenda', regiao },
  );
  const event = oneAgenda(
    await readAgenda(db, where, [entry, update, ...notes.insert]).catch(unknownCity(body.cidade_ibge)),
  );
  push(notes.push);
  return event;
}

export async function deleteAgenda(ctx: Ctx, id: string) {
  const { db, log, user, regiao, push } = ctx;
  const where = visible(user, regiao, eq(agenda.id, id));
  // Recipients before the delete (it takes the team with it); written only if the delete happens.
  const notes = await prepareAgendaNotifications(ctx, 'agenda_excluida', { id, where });
  const [entry, remove] = loggedDelete(
    { db, log },
    { table: agenda, where },
    { acao: 'agenda.delete', entidade: 'agenda', regiao },
  );
  const [gone] = await writeThenRead(db, [...notes.insert, entry], [remove]);
  if (gone.meta.changes === 0) throw notFound();
  push(notes.push);
}
