import { and, eq, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../db/client';
import {
  agenda,
  agendaCheckin,
  agendaLogistica,
  CHECKIN_DEFAULTS,
  convites,
  profissionais,
  type AuthUser,
} from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { isAdmin } from '../../lib/permissions';
import { checkinWindow, type CheckinWindow } from './janela';

/**
 * An event as check-in sees it (docs/decisions.md#d27): its hours, venue, settings (or the defaults),
 * key version, call time and coordinator, in one select; and who may run its check-in ("staff"):
 * administrators, its agenda_viewer creator, and its coordinator while the coordinator's invitation is
 * `aceito`. The same rule is SQL (`staffSql`) for the writes' guards.
 */

const coord = alias(convites, 'coord');
const coordProf = alias(profissionais, 'coord_prof');

export const eventoCheckinSelect = (db: Db, where: SQL | undefined) =>
  db
    .select({
      id: agenda.id,
      regiao: agenda.regiao,
      userId: agenda.userId,
      dataEvento: agenda.dataEvento,
      horario: agenda.horario,
      horarioFim: agenda.horarioFim,
      latitude: agenda.latitude,
      longitude: agenda.longitude,
      raioCheckinM: sql<number>`coalesce(${agendaCheckin.raioCheckinM}, ${CHECKIN_DEFAULTS.raioCheckinM})`.as('raio'),
      checkinAbreMin: sql<number>`coalesce(${agendaCheckin.checkinAbreMin}, ${CHECKIN_DEFAULTS.checkinAbreMin})`.as(
        'abre',
      ),
      checkinFechaMin: sql<number>`coalesce(${agendaCheckin.checkinFechaMin}, ${CHECKIN_DEFAULTS.checkinFechaMin})`.as(
        'fecha',
      ),
      exigeLocalizacao: sql<number>`coalesce(${agendaCheckin.exigeLocalizacao}, 0)`.as('exige'),
      chaveVersao: sql<number>`coalesce(${agendaCheckin.chaveVersao}, 1)`.as('versao'),
      coordenadorConviteId: agendaCheckin.coordenadorConviteId,
      coordStatus: sql<string | null>`${coord.status}`.as('coord_status'),
      coordProfissionalId: sql<string | null>`${coord.profissionalId}`.as('coord_profissional_id'),
      coordNome: sql<string | null>`${coordProf.nome}`.as('coord_nome'),
      coordUsuarioId: sql<string | null>`${coordProf.usuarioId}`.as('coord_usuario_id'),
      chegada: agendaLogistica.horarioChegada,
    })
    .from(agenda)
    .leftJoin(agendaCheckin, eq(agendaCheckin.agendaId, agenda.id))
    .leftJoin(agendaLogistica, eq(agendaLogistica.agendaId, agenda.id))
    .leftJoin(coord, eq(coord.id, agendaCheckin.coordenadorConviteId))
    .leftJoin(coordProf, eq(coordProf.id, coord.profissionalId))
    .where(where);

/** The event `id` of the region. */
export const eventoCheckinOf = (db: Db, regiao: string, id: string) =>
  eventoCheckinSelect(db, and(eq(agenda.id, id), eq(agenda.regiao, regiao)));

export type EventoCheckin = Awaited<ReturnType<typeof eventoCheckinSelect>>[number];

/** Whether the caller runs this event's check-in (see the file comment). */
export function isStaff(user: Pick<AuthUser, 'id' | 'role'>, ev: EventoCheckin) {
  if (isAdmin(user.role)) return true;
  if (user.role === 'agenda_viewer') return ev.userId === user.id;
  if (user.role === 'profissional') return ev.coordStatus === 'aceito' && ev.coordUsuarioId === user.id;
  return false;
}

/** Whether the caller is the event's coordinator. */
export const isCoordinator = (user: Pick<AuthUser, 'id'>, ev: EventoCheckin) =>
  ev.coordStatus === 'aceito' && ev.coordUsuarioId === user.id;

/** `isStaff` as SQL over the event id `agendaId`, for a write's guard (with the event in `regiao`). */
export function staffSql(user: Pick<AuthUser, 'id' | 'role'>, regiao: string, agendaId: string): SQL {
  const inRegion = sql`exists (select 1 from ${agenda} where ${agenda.id} = ${agendaId} and ${agenda.regiao} = ${regiao}`;
  if (isAdmin(user.role)) return sql`${inRegion})`;
  if (user.role === 'agenda_viewer') return sql`${inRegion} and ${agenda.userId} = ${user.id})`;
  if (user.role === 'profissional')
    return sql`${inRegion}) and exists (select 1 from ${agendaCheckin}
      join ${convites} on ${convites.id} = ${agendaCheckin.coordenadorConviteId}
      join ${profissionais} on ${profissionais.id} = ${convites.profissionalId}
      where ${agendaCheckin.agendaId} = ${agendaId} and ${convites.status} = 'aceito' and ${profissionais.usuarioId} = ${user.id})`;
  return sql`0`;
}

export const eventNotFound = () => new ApiError('NOT_FOUND', 'evento não encontrado');

/** The event if the caller is its staff; else 404 (the API never confirms an event it may not see). */
export async function staffEvent(ctx: { db: Db; regiao: string; user: AuthUser }, id: string) {
  const [ev] = await eventoCheckinOf(ctx.db, ctx.regiao, id);
  if (!ev || !isStaff(ctx.user, ev)) throw eventNotFound();
  return ev;
}

/** The event's check-in window. */
export const windowOf = (ev: EventoCheckin): CheckinWindow =>
  checkinWindow(
    { dataEvento: ev.dataEvento, horario: ev.horario, horarioFim: ev.horarioFim, chegada: ev.chegada },
    { checkinAbreMin: ev.checkinAbreMin, checkinFechaMin: ev.checkinFechaMin },
  );

/** CHECKIN_SECRET, or 503 CONFIG_MISSING (nothing was changed). */
export function checkinSecret(config: { CHECKIN_SECRET?: string }): string {
  if (!config.CHECKIN_SECRET)
    throw new ApiError('CONFIG_MISSING', 'check-in por QR não configurado: defina CHECKIN_SECRET (operador)');
  return config.CHECKIN_SECRET;
}

/** The window as the API answers it. */
export const janelaBody = (w: CheckinWindow) => ({
  abre_em: w.abre.toISOString(),
  fecha_entrada_em: w.fechaEntrada.toISOString(),
  fecha_saida_em: w.fechaSaida.toISOString(),
  referencia_em: w.referencia?.toISOString() ?? null,
});
