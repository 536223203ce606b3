import { and, asc, eq, gte, lte, sql } from 'drizzle-orm';
import {
  agenda,
  agendaEquipe,
  cadastroFot,
  contagens,
  convites,
  disponibilidades,
  funcoes,
  precos,
  profissionais,
  profissionalFuncoes,
  tiposEventos,
} from '../../db/schema';
import type { Placeholders } from '../../db/cached-batch';
import type { Scope } from '../../db/scope';
import { scopedSelect } from '../../db/scoped-select';
import { saoPauloDate } from '../../lib/dates';
import { ApiError } from '../../lib/errors';
import { fromCentavos } from '../../lib/money';
import { isPaged, pageBounds, type Page } from '../../lib/pagination';
import { type TravelConflict } from './acceptance';
import { listedProfile } from '../professionals/profissionais';
import { MAX_RANGE_DAYS } from '../availability/disponibilidades';
import { coversDay, unavailableForAgenda, unavailableForEvent, type DeclSql } from '../availability/rule';
import { acceptedOverlap, travelConflictOf, type TravelRule } from './time-window';
import type { Ctx } from '../core/context';

// Job listings (docs/decisions.md#d17); applying to one: candidatura.ts.

export interface VagasFilters {
  funcao_id?: string;
  tipo_evento_id?: string;
  de?: string;
  ate?: string;
  cidade?: string;
  uf?: string;
}

export const noProfile = () => new ApiError('NOT_FOUND', 'perfil profissional não encontrado para este usuário');

// The listing's reads, cached per isolate and shape (db/scoped-select.ts): the shape is which filters
// are set; the caller, the dates, the filters' values and the page bind as placeholders. Built per
// request, the three selects and their SQL took about 430 µs (Node), plus compiling their row mappers.
const VAGAS_PARAMS = [
  'desde',
  'ate',
  'funcao',
  'tipo',
  'cidade',
  'uf',
  'limit',
  'offset',
  'mesma_cidade',
  'margem',
] as const;
type P = Placeholders<(typeof VAGAS_PARAMS)[number]>;
type VagasShape = {
  funcao: boolean;
  tipo: boolean;
  ate: boolean;
  cidade: boolean;
  uf: boolean;
};

/**
 * Places left: agenda_equipe keeps its event's count of accepted invitations (`aceitos`, kept by
 * triggers: drizzle/0018_vagas_triggers.sql). Written as the literal terms of agenda_equipe_vagas_idx's
 * WHERE, which SQLite uses only when the query states them (a bound `?` for `publicar` is not).
 */
const openPlace = sql`${agendaEquipe.publicar} = 1 and ${agendaEquipe.quantidade} > ${agendaEquipe.aceitos}`;

/** The filter on the event itself (the page joins it; the total looks it up). */
const typeFilter = (x: VagasShape, p: P) => (x.tipo ? eq(agenda.tipoEventoId, p.tipo) : undefined);

/**
 * The filters on the event's FOT record's city and state, on the team row's kept copies
 * (drizzle/0040): agenda_equipe_vagas_cidade_idx / _uf_idx lead to the matching places.
 */
const placeFilters = (x: VagasShape, p: P) => [
  x.cidade ? sql`${agendaEquipe.cidade} = ${p.cidade} collate nocase` : undefined,
  x.uf ? eq(agendaEquipe.uf, p.uf) : undefined,
];

/**
 * Filtered by city (few places), the page starts from the places that match
 * (agenda_equipe_vagas_cidade_idx) and sorts them: the terms that lead that index (the place's kept
 * region and date, drizzle/0018; the caller's functions) and `+regiao` keeping SQLite off
 * agenda_regiao_data_idx. Otherwise the page walks the region's events in date order and stops
 * after its rows.
 */
const fromCityPlaces = (p: P) => [
  sql`+${agenda.regiao} = ${profissionais.regiao}`,
  sql`${agendaEquipe.regiao} = ${profissionais.regiao}`,
  sql`${agendaEquipe.dataEvento} >= ${p.desde}`,
  sql`${agendaEquipe.funcaoId} in (select ${profissionalFuncoes.funcaoId} from ${profissionalFuncoes} where ${profissionalFuncoes.profissionalId} = ${profissionais.id})`,
];

