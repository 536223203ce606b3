import { eq, sql, type SQL } from 'drizzle-orm';
import { rawBatch } from '../../db/raw-batch';
import { agenda, COMPONENTES, PESOS_PADRAO, type Componente } from '../../db/schema';
import type { Scope } from '../../db/scope';
import { ApiError } from '../../lib/errors';
import { isAdmin } from '../../lib/permissions';
import { visible as agendaVisible } from '../agenda/agenda';
import { eventCols, eventWindow } from '../agenda/event-window';
import { declaredDuring, eventWindowOf, unavailableForEvent } from '../availability/rule';
import { travelMinutesSql, type PlaceSql } from '../places/deslocamentos';
import { listedProfile } from '../professionals/profissionais';
import { BAYES_C } from '../professionals/avaliacoes';
import { regionMeanSql } from '../reliability/ledger';
import { quotaOpenFor } from '../teams/acceptance';
import { acceptedOverlap, acceptedTravelConflict, travelRuleOf } from '../teams/time-window';
import type { Ctx } from '../core/context';
import { pesosOf, round4, type Pesos } from './pesos';

/**
 * The explained ranking (docs/decisions.md#d29): who to invite to an event for a function, and why.
 * ONE statement with CTEs over the region's holders of the function (profissional_funcoes_funcao_idx)
 * and, per holder, a few index probes (its invitations by professional and date, its declarations,
 * its client ratings, its city and the travel matrix): the rows read follow the holders, never the
 * region's events or invitations. The hard filters say why someone is out (`motivo`); the soft
 * components each answer their value, weight and contribution; the score is their sum.
 */

/** Why someone is out of the ranking, first match in this order. */
export const MOTIVOS = [
  'SEM_FUNCAO',
  'INATIVO',
  'JA_CONVIDADO',
  'INDISPONIVEL',
  'CONFLITO_HORARIO',
  'DESLOCAMENTO',
] as const;
export type Motivo = (typeof MOTIVOS)[number];

const MOTIVO_TEXTO: Record<Motivo, string> = {
  SEM_FUNCAO: 'não exerce esta função',
  INATIVO: 'conta inativa ou cadastro pendente de aprovação',
  JA_CONVIDADO: 'já tem convite ou candidatura neste evento',
  INDISPONIVEL: 'declarou indisponibilidade no horário do evento',
  CONFLITO_HORARIO: 'já está aceito em outro evento em horário sobreposto',
  DESLOCAMENTO: 'não chega a tempo de outro evento aceito (deslocamento)',
};

/** Minutes of travel from which `distancia` is 0, and reply hours from which `responsividade` is 0. */
export const DISTANCIA_MAX_MIN = 180;
export const RESPOSTA_MAX_HORAS = 72;
/** The days `rodizio` counts jobs over, and the days of replies `responsividade` reads. */
export const RODIZIO_DIAS = 30;
export const RESPOSTAS_DIAS = 365;
/** A component without data (distance unknown, no reply yet): the middle of the scale. */
export const NEUTRO = 0.5;
/** The prior of `avaliacao` when no holder of the function has any rating (the middle of a 1-5 answer). */
export const AVALIACAO_PRIOR_VAZIO = 3;

/**
 * The search form of a place name in SQL, as lib/names.ts searchKey folds it (no accents, lowercase,
 * apostrophes dropped, hyphens as spaces): a professional's free-text city and state find their
 * IBGE city through cidades_uf_nome_key_idx. Letters are literals, never bound (D1 binds at most 100
 * parameters per statement).
 */
const FOLD: [string, string][] = [
  ...[...'áàâãäåÁÀÂÃÄÅ'].map((c): [string, string] => [c, 'a']),
  ...[...'éèêëÉÈÊË'].map((c): [string, string] => [c, 'e']),
  ...[...'íìîïÍÌÎÏ'].map((c): [string, string] => [c, 'i']),
  ...[...'óòôõöÓÒÔÕÖ'].map((c): [string, string] => [c, 'o']),
  ...[...'úùûüÚÙÛÜ'].map((c): [string, string] => [c, 'u']),
  ['ç', 'c'],
  ['Ç', 'c'],
  ['ñ', 'n'],
  ['Ñ', 'n'],
  ["''", ''],
  ['’', ''],
  ['`', ''],
  ['´', ''],
  ['-', ' '],
  ['  ', ' '],
  ['  ', ' '],
];
export function searchKeySql(expr: SQL): SQL {
  let out = sql`lower(${expr})`;
  for (const [from, to] of FOLD) out = sql`replace(${out}, ${sql.raw(`'${from}'`)}, ${sql.raw(`'${to}'`)})`;
  return sql`trim(${out})`;
}

