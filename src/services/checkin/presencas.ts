import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../db/client';
import {
  agenda,
  convites,
  faltas,
  presencas,
  profissionais,
  type PresencaOrigem,
  type PresencaRow,
  type PresencaSituacao,
  type PresencaTipo,
} from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { created, logStatement, loggedUpdate } from '../core/activity-log';
import type { Ctx } from '../core/context';
import { outcomeStatements } from '../reliability/ledger';
import { eventKey, parseCode, sealedBy, stepOf } from './codes';
import {
  checkinSecret,
  eventNotFound,
  eventoCheckinOf,
  eventoCheckinSelect,
  isStaff,
  staffSql,
  windowOf,
} from './evento';
import { atrasoMin, geofence, windowOpen, type CheckinWindow, type Posicao } from './janela';

/**
 * Presences (docs/decisions.md#d27): the professional's own check-in with the event's code
 * (`POST /api/presencas`), the manual record (`POST /api/agenda/{id}/presencas/manual`) and the
 * review of a `revisar` (`PATCH /api/presencas/{id}`). Every write of a presence goes through
 * `presenceWrites`: one row per (invitation, tipo), INSERT ... ON CONFLICT DO NOTHING.
 */

export const toPresenca = (r: PresencaRow) => ({
  id: r.id,
  convite_id: r.conviteId,
  agenda_id: r.agendaId,
  profissional_id: r.profissionalId,
  tipo: r.tipo,
  momento: r.momento,
  origem: r.origem,
  offline: r.offline,
  latitude: r.latitude,
  longitude: r.longitude,
  precisao_m: r.precisaoM,
  distancia_m: r.distanciaM,
  dentro_raio: r.dentroRaio,
  situacao: r.situacao,
  atraso_min: r.atrasoMin,
  motivo: r.motivo,
  registrado_por: r.registradoPor,
  revisado_por: r.revisadoPor,
  revisado_em: r.revisadoEm,
  created_at: r.createdAt,
  updated_at: r.updatedAt,
});
export type PresencaBody = ReturnType<typeof toPresenca>;

/** A presence to record: every column but the timestamps. */
export interface NovaPresenca {
  id: string;
  conviteId: string;
  agendaId: string;
  profissionalId: string;
  tipo: PresencaTipo;
  momento: string;
  origem: PresencaOrigem;
  offline: boolean;
  latitude: number | null;
  longitude: number | null;
  precisaoM: number | null;
  distanciaM: number | null;
  dentroRaio: boolean | null;
  situacao: PresencaSituacao;
  atrasoMin: number | null;
  motivo: string | null;
  registradoPor: string | null;
}

/** The invitation is still accepted and has no confirmed no-show: what every presence write is guarded by. */
export const presenceAllowed = (conviteId: string | SQL) =>
  sql`exists (select 1 from ${convites} where ${convites.id} = ${conviteId} and ${convites.status} = 'aceito')
    and not exists (select 1 from ${faltas} where ${faltas.conviteId} = ${conviteId} and ${faltas.status} = 'confirmada')`;

/**
 * The statements that record one presence, exactly once per (invitation, tipo): the insert, guarded
 * by `guard` (and `presenceAllowed`), doing nothing when the pair exists. The row written is the one
 * whose id is `p.id`, so whatever joins the batch after it reads that row (`where presencas.id = p.id`)
 * and lands only with it: the reliability ledger (D28, issue 39) adds its row here, its credit
 * from `presencas.atraso_min` (minutes after the call time, or the start). A log entry, when given,
 * is written only with the row.
 */
