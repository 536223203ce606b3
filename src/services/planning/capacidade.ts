import { sql, type SQL } from 'drizzle-orm';
import {
  agenda,
  agendaEquipe,
  cadastroFot,
  cidades,
  convites,
  deslocamentos,
  disponibilidades,
  estoqueEquipamentos,
  funcoes,
  instituicoes,
  profissionais,
  profissionalFuncoes,
  RECURSOS,
  regras,
  tiposEventos,
  type Recurso,
} from '../../db/schema';
import { keptCountOf } from '../../db/kept-count';
import { rawBatch } from '../../db/raw-batch';
import { daysFrom, eventWindow } from '../../lib/dates';
import { ApiError } from '../../lib/errors';
import { faltanteField } from '../agenda/equipe';
import { MAX_RANGE_DAYS } from '../availability/disponibilidades';
import { coversDayOf, declCols, declMeets, eventWindowOf } from '../availability/rule';
import type { Ctx } from '../core/context';
import { travelMinutes, type MatrixRow, type Place } from '../places/deslocamentos';
import { avaliarRegras, type Regra } from '../rules/avaliacao';
import { toRegra } from '../rules/regras';
import { peakDemand, type PeakItem } from './peak';
import { checkRange, mondayOf } from './periodos';
import { checkSimulation, simulation, type Refs } from './simulacao';

/**
 * The season planner (docs/decisions.md#d26): per day (or week) and per function or equipment
 * resource, the demand of the events in range against the pool. One D1 round trip whatever the range:
 * the events of the range and what hangs from them (team quotas, accepted invitations), the
 * unavailability declarations near the range (disponibilidades_data_idx) through THE availability
 * rule (services/availability/rule.ts), the travel matrix between the range's cities, the kept head
 * count per function, the equipment stock and the studios professionals bring. The peak demand is
 * computed here (peak.ts); a simulation passes its hypothetical events into the same statements, so
 * that it answers what the same events would answer once created.
 */

/** Free supply under 120% of the need is `atencao` (D26). */
const ATENCAO_PERCENT = 120;

export type Agrupar = 'dia' | 'semana';
export type Status = 'coberto' | 'atencao' | 'deficit';

export interface CapacidadeQuery {
  de: string;
  ate: string;
  funcao_id?: string;
  agrupar?: Agrupar;
  /** Only the rows with demand (the weekly job's: a row without demand is never in deficit). Not on the wire. */
  soComDemanda?: boolean;
}

/** The legacy per-event head counts the agenda carries (used where an event has no quota for a function). */
const QTD_PESSOAS = {
  foto_faltante: 'qtd_fotografos',
  cine_faltante: 'qtd_cinegrafistas',
  recep_faltante: 'qtd_recepcionistas',
} as const;
type QtdPessoas = (typeof QTD_PESSOAS)[keyof typeof QTD_PESSOAS];
type Qtds = Partial<Record<QtdPessoas | Recurso, number | null>>;

/** A hypothetical event of POST /api/planejamento/simulacao. */
export type EventoSimulado = {
  data_evento: string;
  horario?: string | null;
  horario_fim?: string | null;
  cidade_ibge?: number | null;
  tipo_evento_id: string;
  qtd_formandos?: number | null;
  instituicao_id?: string | null;
  /** Its team quotas, as PUT /api/agenda/{id}/equipe would set them. */
  equipe?: { funcao_id: string; quantidade: number }[];
} & Qtds;

/** Labels of the equipment rows. */
export const RECURSO_NOMES: Record<Recurso, string> = {
  qtd_estudios: 'Estúdios',
  qtd_ponto_foto: 'Pontos de foto',
  qtd_ponto_id: 'Pontos de identificação',
  qtd_ponto_decorado: 'Pontos decorados',
  qtd_pontos_led: 'Pontos de LED',
  qtd_plataforma_360: 'Plataformas 360',
};