/** A UUID's first 7 hex digits as a number (28 bits). */
const hex7 = (col: SQL) =>
  sql.join(
    [1, 2, 3, 4, 5, 6, 7].map(
      (i) =>
        sql`(instr('0123456789abcdef', substr(${col}, ${sql.raw(String(i))}, 1)) - 1) * ${sql.raw(String(16 ** (7 - i)))}`,
    ),
    sql` + `,
  );
/** The last tie-break: a stable order per event (the professional's id XOR the event's, bitwise), so ties do not always favour the same people. */
const semente = (a: SQL, b: SQL) => sql`((${hex7(a)}) | (${hex7(b)})) - ((${hex7(a)}) & (${hex7(b)}))`;

/** The region's weights (a row of pesos_ranking, else D29's defaults), as the columns of a CTE `w`. */
const pesosCte = (regiao: string) =>
  sql`select ${sql.join(
    COMPONENTES.map(
      (k) => sql`coalesce(pr.${sql.raw(k)}, ${sql.raw(String(PESOS_PADRAO[k]))}) as ${sql.raw(`w_${k}`)}`,
    ),
    sql`, `,
  )}, pr.updated_at as w_updated_at from (select 1) left join pesos_ranking pr on pr.regiao = ${regiao}`;

export interface RankingInput {
  funcao_id: string;
  limit: number;
  incluir_excluidos: boolean;
  /** Only these professionals (the batch invitation's list, "why not them?"); else the function's holders. */
  profissional_ids?: string[];
}

/** The event (if the caller plans it), the function, its quota and the weights: the head of the answer. */
function headSql(ctx: Pick<Ctx, 'regiao'>, scope: Scope, id: string, funcaoId: string) {
  return sql`with w as (${pesosCte(ctx.regiao)})
    select (select ${agenda.id} from ${agenda} where ${agendaVisible(scope, ctx.regiao, eq(agenda.id, id))}) as ev,
      (select ${agenda.dataEvento} from ${agenda} where ${agenda.id} = ${id}) as data_evento,
      (select f.id from funcoes f where f.id = ${funcaoId} and f.regiao = ${ctx.regiao}) as fn,
      (select e.quantidade from agenda_equipe e where e.agenda_id = ${id} and e.funcao_id = ${funcaoId}) as quantidade,
      (select count(*) from convites c where c.agenda_id = ${id} and c.funcao_id = ${funcaoId} and c.status = 'aceito') as aceitos,
      ${quotaOpenFor(sql`${id}`, sql`${funcaoId}`)} as vaga_aberta,
      w.* from w`;
}

/**
 * The components a caller's ranking scores: all seven for administrators; without `confiabilidade`
 * for an agenda_viewer, whom D28 keeps from the reliability score (docs/decisions.md#d28): neither
 * answered nor in the score (a sum with it would tell it), so its weight counts for nobody there.
 */
export const scoredComponents = (scope: Pick<Scope, 'role'>): Componente[] =>
  isAdmin(scope.role) ? [...COMPONENTES] : COMPONENTES.filter((k) => k !== 'confiabilidade');

/** A place as services/places/deslocamentos.ts travelMinutesSql reads it: a city's code and coordinates, no venue. */
const cityPlace = (alias: string): PlaceSql => ({
  cidade: sql.raw(`${alias}.cidade_ibge`),
  latitude: sql`null`,
  longitude: sql`null`,
  cidadeLatitude: sql.raw(`${alias}.lat`),
  cidadeLongitude: sql.raw(`${alias}.lon`),
});

