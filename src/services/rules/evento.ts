import { and, eq, gte, isNull, lt, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  agenda,
  agendaEquipe,
  cadastroFot,
  cidades,
  feriados,
  funcoes,
  instituicoes,
  regras,
  type RegraRecurso,
  type RegraRow,
} from '../../db/schema';
import type { SqlScope } from '../../db/scope';
import { ApiError } from '../../lib/errors';
import { visible } from '../agenda/agenda';
import type { QueryCtx } from '../core/context';
import { avaliarRegras, maximosPorFuncao, type EventoRegras } from './avaliacao';
import { toRegra } from './regras';

/**
 * What the evaluation of one event reads (docs/decisions.md#d25), in one batch: the event (its
 * institution through its FOT record, its city and state), its team quota, the region's rules whose
 * vigencia holds on its date (company's, and its institution's), the region's function names, and
 * the days before it that are not business days where it happens.
 */

/** How far back the holidays are read: a deadline of at most MAX_PRAZO_DIAS_UTEIS business days stays inside. */
export const MAX_PRAZO_DIAS_UTEIS = 120;
const FERIADOS_JANELA_DIAS = 240;

/** The event's city: its own, else its institution's. */
const cidadeDe = sql<
  number | null
>`coalesce(${agenda.cidadeIbge}, (select ${instituicoes.cidadeIbge} from ${instituicoes} where ${instituicoes.id} = ${cadastroFot.instituicaoId}))`;

/** The event's facts, if the caller may see it. */
export const eventoFatosSelect = (db: Db, where: SQL | undefined) =>
  db
    .select({
      id: agenda.id,
      regiao: agenda.regiao,
      fotId: agenda.fotId,
      dataEvento: agenda.dataEvento,
      tipoEventoId: agenda.tipoEventoId,
      qtdFormandos: agenda.qtdFormandos,
      qtdEstudios: agenda.qtdEstudios,
      qtdPontosLed: agenda.qtdPontosLed,
      qtdPlataforma360: agenda.qtdPlataforma360,
      qtdPontoFoto: agenda.qtdPontoFoto,
      instituicaoId: sql<string | null>`${cadastroFot.instituicaoId}`.as('instituicao_id'),
      cidadeIbge: sql<number | null>`${cidadeDe}`.as('cidade_evento'),
      uf: sql<
        string | null
      >`coalesce((select ${cidades.uf} from ${cidades} where ${cidades.codigoIbge} = ${cidadeDe}), upper(${cadastroFot.estado}))`.as(
        'uf_evento',
      ),
    })
    .from(agenda)
    .innerJoin(cadastroFot, eq(cadastroFot.id, agenda.fotId))
    .where(where);

export type EventoFatos = Awaited<ReturnType<typeof eventoFatosSelect>>[number];

/** A column of the event `id` as a subquery (the other reads of the batch depend on it, not on a read before). */
const doEvento = (id: string, col: SQL) =>
  sql`(select ${col} from ${agenda} join ${cadastroFot} on ${cadastroFot.id} = ${agenda.fotId} where ${agenda.id} = ${id})`;

/** The rules of the event's region in force on its date, the company's and its institution's: the WHERE. */
function regrasDoEventoWhere(regiao: string, id: string) {
  const data = doEvento(id, sql`${agenda.dataEvento}`);
  return and(
    eq(regras.regiao, regiao),
    lte(regras.vigenciaInicio, data),
    or(isNull(regras.vigenciaFim), gte(regras.vigenciaFim, data)),
    or(eq(regras.escopo, 'empresa'), eq(regras.instituicaoId, doEvento(id, sql`${cadastroFot.instituicaoId}`))),
  );
}

/** The rules of the event's region in force on its date, the company's and its institution's. */
export const regrasDoEventoSelect = (db: Db, regiao: string, id: string) =>
  db.select().from(regras).where(regrasDoEventoWhere(regiao, id));

/**
 * The names of the functions those rules' quotas name (for the sentences): read from the rules' JSON,
 * so the read is the rules' few functions, not the region's catalog.
 */
const funcoesDasRegras = (db: Db, regiao: string, id: string) =>
  db
    .select({ id: funcoes.id, nome: funcoes.label })
    .from(funcoes)
    .where(
      sql`${funcoes.id} in (select json_extract(q.value, '$.funcao_id') from ${regras}, json_each(${regras.definicao}, '$.quotas') q where ${regrasDoEventoWhere(regiao, id)})`,
    );