export interface CapacidadeLinha {
  /** The day, or the Monday of the week (`agrupar=semana`; its days outside the range are not counted). */
  periodo: string;
  /** The day whose figures the row shows: the day itself, or the week's worst day. */
  dia_critico: string;
  tipo: 'funcao' | 'equipamento';
  funcao_id: string | null;
  recurso: Recurso | null;
  nome: string;
  demanda_confirmada: number;
  /** What D25's rules suggest for the events with neither a quota nor a head count for the key. */
  demanda_regras: number;
  demanda_pico: number;
  pool: number;
  indisponiveis: number;
  ja_alocados: number;
  oferta_livre: number;
  deficit: number;
  status: Status;
  eventos: string[];
}

export interface Capacidade {
  de: string;
  ate: string;
  agrupar: Agrupar;
  linhas: CapacidadeLinha[];
}

/** An event of the range (stored, or hypothetical) as the computation reads it. */
interface Evento {
  id: string;
  data: string;
  horario: string | null;
  horarioFim: string | null;
  cidade: number | null;
  latitude: number | null;
  longitude: number | null;
  qtd: Qtds;
  /** Quota per function (agenda_equipe). */
  equipe: Map<string, number>;
  /** What the rules' evaluation reads (docs/decisions.md#d25). */
  tipoEventoId: string;
  qtdFormandos: number | null;
  instituicaoId: string | null;
}

// ---------------------------------------------------------------- the statements

const QTD_COLUMNS = [...Object.values(QTD_PESSOAS), ...RECURSOS] as const;

/** The events of the range (stored, then the hypothetical ones) with the columns the rule reads. */
function eventsCte(regiao: string, q: CapacidadeQuery, simulados: string | undefined) {
  const stored = sql`select a.id as id, a.data_evento as data_evento, a.horario as horario,
      a.horario_fim as horario_fim, a.cidade_ibge as cidade_ibge
    from ${agenda} a where a.regiao = ${regiao} and a.data_evento between ${q.de} and ${q.ate}`;
  if (simulados === undefined) return stored;
  return sql`${stored} union all
    select 'simulacao-' || (j.key + 1), json_extract(j.value, '$.data_evento'), json_extract(j.value, '$.horario'),
      json_extract(j.value, '$.horario_fim'), json_extract(j.value, '$.cidade_ibge')
    from json_each(${simulados}) j`;
}

/** The listed holders' functions of the professional under `alias`, as a comma list. */
const heldBy = (alias: string) =>
  sql`(select group_concat(pf.funcao_id) from ${profissionalFuncoes} pf
    where pf.profissional_id = ${sql.raw(alias)}.profissional_id and pf.listado = 1)`;

/**
 * The `indisponivel` declarations of the region's listed professionals that can meet the range: a
 * declaration spans at most MAX_RANGE_DAYS, so it starts at most that many days (and one, for the
 * event of the day before reaching past midnight) before the range. Read from
 * disponibilidades_data_idx; the profile by its key (CROSS JOIN keeps that order).
 */
const declarationsCte = (regiao: string, q: CapacidadeQuery) =>
  sql`select d.profissional_id as profissional_id, d.data_inicio as data_inicio, d.data_fim as data_fim,
      d.hora_inicio as hora_inicio, d.hora_fim as hora_fim, d.dias_semana as dias_semana, ${heldBy('d')} as titular
    from ${disponibilidades} d cross join ${profissionais} p
    where p.id = d.profissional_id and d.tipo = 'indisponivel'
      and d.data_inicio between date(${q.de}, ${`-${MAX_RANGE_DAYS + 1} days`}) and date(${q.ate}, '+1 day')
      and d.data_fim >= date(${q.de}, '-1 day') and p.regiao = ${regiao} and p.listado = 1`;