/**
 * Filtered by one function (and perhaps a state), the page walks that function's open places in
 * their kept date order (agenda_equipe_vagas_idx, or _uf_idx with a state) and stops after its
 * rows, instead of every event of the region: `+regiao` keeps SQLite off agenda_regiao_data_idx,
 * and the page is ordered by the place's kept copy of its event's date (placesFirst).
 */
const fromFunctionPlaces = (x: VagasShape, p: P) => [
  sql`+${agenda.regiao} = ${profissionais.regiao}`,
  sql`${agendaEquipe.regiao} = ${profissionais.regiao}`,
  sql`${agendaEquipe.dataEvento} >= ${p.desde}`,
  x.ate ? sql`${agendaEquipe.dataEvento} <= ${p.ate}` : undefined,
];

/**
 * Where the page starts: the city's open places, one function's, or the region's events in date
 * order (agenda_regiao_data_idx). Decides the page's leading terms and its date column.
 */
const pageStart = (x: VagasShape) => (x.cidade ? 'cidade' : x.funcao ? 'funcao' : 'eventos');

/** The page's order: the event's date (the place's kept copy when it walks one function's places), time, id, function. */
const vagasOrder = (x: VagasShape) => [
  asc(pageStart(x) === 'funcao' ? agendaEquipe.dataEvento : agenda.dataEvento),
  asc(agenda.horario),
  asc(agenda.id),
  asc(funcoes.labelKey),
];

/**
 * The listing's rows for the caller: published functions it holds, of events in its profile's
 * region from `desde` (today in São Paulo, or a later `de`) on, with places left, where it has no
 * invitation yet. The profile is joined, so no profile means no rows.
 */
function vagasWhere(x: VagasShape, p: P) {
  return and(
    openPlace,
    ...{
      cidade: () => fromCityPlaces(p),
      funcao: () => fromFunctionPlaces(x, p),
      eventos: () => [eq(agenda.regiao, profissionais.regiao)],
    }[pageStart(x)](),
    gte(agenda.dataEvento, p.desde),
    x.ate ? lte(agenda.dataEvento, p.ate) : undefined,
    x.funcao ? eq(agendaEquipe.funcaoId, p.funcao) : undefined,
    typeFilter(x, p),
    ...placeFilters(x, p),
    sql`not exists (select 1 from ${convites} where ${convites.agendaId} = ${agenda.id} and ${convites.profissionalId} = ${profissionais.id})`,
    // Hidden on the caller's declared unavailability (docs/decisions.md#d24): a probe of its declarations.
    sql`not ${unavailableForEvent(sql`${profissionais.id}`, 'agenda')}`,
  );
}

/** The travel rule's placeholders. */
const ruleOf = (p: P): TravelRule => ({ mesmaCidade: sql`${p.mesma_cidade}`, margem: sql`${p.margem}` });

