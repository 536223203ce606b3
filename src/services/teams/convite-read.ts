import { and, asc, count, desc, eq, getTableColumns, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { agenda, convites, funcoes, profissionais, profissionalFuncoes, tiposEventos } from '../../db/schema';
import type { Scope } from '../../db/scope';
import { ApiError } from '../../lib/errors';
import { isAdmin } from '../../lib/permissions';
import { pageBounds, whenPaged, type Page } from '../../lib/pagination';
import { visible as agendaVisible } from '../agenda/agenda';
import type { QueryCtx } from '../core/context';

/** How invitations are read: the view every answer gives, the caller's own, the event it manages, the lists. */

/**
 * An invitation's columns but its kept copy of the event's date (db/kept-columns.ts: the joined
 * event's own answers under that name) and its ranking snapshot (planners only: selectConvites'
 * `snapshot`).
 */
const { dataEvento: _keptDate, rankingSnapshot: _snapshot, ...conviteColumns } = getTableColumns(convites);

/**
 * The ranking snapshot as `reader` may see it (docs/decisions.md#d29): whole for an administrator;
 * for an agenda_viewer without the reliability component, and its score without that component's
 * contribution, as that role's own ranking scores it (D28 keeps the score from the role).
 */
const snapshotFor = (reader: Pick<Scope, 'role'>) => {
  if (isAdmin(reader.role)) return convites.rankingSnapshot;
  const s = convites.rankingSnapshot;
  const c = sql`json_extract(${s}, '$.componentes.confiabilidade.contribuicao')`;
  return sql<Record<string, unknown> | null>`iif(${c} is null, ${s},
    json_set(json_remove(${s}, '$.componentes.confiabilidade'), '$.score', round(json_extract(${s}, '$.score') - ${c}, 4)))`
    .mapWith(convites.rankingSnapshot)
    .as('ranking_snapshot');
};

/**
 * Invitations with the professional's, function's and event's names: one query. `snapshot`: the
 * planner reading, for the lists only planners read: with the ranking snapshot (docs/decisions.md#d29)
 * as it may see it.
 */
export const selectConvites = (db: Db, snapshot?: Pick<Scope, 'role'>) =>
  db
    .select({
      c: conviteColumns,
      ...(snapshot ? { rankingSnapshot: snapshotFor(snapshot) } : {}),
      profissionalNome: sql<string>`${profissionais.nome}`.as('profissional_nome'),
      funcaoNome: sql<string>`${funcoes.label}`.as('funcao_nome'),
      regiao: agenda.regiao,
      dataEvento: agenda.dataEvento,
      horario: agenda.horario,
      horarioFim: agenda.horarioFim,
      localEvento: agenda.localEvento,
      tipoEventoNome: sql<string>`${tiposEventos.label}`.as('tipo_evento_nome'),
    })
    .from(convites)
    .innerJoin(profissionais, eq(profissionais.id, convites.profissionalId))
    .innerJoin(funcoes, eq(funcoes.id, convites.funcaoId))
    .innerJoin(agenda, eq(agenda.id, convites.agendaId))
    .innerJoin(tiposEventos, eq(tiposEventos.id, agenda.tipoEventoId));

export const conviteOrder = [asc(agenda.dataEvento), asc(agenda.horario), desc(convites.createdAt), asc(convites.id)];

export type ConviteView = Awaited<ReturnType<typeof selectConvites>>[number];
export type ConviteStatus = (typeof convites.$inferSelect)['status'];

export function toConviteResponse(v: ConviteView & { rankingSnapshot?: Record<string, unknown> | null }) {
  return {
    id: v.c.id,
    agenda_id: v.c.agendaId,
    profissional_id: v.c.profissionalId,
    profissional_nome: v.profissionalNome,
    funcao_id: v.c.funcaoId,
    funcao_nome: v.funcaoNome,
    status: v.c.status,
    origem: v.c.origem,
    convidado_por: v.c.convidadoPor,
    respondido_em: v.c.respondidoEm,
    confirmado_em: v.c.confirmadoEm,
    ciente_versao: v.c.cienteVersao,
    created_at: v.c.createdAt,
    updated_at: v.c.updatedAt,
    evento: {
      regiao: v.regiao,
      data_evento: v.dataEvento,
      horario: v.horario,
      horario_fim: v.horarioFim,
      local_evento: v.localEvento,
      tipo_evento_nome: v.tipoEventoNome,
    },
    // Planners' reads only (selectConvites with `snapshot`): why the ranking chose this professional.
    ...(v.rankingSnapshot !== undefined ? { ranking_snapshot: v.rankingSnapshot } : {}),
  };
}

export type ConviteBody = ReturnType<typeof toConviteResponse>;

export const eventNotFound = () => new ApiError('NOT_FOUND', 'evento não encontrado');
export const conviteNotFound = () => new ApiError('NOT_FOUND', 'convite não encontrado');

/** The one invitation a read found, as the API answers it; none: 404. */
export const oneConvite = (rows: ConviteView[]) => {
  if (!rows[0]) throw conviteNotFound();
  return toConviteResponse(rows[0]);
};

/** An invitation's region, for its entries: its event's. */
export const conviteRegiao = sql`(select ${agenda.regiao} from ${agenda} where ${agenda.id} = ${convites.agendaId})`;

/** Invitations of the professional profile linked to this user: a professional's visibility rule. */
export const ownConvites = (usuario: string | Placeholder) =>
  sql`${convites.profissionalId} in (select ${profissionais.id} from ${profissionais} where ${profissionais.usuarioId} = ${usuario})`;

/** The professional profile the query reads holds the function `funcaoId` (an invitation or application is for one it holds). */
export const holdsFuncao = (funcaoId: string) =>
  sql<number>`exists (select 1 from ${profissionalFuncoes} where ${profissionalFuncoes.profissionalId} = ${profissionais.id} and ${profissionalFuncoes.funcaoId} = ${funcaoId})`;

/** The event, if the caller may manage it (administrators, or its agenda_viewer creator). */
export const managedEvent = ({ db, regiao }: QueryCtx, scope: Scope, id: string) =>
  db
    .select({ id: agenda.id, userId: agenda.userId, dataEvento: agenda.dataEvento })
    .from(agenda)
    .where(agendaVisible(scope, regiao, eq(agenda.id, id)));

/**
 * A page of invitations matching `where` and, when paged, their total (the queries, to batch). A
 * whole list is its own total (totalOf; docs/api-conventions.md, "Offset lists").
 */
function pageOfConvites(db: Db, where: SQL | undefined, page: Page, snapshot?: Pick<Scope, 'role'>) {
  const { limit, offset } = pageBounds(page);
  return [
    selectConvites(db, snapshot)
      .where(where)
      .orderBy(...conviteOrder)
      .limit(limit)
      .offset(offset),
    ...whenPaged(
      page,
      db.select({ n: count() }).from(convites).innerJoin(agenda, eq(agenda.id, convites.agendaId)).where(where),
    ),
  ] as const;
}

/** An event's invitations (for those who manage it): the event, the page, its total when paged. */
export const eventConvitesSelects = (ctx: QueryCtx, scope: Scope, { id, ...page }: Page & { id: string }) =>
  [managedEvent(ctx, scope, id), ...pageOfConvites(ctx.db, eq(convites.agendaId, id), page, scope)] as const;

export function eventConvites(event: unknown[], rows: ConviteView[]) {
  if (!event[0]) throw eventNotFound();
  return rows.map(toConviteResponse);
}

/** The caller's own invitations, optionally of one status: the page and its total when paged. */
export const myConvitesSelects = (
  { db }: Pick<QueryCtx, 'db'>,
  scope: Scope,
  { status, ...page }: Page & { status?: ConviteStatus },
) => pageOfConvites(db, and(ownConvites(scope.id), status ? eq(convites.status, status) : undefined), page);