function statements(regiao: string, q: CapacidadeQuery, sim: { json: string; refs: Refs } | undefined) {
  const ev = eventsCte(regiao, q, sim?.json);
  const inRange = sql`a.regiao = ${regiao} and a.data_evento between ${q.de} and ${q.ate}`;
  const equipment = q.funcao_id === undefined;
  const list: SQL[] = [
    // 0. The stored events, in date order (agenda_regiao_data_idx).
    sql`select a.id as id, a.data_evento as data, a.horario as horario, a.horario_fim as horario_fim,
        a.cidade_ibge as cidade, a.latitude as latitude, a.longitude as longitude,
        ${sql.raw(QTD_COLUMNS.map((c) => `a.${c} as ${c}`).join(', '))}, a.tipo_evento_id as tipo_evento_id,
        a.qtd_formandos as qtd_formandos, (select f.instituicao_id from ${cadastroFot} f where f.id = a.fot_id) as instituicao_id
      from ${agenda} a where ${inRange} order by a.data_evento, a.horario, a.id`,
    // 1. Their team quotas (by the team's key).
    sql`select e.agenda_id as agenda_id, e.funcao_id as funcao_id, e.quantidade as quantidade
      from ${agenda} a join ${agendaEquipe} e on e.agenda_id = a.id where ${inRange}
      ${q.funcao_id ? sql`and e.funcao_id = ${q.funcao_id}` : sql``}`,
    // 2. The functions and their listed holders (the kept count: one row each).
    sql`select ${funcoes.id} as id, ${funcoes.label} as nome, ${keptCountOf('funcoes', '', funcoes.id)} as pool
      from ${funcoes} where ${funcoes.regiao} = ${regiao} ${q.funcao_id ? sql`and ${funcoes.id} = ${q.funcao_id}` : sql``}
      order by ${funcoes.labelKey}, ${funcoes.id}`,
    // 3. The accepted invitations of the range (convites_agenda_status_idx) and their holders' functions.
    sql`select a.data_evento as data, c.profissional_id as profissional_id, c.funcao_id as funcao_id, ${heldBy('c')} as titular
      from ${agenda} a join ${convites} c on c.agenda_id = a.id and c.status = 'aceito' where ${inRange}`,
    // 4. The declarations near the range, read once: each as it is (`agenda_id` null: for the days a
    // function or resource has no event, where any hour of the day counts, coversDayOf applied per day
    // here rather than joining every day of the range in SQL, which would read each one once per day),
    // then each (declaration, event) it meets by the rule, on the window's day or the next.
    sql`with ev as materialized (${ev}), dd as materialized (${declarationsCte(regiao, q)})
      select null as agenda_id, dd.profissional_id as profissional_id, dd.data_inicio as data_inicio,
        dd.data_fim as data_fim, dd.dias_semana as dias_semana, dd.titular as titular from dd
      union all
      select distinct ev.id, dd.profissional_id, null, null, null, dd.titular
      from dd join ev on ev.data_evento between date(dd.data_inicio, '-1 day') and dd.data_fim
      where ${declMeets(declCols('dd'), eventWindowOf('ev'))}`,
    // 5. The travel matrix between the range's cities, both ways.
    sql`with ev as (${ev}) select origem_ibge, destino_ibge, minutos from ${deslocamentos}
      where regiao = ${regiao} and origem_ibge in (select cidade_ibge from ev) and destino_ibge in (select cidade_ibge from ev)`,
    // 6. The range's cities, for the estimate (and to refuse an unknown city of a simulation).
    sql`with ev as (${ev}) select codigo_ibge, latitude, longitude from ${cidades}
      where codigo_ibge in (select cidade_ibge from ev)`,
    // 7. The region's rules in force on some day of the range (regras_regiao_vigencia_idx): D25's quotas
    // for the events with none set.
    sql`select * from ${regras} where regiao = ${regiao} and vigencia_inicio <= ${q.ate}
      and (vigencia_fim is null or vigencia_fim >= ${q.de})`,
  ];
  if (equipment)
    list.push(
      // 8. The stock.
      sql`select recurso, quantidade from ${estoqueEquipamentos} where regiao = ${regiao}`,
      // 9. The studios the region's listed professionals bring (profissionais_estudio_idx).
      sql`select id as profissional_id, max(coalesce(qtd_estudio, 1), 1) as estudios from ${profissionais}
        where regiao = ${regiao} and tem_estudio = 1 and listado = 1`,
    );
  if (sim)
    list.push(
      // The hypothetical events' references missing from the region.
      sql`select 'tipo_evento_id' as campo, j.value as id from json_each(${JSON.stringify(sim.refs.tipos)}) j
          where not exists (select 1 from ${tiposEventos} t where t.id = j.value and t.regiao = ${regiao})
        union all select 'funcao_id', j.value from json_each(${JSON.stringify(sim.refs.funcoes)}) j
          where not exists (select 1 from ${funcoes} f where f.id = j.value and f.regiao = ${regiao})
        union all select 'instituicao_id', j.value from json_each(${JSON.stringify(sim.refs.instituicoes)}) j
          where not exists (select 1 from ${instituicoes} i where i.id = j.value and i.regiao = ${regiao})`,
    );
  return list;
}