const vagasPage = scopedSelect({
  params: VAGAS_PARAMS,
  build: (db, scope, p, x: VagasShape) =>
    db
      .select({
        agendaId: agenda.id,
        dataEvento: agenda.dataEvento,
        horario: agenda.horario,
        horarioFim: agenda.horarioFim,
        localEvento: agenda.localEvento,
        cidade: cadastroFot.cidade,
        uf: cadastroFot.estado,
        tipoEventoId: agenda.tipoEventoId,
        tipoEventoNome: sql<string>`${tiposEventos.label}`.as('tipo_evento_nome'),
        funcaoId: agendaEquipe.funcaoId,
        funcaoNome: sql<string>`${funcoes.label}`.as('funcao_nome'),
        requerAprovacao: agendaEquipe.requerAprovacao,
        restantes: sql<number>`${agendaEquipe.quantidade} - ${agendaEquipe.aceitos}`.as('restantes'),
        valorCentavos: precos.valorCentavos,
        conflito: sql<number>`${acceptedOverlap(sql`${profissionais.id}`, sql`${agenda.id}`)}`.as('conflito'),
        // An event without a city has no travel rule: nothing to look up for it.
        deslocamento: sql<string | null>`case when ${agenda.cidadeIbge} is null then null
          else ${travelConflictOf(sql`${profissionais.id}`, sql`${agenda.id}`, ruleOf(p))} end`.as('deslocamento'),
      })
      .from(agendaEquipe)
      .innerJoin(agenda, eq(agenda.id, agendaEquipe.agendaId))
      .innerJoin(cadastroFot, eq(cadastroFot.id, agenda.fotId))
      .innerJoin(profissionais, and(eq(profissionais.usuarioId, scope.id), listedProfile))
      .innerJoin(
        profissionalFuncoes,
        and(
          eq(profissionalFuncoes.profissionalId, profissionais.id),
          eq(profissionalFuncoes.funcaoId, agendaEquipe.funcaoId),
        ),
      )
      .innerJoin(tiposEventos, eq(tiposEventos.id, agenda.tipoEventoId))
      .innerJoin(funcoes, eq(funcoes.id, agendaEquipe.funcaoId))
      .leftJoin(
        precos,
        and(
          eq(precos.tipoEventoId, agenda.tipoEventoId),
          eq(precos.funcaoProfissionalId, agendaEquipe.funcaoId),
          eq(precos.regiao, agenda.regiao),
        ),
      )
      .where(vagasWhere(x, p))
      .orderBy(...vagasOrder(x))
      .limit(p.limit)
      .offset(p.offset),
});

/**
 * The open places (agenda_equipe_vagas_idx) of the caller's functions in its region from `desde` on,
 * with the filters. `invited`: only those of events where the caller has an invitation, found from
 * its own invitations (few), each place by its primary key.
 */
function openPlaces(x: VagasShape, p: P, invited: boolean) {
  const byType = typeFilter(x, p);
  const where = and(
    invited ? eq(convites.profissionalId, profissionais.id) : undefined,
    eq(profissionalFuncoes.profissionalId, profissionais.id),
    invited ? eq(agendaEquipe.agendaId, convites.agendaId) : undefined,
    eq(agendaEquipe.funcaoId, profissionalFuncoes.funcaoId),
    openPlace,
    sql`${agendaEquipe.regiao} = ${profissionais.regiao}`,
    sql`${agendaEquipe.dataEvento} >= ${p.desde}`,
    x.ate ? sql`${agendaEquipe.dataEvento} <= ${p.ate}` : undefined,
    x.funcao ? eq(agendaEquipe.funcaoId, p.funcao) : undefined,
    ...placeFilters(x, p),
    byType
      ? sql`exists (select 1 from ${agenda} where ${and(eq(agenda.id, agendaEquipe.agendaId), byType)})`
      : undefined,
  );
  // CROSS JOIN fixes the order: the caller's invitations (when counted), its functions, the places.
  const from = invited
    ? sql`${convites} cross join ${profissionalFuncoes} cross join ${agendaEquipe}`
    : sql`${profissionalFuncoes} cross join ${agendaEquipe}`;
  return sql`select count(*) from ${from} where ${where}`;
}

/**
 * Day offsets 0..MAX_RANGE_DAYS + 1 (a declaration's days and the day before its first) as JSON
 * strings of one width, without the brackets: the first n of them are its first 6n - 1 characters, so
 * json_each yields a declaration's own days only (D1 counts each value it yields as a row read).
 */
const DAY_OFFSETS = Array.from({ length: MAX_RANGE_DAYS + 2 }, (_, n) => `"${String(n).padStart(3, '0')}"`).join(',');

/**
 * The open places (as openPlaces) of events hidden by the caller's `indisponivel` declarations and
 * where it has no invitation (those are counted apart), found from its declarations: for each one,
 * the days it covers and the day before each (whose event may reach into it), and on each such day
 * the places of the caller's functions (agenda_equipe_vagas_idx by date), each counted once. A day
 * the declaration does not cover (a weekday outside `dias_semana`) reads no place at all: walking the
 * whole range instead read every open place in it and probed each (docs/performance.md). The rule's
 * probe still decides each place found (unavailableForAgenda): a place is hidden only when some
 * declaration meets its window, and that declaration covers its day or the next.
 */