export function presenceWrites(
  { db, log }: Pick<Ctx, 'db' | 'log'>,
  p: NovaPresenca,
  o: { guard: SQL; regiao?: string; logAcao?: string },
): BatchItem<'sqlite'>[] {
  const now = new Date().toISOString();
  const insert = db
    .insert(presencas)
    .select(
      sql`select ${p.id}, ${p.conviteId}, ${p.agendaId}, ${p.profissionalId}, ${p.tipo}, ${p.momento}, ${p.origem},
        ${p.offline ? 1 : 0}, ${p.latitude}, ${p.longitude}, ${p.precisaoM}, ${p.distanciaM},
        ${p.dentroRaio === null ? null : p.dentroRaio ? 1 : 0}, ${p.situacao}, ${p.atrasoMin}, ${p.motivo},
        ${p.registradoPor}, null, null, ${now}, ${now}
        where ${o.guard} and ${presenceAllowed(p.conviteId)}`,
    )
    .onConflictDoNothing();
  const recorded = sql`exists (select 1 from ${presencas} where ${presencas.id} = ${p.id})`;
  // An entry with a lateness enters the reliability ledger (docs/decisions.md#d28), only with its row.
  const ledger =
    p.tipo === 'entrada' && p.atrasoMin !== null
      ? outcomeStatements(db, {
          conviteId: p.conviteId,
          outcome: { tipo: 'chegada', atrasoMin: p.atrasoMin },
          em: p.momento,
          now,
          when: recorded,
        })
      : null;
  const withLedger = ledger ? [insert, ledger.ledger, ledger.score] : [insert];
  if (!o.logAcao) return withLedger;
  const { id: _id, ...values } = p;
  return [
    ...withLedger,
    logStatement(db, log, {
      acao: o.logAcao,
      entidade: 'presencas',
      entidadeId: p.id,
      regiao: o.regiao ?? null,
      dados: created(presencas, values),
      when: recorded,
    }),
  ];
}

/** The presences of an invitation (both tipos). */
const presencasOf = (db: Db, conviteId: string | SQL) =>
  db
    .select()
    .from(presencas)
    .where(sql`${presencas.conviteId} = ${conviteId}`);

const invalidToken = () =>
  new ApiError('INVALID_TOKEN', 'código de check-in inválido ou vencido: leia o código da tela de novo');
const windowClosed = (w: CheckinWindow, tipo: PresencaTipo) =>
  new ApiError(
    'CHECKIN_WINDOW_CLOSED',
    `o check-in deste evento está fechado (${tipo === 'entrada' ? 'entradas' : 'saídas'} de ${fmt(w.abre)} a ${fmt(tipo === 'entrada' ? w.fechaEntrada : w.fechaSaida)})`,
  );
/** An instant as São Paulo "dd/mm HH:MM". */
const fmt = (d: Date) => {
  const s = new Date(d.getTime() - 3 * 3600_000).toISOString();
  return `${s.slice(8, 10)}/${s.slice(5, 7)} ${s.slice(11, 16)}`;
};
const needsEntry = () => new ApiError('INVALID_STATE', 'registre a entrada antes da saída');
const noShowRecorded = () =>
  new ApiError('INVALID_STATE', 'falta já registrada para este convite: fale com o escritório');

export interface PresencaInput extends Posicao {
  token: string;
  tipo: PresencaTipo;
}

/**
 * A professional checks in (or out) with the event's code (D27). The code's event must be one the
 * caller is `aceito` on (else 404); its key version the event's current one and its step the server's
 * current or previous (else 409 INVALID_TOKEN); the server's clock inside the window (else 409
 * CHECKIN_WINDOW_CLOSED). The same (invitation, tipo) again answers the existing record (`created:
 * false`). Round trips: one read, one write.
 */