// ---------------------------------------------------------------- the computation

type Row = Record<string, unknown>;
const ids = (csv: unknown) => (typeof csv === 'string' && csv ? csv.split(',') : []);

/** People (or studios) by day, and by event, who cannot be counted on. */
interface Sets {
  byEvent: Map<string, Map<string, string[]>>;
  byDay: Map<string, Map<string, string[]>>;
}

function byKey(rows: Row[]): Map<string, Map<string, string[]>> {
  const out = new Map<string, Map<string, string[]>>();
  for (const r of rows) {
    const k = r.agenda_id as string;
    const m = out.get(k) ?? new Map<string, string[]>();
    m.set(r.profissional_id as string, ids(r.titular));
    out.set(k, m);
  }
  return out;
}

/** Who is unavailable at some hour of each day of the range, from the declarations read. */
function byDay(declared: Row[], q: CapacidadeQuery) {
  const out = new Map<string, Map<string, string[]>>();
  for (const dia of daysFrom(q.de, q.ate)) {
    const m = new Map<string, string[]>();
    for (const d of declared) {
      const decl = {
        data_inicio: d.data_inicio as string,
        data_fim: d.data_fim as string,
        dias_semana: d.dias_semana == null ? null : Number(d.dias_semana),
      };
      if (coversDayOf(decl, dia)) m.set(d.profissional_id as string, ids(d.titular));
    }
    if (m.size) out.set(dia, m);
  }
  return out;
}

/** A key of the grid: a function (its id) or an equipment resource. */
interface Key {
  tipo: 'funcao' | 'equipamento';
  id: string;
  nome: string;
  pool: number;
  /** What an event needs of this key: as set on it, or (nothing set) by the rules. */
  need: (e: Evento) => { confirmada: number; regras: number };
}

/**
 * GET /api/planejamento/capacidade, and (with `simulados`) POST /api/planejamento/simulacao: the rows
 * of docs/decisions.md#d26 from one batch. 404 for a function not of the region; for a simulation, 404
 * for a reference not of the region and 400 for an unknown city.
 */