/** The days before `data` (exclusive) that are not business days at a place: country, state, city, institution. */
export function naoUteisSelect(
  db: Db,
  regiao: string | SQL,
  at: { data: SQL | string; uf: SQL | string | null; cidade: SQL | number | null; instituicao: SQL | string | null },
) {
  return db
    .select({ data: feriados.data, nome: feriados.nome })
    .from(feriados)
    .where(
      and(
        lt(feriados.data, at.data),
        gte(feriados.data, sql`date(${at.data}, ${`-${FERIADOS_JANELA_DIAS} days`})`),
        ne(feriados.tipo, 'ponto_facultativo'),
        or(isNull(feriados.regiao), eq(feriados.regiao, regiao)),
        or(
          eq(feriados.escopo, 'nacional'),
          and(eq(feriados.escopo, 'uf'), eq(feriados.uf, at.uf as string)),
          and(eq(feriados.escopo, 'municipio'), eq(feriados.cidadeIbge, at.cidade as number)),
          and(eq(feriados.escopo, 'instituicao'), eq(feriados.instituicaoId, at.instituicao as string)),
        ),
      ),
    );
}

/** The reads of one event's evaluation, for one batch; `avaliarEvento` puts them together. */
export function eventoRegrasSelects({ db, regiao }: QueryCtx, scope: SqlScope, id: string) {
  return [
    eventoFatosSelect(db, visible(scope, regiao, eq(agenda.id, id))),
    db
      .select({ funcaoId: agendaEquipe.funcaoId, quantidade: agendaEquipe.quantidade })
      .from(agendaEquipe)
      .where(eq(agendaEquipe.agendaId, id)),
    regrasDoEventoSelect(db, regiao, id),
    funcoesDasRegras(db, regiao, id),
    naoUteisSelect(db, regiao, {
      data: doEvento(id, sql`${agenda.dataEvento}`),
      uf: doEvento(
        id,
        sql`coalesce((select ${cidades.uf} from ${cidades} where ${cidades.codigoIbge} = ${cidadeDe}), upper(${cadastroFot.estado}))`,
      ),
      cidade: doEvento(id, cidadeDe),
      instituicao: doEvento(id, sql`${cadastroFot.instituicaoId}`),
    }),
  ] as const;
}

export const eventNotFound = () => new ApiError('NOT_FOUND', 'evento não encontrado');

export type EventoRegrasRows = readonly [
  EventoFatos[],
  { funcaoId: string; quantidade: number }[],
  RegraRow[],
  { id: string; nome: string }[],
  { data: string; nome: string }[],
];

/** The event as the evaluation takes it, from the batch's rows. */
export function eventoDe(fatos: EventoFatos, equipe: EventoRegrasRows[1], naoUteis: EventoRegrasRows[4]): EventoRegras {
  const recursos: Partial<Record<RegraRecurso, number | null>> = {
    qtd_estudios: fatos.qtdEstudios,
    qtd_pontos_led: fatos.qtdPontosLed,
    qtd_plataforma_360: fatos.qtdPlataforma360,
    qtd_ponto_foto: fatos.qtdPontoFoto,
  };
  const feriadosMap = new Map<string, string>();
  for (const f of naoUteis)
    feriadosMap.set(f.data, feriadosMap.has(f.data) ? `${feriadosMap.get(f.data)}, ${f.nome}` : f.nome);
  return {
    data_evento: fatos.dataEvento,
    tipo_evento_id: fatos.tipoEventoId,
    instituicao_id: fatos.instituicaoId,
    qtd_formandos: fatos.qtdFormandos,
    equipe: Object.fromEntries(equipe.map((e) => [e.funcaoId, e.quantidade])),
    recursos,
    feriados: feriadosMap,
  };
}

/** The evaluation of the event from its batch's rows (404 when the caller may not see it). */
export function avaliarEvento(rows: EventoRegrasRows) {
  const [[fatos], equipe, stored, nomes, naoUteis] = rows;
  if (!fatos) throw eventNotFound();
  const names = Object.fromEntries(nomes.map((n) => [n.id, n.nome]));
  const evento = eventoDe(fatos, equipe, naoUteis);
  return {
    fatos,
    evento,
    avaliacao: avaliarRegras(
      stored.map((r) => toRegra(r, names)),
      evento,
    ),
  };
}

/**
 * The caps per function (`maximo`, `exato`) of the rules in force for the event whose facts and
 * candidate rules were read (eventoFatosSelect, regrasDoEventoSelect): a team quota above one is
 * 409 EXCEEDS_INSTITUTION_LIMIT unless forced (services/teams/team-quota.ts).
 */
export function maximosDoEvento(fatos: EventoFatos | undefined, stored: RegraRow[]) {
  if (!fatos || stored.length === 0) return new Map<string, { maximo: number; explicacao: string }>();
  return maximosPorFuncao(
    stored.map((r) => toRegra(r)),
    {
      data_evento: fatos.dataEvento,
      tipo_evento_id: fatos.tipoEventoId,
      instituicao_id: fatos.instituicaoId,
      qtd_formandos: fatos.qtdFormandos,
    },
  );
}