function unavailablePlaces(x: VagasShape, p: P) {
  const byType = typeFilter(x, p);
  const d = disponibilidades;
  const decl: DeclSql = {
    inicio: sql`${d.dataInicio}`,
    fim: sql`${d.dataFim}`,
    horaInicio: sql`${d.horaInicio}`,
    horaFim: sql`${d.horaFim}`,
    dias: sql`${d.diasSemana}`,
  };
  // The n-th day from the one before the declaration's first; its days and that one, as JSON.
  const day = sql`date(${d.dataInicio}, printf('%+d days', cast(dn.value as integer) - 1))`;
  const days = sql`'[' || substr(${DAY_OFFSETS}, 1, 6 * (cast(julianday(${d.dataFim}) - julianday(${d.dataInicio}) as integer) + 2) - 1) || ']'`;
  const where = and(
    eq(d.profissionalId, profissionais.id),
    eq(d.tipo, 'indisponivel'),
    sql`${d.dataFim} >= ${p.desde}`,
    x.ate ? sql`${d.dataInicio} <= date(${p.ate}, '+1 day')` : undefined,
    sql`${day} <= ${d.dataFim}`,
    sql`${day} >= ${p.desde}`,
    x.ate ? sql`${day} <= ${p.ate}` : undefined,
    sql`(${coversDay(decl, day)} or ${coversDay(decl, sql`date(${day}, '+1 day')`)})`,
    eq(profissionalFuncoes.profissionalId, profissionais.id),
    eq(agendaEquipe.funcaoId, profissionalFuncoes.funcaoId),
    openPlace,
    sql`${agendaEquipe.regiao} = ${profissionais.regiao}`,
    sql`${agendaEquipe.dataEvento} = ${day}`,
    x.funcao ? eq(agendaEquipe.funcaoId, p.funcao) : undefined,
    ...placeFilters(x, p),
    byType
      ? sql`exists (select 1 from ${agenda} where ${and(eq(agenda.id, agendaEquipe.agendaId), byType)})`
      : undefined,
    unavailableForAgenda(sql`${profissionais.id}`, sql`${agendaEquipe.agendaId}`),
    sql`not exists (select 1 from ${convites} where ${convites.agendaId} = ${agendaEquipe.agendaId} and ${convites.profissionalId} = ${profissionais.id})`,
  );
  // CROSS JOIN fixes the order: the declarations, their days, the caller's functions, the places.
  return sql`select count(distinct ${agendaEquipe.agendaId} || ${agendaEquipe.funcaoId})
    from ${d} cross join json_each(${days}) dn cross join ${profissionalFuncoes} cross join ${agendaEquipe}
    where ${where}`;
}

/**
 * openPlaces(x, false) from the counts kept per region, function and day (contagens 'vagas', kept by
 * triggers: drizzle/0022_kept_counts.sql): one row per function the caller holds and day with places
 * open, whatever the number of events. Only without filters on the event itself (type, city, state):
 * those need the events.
 */
function openPlacesKept(x: VagasShape, p: P) {
  const k = contagens;
  const where = and(
    eq(profissionalFuncoes.profissionalId, profissionais.id),
    eq(k.tabela, 'vagas'),
    sql`${k.regiao} = ${profissionais.regiao}`,
    sql`${k.dono} = ${profissionalFuncoes.funcaoId}`,
    sql`${k.dia} >= ${p.desde}`,
    x.ate ? sql`${k.dia} <= ${p.ate}` : undefined,
    x.funcao ? eq(profissionalFuncoes.funcaoId, p.funcao) : undefined,
  );
  return sql`select coalesce(sum(${k.n}), 0) from ${profissionalFuncoes} cross join ${k} where ${where}`;
}