export async function capacidade(
  ctx: Pick<Ctx, 'db' | 'regiao' | 'config'>,
  q: CapacidadeQuery,
  simulados?: EventoSimulado[],
): Promise<Capacidade> {
  checkRange(q);
  const { db, regiao, config } = ctx;
  const sim = simulados && simulados.length ? simulation(simulados, q) : undefined;
  const results = await rawBatch(db, statements(regiao, q, sim));
  const [stored, teams, funcs, accepted, declarations, matrix, cities, ruleRows] = results.map((r) => r.rows);
  const equipment = q.funcao_id === undefined;
  const [stock, studios] = equipment ? [results[8]!.rows, results[9]!.rows] : [[], []];
  if (sim) checkSimulation(results[results.length - 1]!.rows, cities!, simulados!);
  if (q.funcao_id && funcs!.length === 0) throw new ApiError('NOT_FOUND', 'funcao_id: função não encontrada na região');

  const events = eventsOf(stored!, teams!, simulados);
  const byRules = ruleNeeds(ruleRows!);
  const cityOf = new Map(cities!.map((c) => [Number(c.codigo_ibge), c as { latitude: number; longitude: number }]));
  const gap = gapOf(events, cityOf, matrix as unknown as MatrixRow[], config);
  const unavailable: Sets = {
    byEvent: byKey(declarations!.filter((d) => d.agenda_id !== null)),
    byDay: byDay(
      declarations!.filter((d) => d.agenda_id === null),
      q,
    ),
  };
  const studioOf = new Map(studios.map((s) => [s.profissional_id as string, Number(s.estudios)]));

  const keys: Key[] = funcs!.map((f) => {
    const legacy = faltanteField(f.nome as string);
    const qtd = legacy ? QTD_PESSOAS[legacy] : undefined;
    return {
      tipo: 'funcao',
      id: f.id as string,
      nome: f.nome as string,
      pool: Number(f.pool),
      // The team quota; where the event has none for this function, its legacy head count; else the rules'.
      need: (e) => {
        const set = e.equipe.get(f.id as string) ?? (qtd ? e.qtd[qtd] : null) ?? null;
        return set !== null ? { confirmada: set, regras: 0 } : { confirmada: 0, regras: byRules(e, f.id as string) };
      },
    };
  });
  if (equipment) {
    const inStock = new Map(stock.map((s) => [s.recurso as string, Number(s.quantidade)]));
    const brought = [...studioOf.values()].reduce((n, s) => n + s, 0);
    for (const r of RECURSOS)
      keys.push({
        tipo: 'equipamento',
        id: r,
        nome: RECURSO_NOMES[r],
        pool: (inStock.get(r) ?? 0) + (r === 'qtd_estudios' ? brought : 0),
        need: (e) => {
          const set = e.qtd[r] ?? null;
          return set !== null ? { confirmada: set, regras: 0 } : { confirmada: 0, regras: byRules(e, r) };
        },
      });
  }

  const acceptedByDay = new Map<string, Row[]>();
  for (const a of accepted!) acceptedByDay.set(a.data as string, [...(acceptedByDay.get(a.data as string) ?? []), a]);
  const eventsByDay = new Map<string, Evento[]>();
  for (const e of events) eventsByDay.set(e.data, [...(eventsByDay.get(e.data) ?? []), e]);

  const dayRows: CapacidadeLinha[] = [];
  for (const dia of daysFrom(q.de, q.ate)) {
    const todays = eventsByDay.get(dia) ?? [];
    const acc = acceptedByDay.get(dia) ?? [];
    for (const k of keys) {
      const items: PeakItem[] = [];
      let regrasDia = 0;
      for (const e of todays) {
        const n = k.need(e);
        regrasDia += n.regras;
        if (n.confirmada + n.regras > 0) items.push({ id: e.id, ...windowOf(e), need: n.confirmada + n.regras });
      }
      if (q.soComDemanda && items.length === 0) continue;
      dayRows.push(dayRow(dia, k, items, { acc, unavailable, studioOf, regras: regrasDia }, gap));
    }
  }
  const linhas = q.agrupar === 'semana' ? byWeek(dayRows) : dayRows;
  return { de: q.de, ate: q.ate, agrupar: q.agrupar ?? 'dia', linhas };
}

/** A day's row for one key. */
function dayRow(
  dia: string,
  k: Key,
  items: PeakItem[],
  d: { acc: Row[]; unavailable: Sets; studioOf: Map<string, number>; regras: number },
  gap: (a: PeakItem, b: PeakItem) => number | undefined,
): CapacidadeLinha {
  const demanda_confirmada = items.reduce((n, i) => n + i.need, 0) - d.regras;
  const demanda_pico = peakDemand(items, gap);
  // Who cannot be counted on: unavailable during one of the day's windows of this key (its events'),
  // or, on a day without them, at some hour of the day.
  const out = new Map<string, string[]>();
  if (items.length)
    for (const i of items) for (const [p, held] of d.unavailable.byEvent.get(i.id) ?? []) out.set(p, held);
  else for (const [p, held] of d.unavailable.byDay.get(dia) ?? []) out.set(p, held);

  let indisponiveis = 0;
  let ja_alocados = 0;
  let oferta_livre: number;
  if (k.tipo === 'funcao') {
    const holds = (held: string[]) => held.includes(k.id);
    const off = new Set([...out].filter(([, held]) => holds(held)).map(([p]) => p));
    indisponiveis = off.size;
    ja_alocados = new Set(d.acc.filter((a) => a.funcao_id === k.id).map((a) => a.profissional_id as string)).size;
    // A holder accepted on any event of the day is not free for another.
    for (const a of d.acc) if (holds(ids(a.titular))) off.add(a.profissional_id as string);
    oferta_livre = k.pool - off.size;
  } else {
    // The studios of their owners who cannot come; other equipment is the company's and always there.
    if (k.id === 'qtd_estudios') for (const p of out.keys()) indisponiveis += d.studioOf.get(p) ?? 0;
    oferta_livre = k.pool - indisponiveis;
  }
  oferta_livre = Math.max(oferta_livre, 0);
  const necessidade = Math.max(demanda_pico - ja_alocados, 0);
  const deficit = Math.max(necessidade - oferta_livre, 0);
  return {
    periodo: dia,
    dia_critico: dia,
    tipo: k.tipo,
    funcao_id: k.tipo === 'funcao' ? k.id : null,
    recurso: k.tipo === 'equipamento' ? (k.id as Recurso) : null,
    nome: k.nome,
    demanda_confirmada,
    demanda_regras: d.regras,
    demanda_pico,
    pool: k.pool,
    indisponiveis,
    ja_alocados,
    oferta_livre,
    deficit,
    status: statusOf(deficit, oferta_livre, necessidade),
    eventos: items.map((i) => i.id),
  };
}