/** THE ranking statement. */
function rankingSql(ctx: Pick<Ctx, 'regiao' | 'config'>, scope: Scope, id: string, q: RankingInput) {
  const { regiao } = ctx;
  const ids = q.profissional_ids;
  // The pool: the function's holders in the region, or the professionals asked for. Every CTE that
  // reads per holder starts from the pool (CROSS JOIN fixes SQLite's join order; `+regiao` keeps it
  // from walking the region's profiles), and the heavy ones are MATERIALIZED: computed once, not
  // again where a later CTE names their columns.
  const source = ids
    ? sql`from q cross join profissionais on profissionais.id in (select value from json_each(q.ids)) and +profissionais.regiao = q.regiao`
    : sql`from q cross join profissional_funcoes pf on pf.funcao_id = q.funcao
        cross join profissionais on profissionais.id = pf.profissional_id and +profissionais.regiao = q.regiao`;
  const win = eventWindow(eventCols('ev'));
  const other = eventWindow(eventCols('oa'));
  const gap = sql`(case when ${other.start} >= ${win.end} then ${other.start} - ${win.end}
    when ${win.start} >= ${other.end} then ${win.start} - ${other.end} end)`;
  const score = sql.join(
    scoredComponents(scope).map((k) => sql`${sql.raw(`w.w_${k} * v_${k}`)}`),
    sql` + `,
  );
  return sql`with
  q as (select ${regiao} as regiao, ${q.funcao_id} as funcao, ${ids ? JSON.stringify(ids) : null} as ids,
    ${ctx.config.DESLOCAMENTO_MESMA_CIDADE_MIN} as mesma_cidade),
  w as (${pesosCte(regiao)}),
  ev as materialized (select ${agenda.id} as id, ${agenda.dataEvento} as data_evento, ${agenda.horario} as horario,
      ${agenda.horarioFim} as horario_fim, ${agenda.cidadeIbge} as cidade_ibge, c.latitude as lat, c.longitude as lon
    from ${agenda} left join cidades c on c.codigo_ibge = ${agenda.cidadeIbge}
    where ${agendaVisible(scope, regiao, eq(agenda.id, id))}),
  pool as materialized (select profissionais.id, profissionais.nome, profissionais.avatar_url, profissionais.usuario_id,
      profissionais.funcao_profissional_id = q.funcao as principal,
      ${ids ? sql`exists (select 1 from profissional_funcoes t where t.profissional_id = profissionais.id and t.funcao_id = q.funcao)` : sql`1`} as titular,
      ${listedProfile} as ativo, profissionais.confiabilidade as confiabilidade,
      (profissionais.qual_tec is not null) + (profissionais.educacao_simpatia is not null)
        + (profissionais.desempenho_evento is not null) + (profissionais.disp_horario is not null) as adm_n,
      coalesce(profissionais.qual_tec, 0) + coalesce(profissionais.educacao_simpatia, 0)
        + coalesce(profissionais.desempenho_evento, 0) + coalesce(profissionais.disp_horario, 0) as adm_soma,
      pc.codigo_ibge as cidade_ibge, pc.latitude as lat, pc.longitude as lon
    ${source}
      left join cidades pc on pc.uf = profissionais.uf and pc.nome_key = ${searchKeySql(sql`profissionais.cidade`)}),
  av as materialized (select i.profissional_id as pid, count(*) as n, sum(i.valor_num) as soma
    from pool cross join pesquisa_resposta_itens i on i.profissional_id = pool.id
      cross join pesquisa_perguntas pq on pq.id = i.pergunta_id cross join pesquisas ps on ps.id = pq.pesquisa_id
    where pq.criterio is not null and ps.publico <> 'profissional' and i.valor_num is not null
    group by i.profissional_id),
  resp as (select c.profissional_id as pid, (julianday(c.respondido_em) - julianday(c.created_at)) * 24 as h,
      row_number() over (partition by c.profissional_id order by julianday(c.respondido_em) - julianday(c.created_at)) as rn,
      count(*) over (partition by c.profissional_id) as n
    from pool cross join ev cross join convites c on c.profissional_id = pool.id
    where c.status in ('aceito', 'recusado') and c.data_evento >= date(ev.data_evento, ${sql.raw(`'-${RESPOSTAS_DIAS} days'`)})
      and +c.origem = 'convite' and +c.respondido_em is not null),
  med as materialized (select pid, avg(h) as mediana, max(n) as n from resp where rn in ((n + 1) / 2, (n + 2) / 2) group by pid),
  f as materialized (select pool.id, pool.nome, pool.avatar_url, pool.usuario_id, pool.principal, pool.titular, pool.ativo,
      pool.adm_n + coalesce(av.n, 0) as av_n, pool.adm_soma + coalesce(av.soma, 0) as av_soma,
      med.mediana, coalesce(med.n, 0) as respostas,
      exists (select 1 from convites cv where cv.agenda_id = ev.id and cv.profissional_id = pool.id) as ja_convidado,
      ${unavailableForEvent(sql`pool.id`, 'ev')} as indisponivel,
      ${acceptedOverlap(sql`pool.id`, sql`ev.id`)} as conflito,
      ${acceptedTravelConflict(sql`pool.id`, sql`ev.id`, travelRuleOf(ctx.config))} as deslocamento,
      ${declaredDuring(sql`pool.id`, eventWindowOf('ev'), 'preferencial')} as preferencial,
      (select count(*) from convites j where j.profissional_id = pool.id and j.status = 'aceito'
        and j.data_evento >= date(ev.data_evento, ${sql.raw(`'-${RODIZIO_DIAS} days'`)}) and j.data_evento < ev.data_evento) as trabalhos,
      pool.cidade_ibge as origem_ibge, ev.cidade_ibge as destino_ibge,
      ${travelMinutesSql(cityPlace('pool'), cityPlace('ev'), { regiao: sql`q.regiao`, mesmaCidade: sql`q.mesma_cidade` })} as minutos,
      exists (select 1 from deslocamentos d where d.regiao = q.regiao and d.origem_ibge = pool.cidade_ibge and d.destino_ibge = ev.cidade_ibge)
        or exists (select 1 from deslocamentos d where d.regiao = q.regiao and d.origem_ibge = ev.cidade_ibge and d.destino_ibge = pool.cidade_ibge) as na_matriz,
      pool.confiabilidade,
      (select json_group_array(json_object('evento', oa.id, 'tipo', te.nome, 'horario', oa.horario, 'folga_min', ${gap}))
        from convites oc join agenda oa on oa.id = oc.agenda_id join tipos_eventos te on te.id = oa.tipo_evento_id
        where oc.profissional_id = pool.id and oc.status = 'aceito' and oc.data_evento = ev.data_evento
          and oa.data_evento = ev.data_evento and oa.id <> ev.id and ${gap} is not null) as mesmo_dia,
      ${semente(sql`pool.id`, sql`ev.id`)} as semente
    from pool cross join ev cross join q
      left join av on av.pid = pool.id left join med on med.pid = pool.id),
  t as (select f.*,
      -- Which of D23's steps gave the minutes (travelMinutesSql above computed them).
      case when f.minutos is null then null when f.na_matriz then 'matriz'
        when f.origem_ibge = f.destino_ibge then 'mesma_cidade' else 'estimado' end as fonte,
      case when not f.titular then 'SEM_FUNCAO' when not f.ativo then 'INATIVO'
        when f.ja_convidado then 'JA_CONVIDADO' when f.indisponivel then 'INDISPONIVEL'
        when f.conflito then 'CONFLITO_HORARIO' when f.deslocamento then 'DESLOCAMENTO' end as motivo
    from f),
  pm as materialized (select coalesce(sum(av_soma) * 1.0 / nullif(sum(av_n), 0), ${sql.raw(String(AVALIACAO_PRIOR_VAZIO))}) as av_m,
      coalesce(avg(trabalhos), 0) as media_trabalhos,
      ${regionMeanSql(regiao)} as conf_m
    from t where t.motivo is null or t.motivo not in ('SEM_FUNCAO', 'INATIVO')),
  v as (select t.*, pm.av_m, pm.media_trabalhos,
      case when t.minutos is null then ${sql.raw(String(NEUTRO))}
        else 1 - min(t.minutos, ${sql.raw(String(DISTANCIA_MAX_MIN))}) / ${sql.raw(`${DISTANCIA_MAX_MIN}.0`)} end as v_distancia,
      ((${sql.raw(String(BAYES_C))} * pm.av_m + t.av_soma) / (${sql.raw(String(BAYES_C))} + t.av_n)) / 5.0 as v_avaliacao,
      1.0 / (1 + max(0, t.trabalhos - pm.media_trabalhos)) as v_rodizio,
      case when t.principal then 1.0 else 0.7 end as v_funcao,
      case when t.preferencial then 1.0 else 0.0 end as v_preferencia,
      coalesce(t.confiabilidade, 100 * pm.conf_m) / 100.0 as v_confiabilidade,
      case when t.mediana is null then ${sql.raw(String(NEUTRO))}
        else 1 - min(t.mediana, ${sql.raw(String(RESPOSTA_MAX_HORAS))}) / ${sql.raw(`${RESPOSTA_MAX_HORAS}.0`)} end as v_responsividade
    from t cross join pm),
  s as (select v.*, round(${score}, 4) as score from v cross join w),
  r as (select s.*, row_number() over (order by s.motivo is not null, s.score desc, s.trabalhos, s.semente, s.id) as posicao from s)
  select r.* from r
  where (r.motivo is null and r.posicao <= ${q.limit}) ${q.incluir_excluidos ? sql`or r.motivo is not null` : sql``}
  order by r.posicao`;
}

