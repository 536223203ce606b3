import { and, eq, sql } from 'drizzle-orm';
import { agendaCheckin, convites } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { isAdmin } from '../../lib/permissions';
import { logStatement, type Change } from '../core/activity-log';
import type { Ctx } from '../core/context';
import { eventCode, eventKey, keyText, STEP_MS, stepOf, stepStart } from './codes';
import {
  checkinSecret,
  eventNotFound,
  eventoCheckinOf,
  isStaff,
  janelaBody,
  staffEvent,
  staffSql,
  windowOf,
  type EventoCheckin,
} from './evento';

/**
 * An event's check-in settings, its coordinator, its rotating code, its display key and the key's
 * rotation (docs/decisions.md#d27; docs/guide/checkin.md).
 */

export const toCheckinSettings = (ev: EventoCheckin) => ({
  agenda_id: ev.id,
  raio_checkin_m: ev.raioCheckinM,
  checkin_abre_min: ev.checkinAbreMin,
  checkin_fecha_min: ev.checkinFechaMin,
  exige_localizacao: Boolean(ev.exigeLocalizacao),
  chave_versao: ev.chaveVersao,
  coordenador:
    ev.coordenadorConviteId && ev.coordStatus === 'aceito'
      ? { convite_id: ev.coordenadorConviteId, profissional_id: ev.coordProfissionalId!, nome: ev.coordNome! }
      : null,
  local: ev.latitude !== null && ev.longitude !== null ? { latitude: ev.latitude, longitude: ev.longitude } : null,
  janela: janelaBody(windowOf(ev)),
});

export async function getCheckinSettings(ctx: Ctx, id: string) {
  return toCheckinSettings(await staffEvent(ctx, id));
}

export interface CheckinSettingsInput {
  raio_checkin_m?: number;
  checkin_abre_min?: number;
  checkin_fecha_min?: number;
  exige_localizacao?: boolean;
  coordenador_convite_id?: string | null;
}

const FIELDS = {
  raio_checkin_m: 'raioCheckinM',
  checkin_abre_min: 'checkinAbreMin',
  checkin_fecha_min: 'checkinFechaMin',
  exige_localizacao: 'exigeLocalizacao',
  coordenador_convite_id: 'coordenadorConviteId',
} as const;

/**
 * Changes the fields sent (administrators and the event's agenda_viewer creator; the coordinator only
 * administrators). One upsert of the event's row, guarded by the caller's standing and, for a
 * coordinator, by its invitation being `aceito` on this event; its log entry (before, from the row as
 * it was) in the same batch. Refusals are explained from the read that follows in the batch.
 */
export async function putCheckinSettings(ctx: Ctx, id: string, body: CheckinSettingsInput) {
  const { db, user, regiao, log } = ctx;
  if (body.coordenador_convite_id !== undefined && !isAdmin(user.role))
    throw new ApiError('FORBIDDEN', 'só administradores designam o coordenador do evento');
  const set: Record<string, unknown> = {};
  const dados: Record<string, Change> = {};
  for (const [wire, key] of Object.entries(FIELDS)) {
    const v = body[wire as keyof CheckinSettingsInput];
    if (v === undefined) continue;
    set[key] = v;
    const col = agendaCheckin[key];
    dados[col.name] = {
      antes: sql`(select ${col} from ${agendaCheckin} where ${agendaCheckin.agendaId} = ${id})`,
      depois: v,
    };
  }
  const coordOk =
    typeof body.coordenador_convite_id === 'string'
      ? sql`exists (select 1 from ${convites} where ${convites.id} = ${body.coordenador_convite_id} and ${convites.agendaId} = ${id} and ${convites.status} = 'aceito')`
      : sql`1`;
  const guard = sql`${staffSql(user, regiao, id)} and ${coordOk}`;
  const now = new Date().toISOString();
  const writes = Object.keys(set).length
    ? [
        logStatement(db, log, {
          acao: 'agenda_checkin.update',
          entidade: 'agenda_checkin',
          entidadeId: id,
          regiao,
          dados,
          when: guard,
        }),
        db
          .insert(agendaCheckin)
          .select(
            sql`select ${id}, ${set.raioCheckinM ?? 300}, ${set.checkinAbreMin ?? 90}, ${set.checkinFechaMin ?? 60},
              ${set.exigeLocalizacao === undefined ? 0 : set.exigeLocalizacao ? 1 : 0}, 1, ${set.coordenadorConviteId ?? null}, ${now}, ${now}
              where ${guard}`,
          )
          .onConflictDoUpdate({ target: agendaCheckin.agendaId, set: { ...set, updatedAt: now } }),
      ]
    : [];
  const results = await db.batch([
    ...writes,
    eventoCheckinOf(db, regiao, id),
    db
      .select({ status: convites.status })
      .from(convites)
      .where(and(eq(convites.id, body.coordenador_convite_id ?? ''), eq(convites.agendaId, id))),
  ] as unknown as Parameters<typeof db.batch>[0]);
  const [ev] = results.at(-2) as EventoCheckin[];
  if (!ev || !isStaff(user, ev)) throw eventNotFound();
  if (typeof body.coordenador_convite_id === 'string' && ev.coordenadorConviteId !== body.coordenador_convite_id) {
    const [c] = results.at(-1) as { status: string }[];
    if (!c) throw new ApiError('NOT_FOUND', 'coordenador_convite_id: convite não encontrado neste evento');
    throw new ApiError('INVALID_STATE', 'o coordenador deve ter o convite aceito neste evento');
  }
  return toCheckinSettings(ev);
}