/** `deficit`; else `atencao` while the free supply is under 120% of the need; else `coberto`. */
export const statusOf = (deficit: number, livre: number, necessidade: number): Status =>
  deficit > 0 ? 'deficit' : livre * 100 < necessidade * ATENCAO_PERCENT ? 'atencao' : 'coberto';

/**
 * The week's rows: its demand summed, its peak the largest day's, and the supply, deficit and status
 * of its worst day (the largest deficit, then the least free supply beyond the need, then the first).
 */
function byWeek(rows: CapacidadeLinha[]): CapacidadeLinha[] {
  const weeks = new Map<string, CapacidadeLinha>();
  const margin = (r: CapacidadeLinha) => r.oferta_livre - Math.max(r.demanda_pico - r.ja_alocados, 0);
  for (const r of rows) {
    const periodo = mondayOf(r.periodo);
    const key = `${periodo}|${r.tipo}|${r.funcao_id ?? r.recurso}`;
    const w = weeks.get(key);
    if (!w) {
      weeks.set(key, { ...r, periodo, eventos: [...r.eventos] });
      continue;
    }
    const worse = r.deficit > w.deficit || (r.deficit === w.deficit && margin(r) < margin(w));
    const sums = {
      demanda_confirmada: w.demanda_confirmada + r.demanda_confirmada,
      demanda_regras: w.demanda_regras + r.demanda_regras,
      demanda_pico: Math.max(w.demanda_pico, r.demanda_pico),
      eventos: [...w.eventos, ...r.eventos],
    };
    weeks.set(key, { ...(worse ? { ...r, periodo } : w), ...sums });
  }
  return [...weeks.values()];
}

/** The stored events and the hypothetical ones, each with its quotas and head counts. */
function eventsOf(stored: Row[], teams: Row[], simulados: EventoSimulado[] | undefined): Evento[] {
  const equipe = new Map<string, Map<string, number>>();
  for (const t of teams) {
    const m = equipe.get(t.agenda_id as string) ?? new Map<string, number>();
    m.set(t.funcao_id as string, Number(t.quantidade));
    equipe.set(t.agenda_id as string, m);
  }
  const qtdOf = (r: Record<string, unknown>): Qtds =>
    Object.fromEntries(QTD_COLUMNS.map((c) => [c, r[c] == null ? null : Number(r[c])]));
  const events: Evento[] = stored.map((r) => ({
    id: r.id as string,
    data: r.data as string,
    horario: (r.horario as string | null) ?? null,
    horarioFim: (r.horario_fim as string | null) ?? null,
    cidade: r.cidade == null ? null : Number(r.cidade),
    latitude: r.latitude == null ? null : Number(r.latitude),
    longitude: r.longitude == null ? null : Number(r.longitude),
    qtd: qtdOf(r),
    equipe: equipe.get(r.id as string) ?? new Map(),
    tipoEventoId: r.tipo_evento_id as string,
    qtdFormandos: r.qtd_formandos == null ? null : Number(r.qtd_formandos),
    instituicaoId: (r.instituicao_id as string | null) ?? null,
  }));
  (simulados ?? []).forEach((s, i) =>
    events.push({
      id: `simulacao-${i + 1}`,
      data: s.data_evento,
      horario: s.horario ?? null,
      horarioFim: s.horario_fim ?? null,
      cidade: s.cidade_ibge ?? null,
      latitude: null,
      longitude: null,
      qtd: qtdOf(s),
      equipe: new Map((s.equipe ?? []).map((t) => [t.funcao_id, t.quantidade])),
      tipoEventoId: s.tipo_evento_id,
      qtdFormandos: s.qtd_formandos ?? null,
      instituicaoId: s.instituicao_id ?? null,
    }),
  );
  // The stored events' order (day, start, id), the hypothetical ones among them.
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return events.sort((a, b) => cmp(a.data, b.data) || cmp(a.horario ?? '', b.horario ?? '') || cmp(a.id, b.id));
}