type Row = Record<string, unknown>;
const num = (v: unknown) => Number(v ?? 0);
const bool = (v: unknown) => v === 1 || v === true;

interface Parte {
  valor: number;
  peso: number;
  contribuicao: number;
}
export interface Componentes {
  distancia: Parte & {
    minutos: number | null;
    fonte: 'matriz' | 'mesma_cidade' | 'estimado' | null;
    origem_ibge: number | null;
  };
  avaliacao: Parte & { media: number; amostra: number; prior: number };
  /**
   * D28's score R / 100 (`pontuacao` R rounded as D28's view answers it; `fonte` `regiao` when the
   * professional has no kept score yet and the region's prior stands in); absent for an agenda_viewer
   * (scoredComponents).
   */
  confiabilidade?: Parte & { pontuacao: number; fonte: 'profissional' | 'regiao' };
  rodizio: Parte & { trabalhos_30d: number; media_regiao: number };
  funcao: Parte & { principal: boolean };
  preferencia: Parte & { preferencial: boolean };
  responsividade: Parte & { mediana_horas: number | null; amostra: number };
}

export interface Candidato {
  posicao: number;
  profissional_id: string;
  /** The linked account (for the invitation's notification); not answered. */
  usuario_id?: string | null;
  nome: string;
  avatar_url: string | null;
  score: number;
  trabalhos_30d: number;
  componentes: Componentes;
  alertas: string[];
}