export async function registrarPresenca(ctx: Ctx, body: PresencaInput) {
  const { db, user } = ctx;
  const secret = checkinSecret(ctx.config);
  const code = parseCode(body.token);
  if (!code || code.tipo !== 'evento') throw invalidToken();
  // The mac first, in constant time: nothing is read for a forged code.
  if (!(await sealedBy(await eventKey(secret, code.agendaId, code.versao), code))) throw invalidToken();
  const now = new Date();
  const mine = sql`(select ${convites.id} from ${convites} join ${profissionais} on ${profissionais.id} = ${convites.profissionalId}
    where ${convites.agendaId} = ${code.agendaId} and ${profissionais.usuarioId} = ${user.id})`;
  const [invs, evs, existing] = await db.batch([
    db
      .select({ id: convites.id, status: convites.status, profissionalId: convites.profissionalId })
      .from(convites)
      .where(sql`${convites.id} = ${mine}`),
    eventoCheckinSelect(db, eq(agenda.id, code.agendaId)),
    presencasOf(db, mine),
  ]);
  const inv = invs[0];
  const ev = evs[0];
  if (!inv || !ev || inv.status !== 'aceito') throw eventNotFound();
  const same = existing.find((p) => p.tipo === body.tipo);
  if (same) return { created: false, presenca: toPresenca(same) };
  const step = stepOf(now.getTime());
  if (code.versao !== ev.chaveVersao || (code.step !== step && code.step !== step - 1)) throw invalidToken();
  const w = windowOf(ev);
  if (!windowOpen(w, body.tipo, now)) throw windowClosed(w, body.tipo);
  if (body.tipo === 'saida' && !existing.some((p) => p.tipo === 'entrada')) throw needsEntry();
  // A position is both coordinates; one without the other is none.
  const pos: Posicao = body.latitude !== undefined && body.longitude !== undefined ? body : {};
  const fence = geofence(ev, pos, ev.raioCheckinM);
  const exige = Boolean(ev.exigeLocalizacao);
  if (fence.dentro === false && exige)
    throw new ApiError(
      'OUTSIDE_GEOFENCE',
      `você está a ${fence.distancia} m do local do evento (raio ${ev.raioCheckinM} m): faça o check-in no local ou fale com o coordenador`,
    );
  const situacao: PresencaSituacao = fence.dentro === false || (fence.dentro === null && exige) ? 'revisar' : 'ok';
  const row: NovaPresenca = {
    id: crypto.randomUUID(),
    conviteId: inv.id,
    agendaId: ev.id,
    profissionalId: inv.profissionalId,
    tipo: body.tipo,
    momento: now.toISOString(),
    origem: 'qr_evento',
    offline: false,
    latitude: pos.latitude ?? null,
    longitude: pos.longitude ?? null,
    precisaoM: pos.precisao_m ?? null,
    distanciaM: fence.distancia,
    dentroRaio: fence.dentro,
    situacao,
    atrasoMin: atrasoMin(w, body.tipo, now),
    motivo: null,
    registradoPor: user.id,
  };
  return recordOne(ctx, row, { guard: sql`1` });
}

/** Runs a presence's writes and answers the (invitation, tipo)'s row: 201 if this batch wrote it, else the existing one. */
async function recordOne(ctx: Ctx, row: NovaPresenca, o: { guard: SQL; regiao?: string; logAcao?: string }) {
  const { db } = ctx;
  const results = await db.batch([
    ...presenceWrites(ctx, row, o),
    db
      .select()
      .from(presencas)
      .where(and(eq(presencas.conviteId, row.conviteId), eq(presencas.tipo, row.tipo))),
    db.select({ status: faltas.status }).from(faltas).where(eq(faltas.conviteId, row.conviteId)),
  ] as unknown as Parameters<typeof db.batch>[0]);
  const [written] = results.at(-2) as PresencaRow[];
  if (written) return { created: written.id === row.id, presenca: toPresenca(written) };
  const [falta] = results.at(-1) as { status: string }[];
  if (falta?.status === 'confirmada') throw noShowRecorded();
  // The invitation stopped being accepted (or the caller's standing changed) between the read and the write.
  throw new ApiError('CONFLICT', 'o convite mudou enquanto isso: nada foi gravado, tente de novo');
}

export interface ManualInput {
  convite_id: string;
  tipo: PresencaTipo;
  momento: string;
  motivo: string;
}

/**
 * A presence recorded by hand (administrators and the coordinator; logged `presencas.manual`): an
 * accepted invitation of the event, at a `momento` inside the window and not after the server's now.
 * A pair already recorded answers 200 when it is this very record again (a retry), else 409 CONFLICT
 * (an administrator corrects a record through the review).
 */