/**
 * What D25's rules ask of an event for a function or resource it has nothing set for
 * (docs/decisions.md#d26): the evaluation's own suggestion (services/rules/avaliacao.ts) when a rule
 * in force on the event's date sets a minimum (`minimo` or `exato`), lowered by a cap as the
 * suggestion is; a cap alone asks for nobody. Evaluated once per event, when first asked.
 */
function ruleNeeds(rows: Row[]) {
  const rules: Regra[] = rows.map((r) =>
    toRegra({
      id: r.id as string,
      regiao: r.regiao as string,
      nome: r.nome as string,
      escopo: r.escopo as Regra['escopo'],
      instituicaoId: (r.instituicao_id as string | null) ?? null,
      tipoEventoId: (r.tipo_evento_id as string | null) ?? null,
      fonteUrl: (r.fonte_url as string | null) ?? null,
      vigenciaInicio: r.vigencia_inicio as string,
      vigenciaFim: (r.vigencia_fim as string | null) ?? null,
      definicao: r.definicao as string,
      createdAt: r.created_at as string,
      updatedAt: r.updated_at as string,
    }),
  );
  const cache = new Map<string, Map<string, number>>();
  return (e: Evento, key: string) => {
    if (rules.length === 0) return 0;
    let m = cache.get(e.id);
    if (!m) {
      m = new Map();
      const a = avaliarRegras(rules, {
        data_evento: e.data,
        tipo_evento_id: e.tipoEventoId,
        instituicao_id: e.instituicaoId,
        qtd_formandos: e.qtdFormandos,
      });
      for (const s of a.quotas_sugeridas) if (s.minimo !== null) m.set(s.funcao_id ?? s.recurso!, s.quantidade);
      cache.set(e.id, m);
    }
    return m.get(key) ?? 0;
  };
}

/** An event's window in minutes (lib/dates.ts eventWindow: D11's rule, the whole day without a start). */
function windowOf(e: Evento) {
  const w = eventWindow({ dataEvento: e.data, horario: e.horario, horarioFim: e.horarioFim });
  const start = w.start.getTime() / 60_000;
  return { start, end: w.allDay ? start + 1440 : w.end.getTime() / 60_000 };
}

/** Travel plus margin from one event to another (docs/decisions.md#d23's rule), undefined without a rule. */
function gapOf(
  events: Evento[],
  cityOf: Map<number, { latitude: number; longitude: number }>,
  matrix: MatrixRow[],
  config: Ctx['config'],
) {
  const places = new Map<string, Place>();
  for (const e of events) {
    const c = e.cidade === null ? undefined : cityOf.get(e.cidade);
    places.set(e.id, {
      cidade:
        c && e.cidade !== null
          ? { codigo_ibge: e.cidade, latitude: Number(c.latitude), longitude: Number(c.longitude) }
          : null,
      venue: e.latitude !== null && e.longitude !== null ? { latitude: e.latitude, longitude: e.longitude } : null,
    });
  }
  const rows = matrix.map((m) => ({
    origem_ibge: Number(m.origem_ibge),
    destino_ibge: Number(m.destino_ibge),
    minutos: Number(m.minutos),
  }));
  return (a: PeakItem, b: PeakItem) => {
    const t = travelMinutes(places.get(a.id)!, places.get(b.id)!, rows, config.DESLOCAMENTO_MESMA_CIDADE_MIN);
    return t === undefined ? undefined : t.minutos + config.MARGEM_DESLOCAMENTO_MIN;
  };
}