export interface Excluido {
  profissional_id: string;
  nome: string;
  motivo: Motivo;
  detalhe: string;
}

export interface Ranking {
  agenda_id: string;
  data_evento: string;
  funcao_id: string;
  pesos: Pesos;
  vagas: { quantidade: number | null; aceitos: number; aberta: boolean };
  candidatos: Candidato[];
  excluidos?: Excluido[];
  calculado_em: string;
}

/** "mesmo dia: Baile 21:00, folga 95 min" for each other accepted event of the day that leaves a gap. */
function alertasOf(r: Row): string[] {
  const mesmoDia = JSON.parse(String(r.mesmo_dia ?? '[]')) as {
    tipo: string;
    horario: string | null;
    folga_min: number;
  }[];
  return mesmoDia
    .sort((a, b) => (a.horario ?? '').localeCompare(b.horario ?? ''))
    .map((o) => `mesmo dia: ${o.tipo}${o.horario ? ` ${o.horario}` : ''}, folga ${o.folga_min} min`);
}

function candidatoOf(r: Row, pesos: Pesos, scored: readonly Componente[]): Candidato {
  const part = <D extends object>(k: Componente, detail: D): Parte & D => {
    const valor = round4(num(r[`v_${k}`]));
    return { valor, peso: pesos[k], contribuicao: round4(valor * pesos[k]), ...detail };
  };
  const orNull = (v: unknown) => (v === null || v === undefined ? null : num(v));
  const componentes: Componentes = {
    distancia: part('distancia', {
      minutos: orNull(r.minutos),
      fonte: (r.fonte ?? null) as Componentes['distancia']['fonte'],
      origem_ibge: orNull(r.origem_ibge),
    }),
    avaliacao: part('avaliacao', {
      media: Math.round(num(r.v_avaliacao) * 5 * 100) / 100,
      amostra: num(r.av_n),
      prior: Math.round(num(r.av_m) * 100) / 100,
    }),
    ...(scored.includes('confiabilidade')
      ? {
          confiabilidade: part('confiabilidade', {
            pontuacao: Math.round(num(r.v_confiabilidade) * 100),
            fonte: r.confiabilidade === null || r.confiabilidade === undefined ? 'regiao' : 'profissional',
          } as const),
        }
      : {}),
    rodizio: part('rodizio', {
      trabalhos_30d: num(r.trabalhos),
      media_regiao: Math.round(num(r.media_trabalhos) * 100) / 100,
    }),
    funcao: part('funcao', { principal: bool(r.principal) }),
    preferencia: part('preferencia', { preferencial: bool(r.preferencial) }),
    responsividade: part('responsividade', {
      mediana_horas: r.mediana === null || r.mediana === undefined ? null : Math.round(num(r.mediana) * 10) / 10,
      amostra: num(r.respostas),
    }),
  };
  return {
    posicao: num(r.posicao),
    profissional_id: String(r.id),
    usuario_id: (r.usuario_id as string | null) ?? null,
    nome: String(r.nome),
    avatar_url: (r.avatar_url as string | null) ?? null,
    score: num(r.score),
    trabalhos_30d: num(r.trabalhos),
    componentes,
    alertas: alertasOf(r),
  };
}