export async function registrarManual(ctx: Ctx, agendaId: string, body: ManualInput) {
  const { db, user, regiao } = ctx;
  const [evs, invs, existing] = await db.batch([
    eventoCheckinOf(db, regiao, agendaId),
    db
      .select({ id: convites.id, status: convites.status, profissionalId: convites.profissionalId })
      .from(convites)
      .where(and(eq(convites.id, body.convite_id), eq(convites.agendaId, agendaId))),
    presencasOf(db, body.convite_id),
  ]);
  const ev = evs[0];
  if (!ev || !isStaff(user, ev)) throw eventNotFound();
  const inv = invs[0];
  if (!inv) throw new ApiError('NOT_FOUND', 'convite_id: convite não encontrado neste evento');
  if (inv.status !== 'aceito') throw new ApiError('INVALID_STATE', 'só convites aceitos têm presença');
  const momento = new Date(body.momento);
  const same = existing.find((p) => p.tipo === body.tipo);
  if (same) {
    if (same.origem === 'manual' && same.momento === momento.toISOString())
      return { created: false, presenca: toPresenca(same) };
    throw new ApiError(
      'CONFLICT',
      `já há ${body.tipo} registrada para este convite (${same.momento}): um administrador a corrige pela revisão`,
    );
  }
  if (momento.getTime() > Date.now()) throw new ApiError('VALIDATION_FAILED', 'momento: não pode estar no futuro');
  const w = windowOf(ev);
  if (!windowOpen(w, body.tipo, momento)) throw windowClosed(w, body.tipo);
  if (body.tipo === 'saida' && !existing.some((p) => p.tipo === 'entrada')) throw needsEntry();
  const row: NovaPresenca = {
    id: crypto.randomUUID(),
    conviteId: inv.id,
    agendaId,
    profissionalId: inv.profissionalId,
    tipo: body.tipo,
    momento: momento.toISOString(),
    origem: 'manual',
    offline: false,
    latitude: null,
    longitude: null,
    precisaoM: null,
    distanciaM: null,
    dentroRaio: null,
    situacao: 'ok',
    atrasoMin: atrasoMin(w, body.tipo, momento),
    motivo: body.motivo,
    registradoPor: user.id,
  };
  return recordOne(ctx, row, { guard: staffSql(user, regiao, agendaId), regiao, logAcao: 'presencas.manual' });
}

export interface RevisaoInput {
  situacao: 'ok' | 'invalida';
  motivo?: string | null;
}

/** An administrator decides a presence (a `revisar`, or a decision changed): logged `presencas.revisar`. */
export async function revisarPresenca(ctx: Ctx, id: string, body: RevisaoInput) {
  const { db, log, regiao, user } = ctx;
  const now = new Date().toISOString();
  const where = and(
    eq(presencas.id, id),
    sql`exists (select 1 from ${agenda} where ${agenda.id} = ${presencas.agendaId} and ${agenda.regiao} = ${regiao})`,
  );
  const [entry, update] = loggedUpdate(
    { db, log },
    {
      table: presencas,
      where,
      set: {
        situacao: body.situacao,
        ...(body.motivo !== undefined ? { motivo: body.motivo } : {}),
        revisadoPor: user.id,
        revisadoEm: now,
        updatedAt: now,
      },
    },
    { acao: 'presencas.revisar', entidade: 'presencas', regiao },
  );
  const [, , rows] = await db.batch([entry, update, db.select().from(presencas).where(where)]);
  if (!rows[0]) throw new ApiError('NOT_FOUND', 'presença não encontrada');
  return toPresenca(rows[0]);
}

/** Whether an invitation's presences hold a valid entrada (a no-show is refused over one). */
export const hasEntry = (conviteId: string | SQL | SQLiteColumn) =>
  sql`exists (select 1 from ${presencas} where ${presencas.conviteId} = ${conviteId} and ${presencas.tipo} = 'entrada' and ${presencas.situacao} <> 'invalida')`;