/** The event's code of the current step: for the screen at the door (administrators, the creator, the coordinator). */
export async function eventQr(ctx: Ctx, id: string) {
  const secret = checkinSecret(ctx.config);
  const ev = await staffEvent(ctx, id);
  const step = stepOf(Date.now());
  const token = await eventCode(await eventKey(secret, ev.id, ev.chaveVersao), {
    versao: ev.chaveVersao,
    agendaId: ev.id,
    step,
  });
  return {
    token,
    url: `${ctx.config.APP_URL}/checkin?c=${token}`,
    expira_em: stepStart(step + 1).toISOString(),
    passo_s: STEP_MS / 1000,
    chave_versao: ev.chaveVersao,
  };
}

/** How long before the window opens a display device may take the key. */
const KEY_LEAD_MS = 24 * 3600 * 1000;

/**
 * The event key for a display device that draws the codes offline, from 24 h before the window opens
 * until exits close (else 409 CHECKIN_WINDOW_CLOSED). Who took it is logged (never the key).
 */
export async function eventKeyForDisplay(ctx: Ctx, id: string) {
  const { db, log, regiao } = ctx;
  const secret = checkinSecret(ctx.config);
  const ev = await staffEvent(ctx, id);
  const w = windowOf(ev);
  const now = Date.now();
  if (now < w.abre.getTime() - KEY_LEAD_MS || now > w.fechaSaida.getTime())
    throw new ApiError(
      'CHECKIN_WINDOW_CLOSED',
      'a chave do evento só é entregue a partir de 24 h antes da abertura do check-in até o fim das saídas',
    );
  await db.batch([
    logStatement(db, log, {
      acao: 'agenda_checkin.chave',
      entidade: 'agenda_checkin',
      entidadeId: id,
      regiao,
      dados: { chave_versao: { depois: ev.chaveVersao } },
    }),
  ]);
  return {
    chave: keyText(await eventKey(secret, ev.id, ev.chaveVersao)),
    chave_versao: ev.chaveVersao,
    agenda_id: ev.id,
    passo_s: STEP_MS / 1000,
    janela: janelaBody(w),
  };
}

/** Bumps the key version: every code and display key of the old version stops working at once. Logged. */
export async function rotateEventKey(ctx: Ctx, id: string) {
  const { db, log, user, regiao } = ctx;
  const guard = staffSql(user, regiao, id);
  const now = new Date().toISOString();
  const [, , rows] = await db.batch([
    logStatement(db, log, {
      acao: 'agenda_checkin.rotacionar',
      entidade: 'agenda_checkin',
      entidadeId: id,
      regiao,
      dados: {
        chave_versao: {
          antes: sql`coalesce((select ${agendaCheckin.chaveVersao} from ${agendaCheckin} where ${agendaCheckin.agendaId} = ${id}), 1)`,
          depois: sql`coalesce((select ${agendaCheckin.chaveVersao} from ${agendaCheckin} where ${agendaCheckin.agendaId} = ${id}), 1) + 1`,
        },
      },
      when: guard,
    }),
    db
      .insert(agendaCheckin)
      .select(sql`select ${id}, 300, 90, 60, 0, 2, null, ${now}, ${now} where ${guard}`)
      .onConflictDoUpdate({
        target: agendaCheckin.agendaId,
        set: { chaveVersao: sql`${agendaCheckin.chaveVersao} + 1`, updatedAt: now },
      }),
    eventoCheckinOf(db, regiao, id),
  ]);
  const [ev] = rows;
  if (!ev || !isStaff(user, ev)) throw eventNotFound();
  return toCheckinSettings(ev);
}