/** The head's and the ranking's statements, for a batch (one round trip). */
export const rankingStatements = (ctx: Pick<Ctx, 'regiao' | 'config' | 'user'>, id: string, q: RankingInput) => [
  headSql(ctx, ctx.user, id, q.funcao_id),
  rankingSql(ctx, ctx.user, id, q),
];

/** The answer from the two statements' rows: 404 for an event the caller does not plan, 400 for a function not of the region. */
export function rankingOf(
  scope: Pick<Scope, 'role'>,
  id: string,
  { q, head, rows }: { q: RankingInput; head: Row[]; rows: Row[] },
): Ranking {
  const scored = scoredComponents(scope);
  const h = head[0];
  if (!h?.ev) throw new ApiError('NOT_FOUND', 'evento não encontrado');
  if (!h.fn) throw new ApiError('VALIDATION_FAILED', 'funcao_id: função não encontrada na região');
  const pesos = pesosOf(Object.fromEntries(COMPONENTES.map((k) => [k, num(h[`w_${k}`])])));
  const answer: Ranking = {
    agenda_id: id,
    data_evento: String(h.data_evento),
    funcao_id: q.funcao_id,
    pesos,
    vagas: {
      quantidade: h.quantidade === null ? null : num(h.quantidade),
      aceitos: num(h.aceitos),
      aberta: bool(h.vaga_aberta),
    },
    candidatos: rows.filter((r) => r.motivo === null).map((r) => candidatoOf(r, pesos, scored)),
    calculado_em: new Date().toISOString(),
  };
  if (q.incluir_excluidos)
    answer.excluidos = rows
      .filter((r) => r.motivo !== null)
      .map((r) => ({
        profissional_id: String(r.id),
        nome: String(r.nome),
        motivo: r.motivo as Motivo,
        detalhe: MOTIVO_TEXTO[r.motivo as Motivo],
      }));
  return answer;
}

/** GET /api/agenda/{id}/candidatos: two statements, one round trip. */
export async function candidatos(ctx: Pick<Ctx, 'db' | 'regiao' | 'config' | 'user'>, id: string, q: RankingInput) {
  const [head, rows] = await rawBatch(ctx.db, rankingStatements(ctx, id, q));
  const answer = rankingOf(ctx.user, id, { q, head: head!.rows, rows: rows!.rows });
  return { ...answer, candidatos: answer.candidatos.map(({ usuario_id: _u, ...c }) => c) };
}