/**
 * The caller's professional profile (approved account); paged, with the listing's total (`n`): the
 * open places of its functions less those of events where it is invited already and those hidden by
 * its declared unavailability (unavailablePlaces, from its declarations). The first reads the
 * kept counts per day (or, filtered by the event's type, city or state, an index range per function),
 * the second starts from the caller's own invitations, so the total costs about the same at 100 or
 * 100,000 events (test/perf/query-plans.test.ts; docs/performance.md).
 */
const profileOf = scopedSelect({
  params: VAGAS_PARAMS,
  build: (db, scope, p, x: VagasShape & { paged: boolean }) =>
    db
      .select({
        id: profissionais.id,
        regiao: profissionais.regiao,
        ...(x.paged
          ? {
              n: sql<number>`(${x.tipo || x.cidade || x.uf ? openPlaces(x, p, false) : openPlacesKept(x, p)}) - (${openPlaces(x, p, true)}) - (${unavailablePlaces(x, p)})`,
            }
          : {}),
      })
      .from(profissionais)
      .where(and(eq(profissionais.usuarioId, scope.id), listedProfile)),
});

/**
 * The caller's profile (to tell "no profile" from "no listings"; paged, with the total) and the page
 * of listings: one batch. Unpaged, the total is the list's length.
 *
 * The page walks agenda_regiao_data_idx in the listing's order (filtered by one function, that
 * function's open places; by city, the city's places, sorted) and stops after `limit` rows, so its
 * per-row rules (invitation, time window) run for the rows taken only.
 */
export function vagasSelects({ db, config }: Pick<Ctx, 'db' | 'config'>, scope: Scope, query: VagasFilters & Page) {
  const { limit, offset, ...f } = query;
  const page = { limit, offset };
  const today = saoPauloDate(new Date());
  const x: VagasShape = {
    funcao: !!f.funcao_id,
    tipo: !!f.tipo_evento_id,
    ate: !!f.ate,
    cidade: !!f.cidade,
    uf: !!f.uf,
  };
  const values = {
    desde: f.de && f.de > today ? f.de : today,
    ate: f.ate,
    funcao: f.funcao_id,
    tipo: f.tipo_evento_id,
    cidade: f.cidade,
    uf: f.uf?.toUpperCase(),
    ...pageBounds(page),
    mesma_cidade: config.DESLOCAMENTO_MESMA_CIDADE_MIN,
    margem: config.MARGEM_DESLOCAMENTO_MIN,
  };
  const paged = isPaged(page);
  return [profileOf(db, scope, values, { ...x, paged }), vagasPage(db, scope, values, x)] as const;
}

type VagaRow = {
  agendaId: string;
  dataEvento: string;
  horario: string | null;
  horarioFim: string | null;
  localEvento: string | null;
  cidade: string | null;
  uf: string | null;
  tipoEventoId: string;
  tipoEventoNome: string;
  funcaoId: string;
  funcaoNome: string;
  requerAprovacao: boolean | number;
  restantes: number;
  valorCentavos: number | null;
  conflito: number;
  deslocamento: string | null;
};

/** The listing as the API answers it, and its total; 404 without a profile. */
export function toVagas(profile: { n?: number }[], rows: unknown[]) {
  if (!profile[0]) throw noProfile();
  const list = (rows as VagaRow[]).map(toVaga);
  return { list, total: profile[0].n ?? list.length };
}

function toVaga(r: VagaRow) {
  return {
    agenda_id: r.agendaId,
    data_evento: r.dataEvento,
    horario: r.horario,
    horario_fim: r.horarioFim,
    local_evento: r.localEvento,
    cidade: r.cidade,
    uf: r.uf,
    tipo_evento: { id: r.tipoEventoId, nome: r.tipoEventoNome },
    funcao_id: r.funcaoId,
    funcao_nome: r.funcaoNome,
    requer_aprovacao: !!r.requerAprovacao,
    vagas_restantes: r.restantes,
    valor: r.valorCentavos === null ? null : fromCentavos(r.valorCentavos),
    conflito_horario: !!r.conflito,
    conflito_deslocamento: r.deslocamento !== null,
    conflito_deslocamento_detalhe: r.deslocamento === null ? null : (JSON.parse(r.deslocamento) as TravelConflict),
  };
}
