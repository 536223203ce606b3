import { and, asc, eq, gte, lt, lte, sql, type SQL } from 'drizzle-orm';
import { insertWhere } from '../../db/guarded';
import {
  agenda,
  convites,
  disponibilidades,
  profissionais,
  type DisponibilidadeRow,
  type DisponibilidadeTipo,
} from '../../db/schema';
import { saoPauloDate } from '../../lib/dates';
import { ApiError } from '../../lib/errors';
import { created, loggedDelete, loggedUpdate, logStatement } from '../core/activity-log';
import type { Ctx } from '../core/context';
import { acceptedMeeting, type DeclSql } from './rule';

/**
 * Declarations of availability (docs/decisions.md#d24; docs/guide/availability.md): a professional's
 * own (`/api/profissionais/me/disponibilidades`) and an administrator's for any professional of the
 * region (`/api/profissionais/{id}/disponibilidades`). Only these two read them, so `motivo`, private,
 * is answered to no one else; the summary and the season poll answer counts.
 */

/** Whose declarations: the caller's own profile, or a profile of the region (administrators). */
export type Alvo = { me: true } | { id: string };

/** The longest range of one declaration (and of a season poll), in days between its first and last. */
export const MAX_RANGE_DAYS = 120;

/** The profile the route names, as a condition on `profissionais`. */
function profileWhere(ctx: Pick<Ctx, 'user' | 'regiao'>, alvo: Alvo): SQL {
  return 'me' in alvo
    ? eq(profissionais.usuarioId, ctx.user.id)
    : and(eq(profissionais.id, alvo.id), eq(profissionais.regiao, ctx.regiao))!;
}
const profileId = (where: SQL) => sql`(select ${profissionais.id} from ${profissionais} where ${where})`;
const profileMissing = (alvo: Alvo) =>
  new ApiError(
    'NOT_FOUND',
    'me' in alvo ? 'nenhum perfil profissional ligado a esta conta' : 'profissional não encontrado',
  );

/** Weekdays 0-6 as the stored bit mask, and back. */
export const maskOf = (dias: readonly number[] | undefined) =>
  dias === undefined ? null : dias.reduce((m, d) => m | (1 << d), 0);
export const diasOf = (mask: number | null) =>
  mask === null ? null : [0, 1, 2, 3, 4, 5, 6].filter((d) => (mask >> d) & 1);

export const toDisponibilidade = (r: DisponibilidadeRow) => ({
  id: r.id,
  profissional_id: r.profissionalId,
  tipo: r.tipo,
  data_inicio: r.dataInicio,
  data_fim: r.dataFim,
  hora_inicio: r.horaInicio,
  hora_fim: r.horaFim,
  dias_semana: diasOf(r.diasSemana),
  motivo: r.motivo,
  origem: r.origem,
  campanha_id: r.campanhaId,
  created_at: r.createdAt,
  updated_at: r.updatedAt,
});

export interface DisponibilidadeFilters {
  de?: string;
  ate?: string;
}

/** The declarations meeting `de`..`ate` (from today on, by default), by first day: one round trip. */
export async function listDisponibilidades(ctx: Ctx, alvo: Alvo, f: DisponibilidadeFilters) {
  const { db } = ctx;
  const where = profileWhere(ctx, alvo);
  const de = f.de ?? saoPauloDate(new Date());
  const [profile, rows] = await db.batch([
    db.select({ id: profissionais.id }).from(profissionais).where(where),
    db
      .select()
      .from(disponibilidades)
      .where(
        and(
          sql`${disponibilidades.profissionalId} = ${profileId(where)}`,
          gte(disponibilidades.dataFim, de),
          f.ate ? lte(disponibilidades.dataInicio, f.ate) : undefined,
        ),
      )
      .orderBy(asc(disponibilidades.dataInicio), asc(disponibilidades.id)),
  ]);
  if (!profile[0]) throw profileMissing(alvo);
  return rows.map(toDisponibilidade);
}

export interface DisponibilidadeInput {
  tipo: DisponibilidadeTipo;
  data_inicio: string;
  data_fim?: string;
  hora_inicio?: string;
  hora_fim?: string;
  dias_semana?: number[];
  motivo?: string | null;
}

const brDate = (d: string) => `${d.slice(8, 10)}/${d.slice(5, 7)}/${d.slice(0, 4)}`;

/** "05/12/2026 às 19:30 (id)" for each event: what a refusal names. */
export const eventList = (rows: { id: string; data: string; horario: string | null }[]) =>
  rows.map((e) => `${brDate(e.data)}${e.horario ? ` às ${e.horario}` : ''} (${e.id})`).join(', ');

/** Past days are locked (D24): nothing is declared before today, São Paulo time. */
function assertNotPast(dataInicio: string, hoje: string) {
  if (dataInicio < hoje)
    throw new ApiError('INVALID_STATE', `data_inicio: dias passados não podem ser declarados (hoje é ${hoje})`);
}

/**
 * Declares. One guarded INSERT: it writes only while the profile exists and, for `indisponivel`,
 * while no accepted invitation's window meets it (the acceptance's guard is the mirror, so of the
 * two racing, one wins); the refused one is explained from the same batch (404, 409 HAS_ASSIGNMENT
 * naming the events).
 */
export async function createDisponibilidade(ctx: Ctx, alvo: Alvo, body: DisponibilidadeInput) {
  const { db, log, user } = ctx;
  const hoje = saoPauloDate(new Date());
  assertNotPast(body.data_inicio, hoje);
  const where = profileWhere(ctx, alvo);
  const pid = profileId(where);
  const id = crypto.randomUUID();
  const values = {
    id,
    tipo: body.tipo,
    dataInicio: body.data_inicio,
    dataFim: body.data_fim ?? body.data_inicio,
    horaInicio: body.hora_inicio ?? null,
    horaFim: body.hora_fim ?? null,
    diasSemana: maskOf(body.dias_semana),
    motivo: body.motivo ?? null,
    origem: 'me' in alvo ? ('profissional' as const) : ('admin' as const),
    criadoPor: user.id,
  };
  const decl: DeclSql = {
    inicio: sql`${values.dataInicio}`,
    fim: sql`${values.dataFim}`,
    horaInicio: sql`${values.horaInicio}`,
    horaFim: sql`${values.horaFim}`,
    dias: sql`${values.diasSemana}`,
  };
  const clash = acceptedMeeting(pid, decl);
  const free =
    body.tipo === 'indisponivel'
      ? sql`not exists (select 1 from ${convites} join ${agenda} on ${agenda.id} = ${convites.agendaId} where ${clash})`
      : sql`1`;
  const insert = insertWhere(
    db,
    disponibilidades,
    { ...values, profissionalId: pid as never },
    sql`exists (select 1 from ${profissionais} where ${where}) and ${free}`,
  );
  const entry = logStatement(db, log, {
    acao: 'disponibilidades.create',
    entidade: 'disponibilidades',
    entidadeId: id,
    regiao: sql`(select ${profissionais.regiao} from ${profissionais} where ${where})`,
    dados: { ...created(disponibilidades, values), profissional_id: { depois: pid } },
    when: sql`exists (select 1 from ${disponibilidades} where ${disponibilidades.id} = ${id})`,
  });
  const [, , rows, profile, clashes] = await db.batch([
    insert,
    entry,
    db.select().from(disponibilidades).where(eq(disponibilidades.id, id)),
    db.select({ id: profissionais.id }).from(profissionais).where(where),
    db
      .select({ id: agenda.id, data: agenda.dataEvento, horario: agenda.horario })
      .from(convites)
      .innerJoin(agenda, eq(agenda.id, convites.agendaId))
      .where(clash)
      .orderBy(asc(agenda.dataEvento), asc(agenda.horario)),
  ]);
  if (rows[0]) return toDisponibilidade(rows[0]);
  if (!profile[0]) throw profileMissing(alvo);
  if (clashes.length)
    throw new ApiError(
      'HAS_ASSIGNMENT',
      `indisponibilidade sobre convite aceito: cancele primeiro a participação pelo caminho normal (eventos: ${eventList(clashes)})`,
    );
  throw new ApiError('CONFLICT', 'a declaração mudou enquanto isso: nada foi gravado, tente de novo');
}

/**
 * Removes a declaration. Past days are locked (D24): one that has not started is deleted; one under
 * way ends yesterday (its past days stay, as the record of what was declared); one wholly past is
 * 409 INVALID_STATE. Both writes are guarded by those conditions, in one batch with their log entries.
 */
export async function deleteDisponibilidade(ctx: Ctx, alvo: Alvo, id: string) {
  const { db, log } = ctx;
  const hoje = saoPauloDate(new Date());
  const ontem = saoPauloDate(new Date(), -1);
  const mine = and(
    eq(disponibilidades.id, id),
    sql`${disponibilidades.profissionalId} = ${profileId(profileWhere(ctx, alvo))}`,
  );
  const regiao = sql`(select ${profissionais.regiao} from ${profissionais} where ${profissionais.id} = ${disponibilidades.profissionalId})`;
  const [delEntry, del] = loggedDelete(
    { db, log },
    { table: disponibilidades, where: and(mine, gte(disponibilidades.dataInicio, hoje)) },
    { acao: 'disponibilidades.delete', entidade: 'disponibilidades', regiao },
  );
  const [endEntry, end] = loggedUpdate(
    { db, log },
    {
      table: disponibilidades,
      where: and(mine, lt(disponibilidades.dataInicio, hoje), gte(disponibilidades.dataFim, hoje)),
      set: { dataFim: ontem, updatedAt: new Date().toISOString() },
    },
    { acao: 'disponibilidades.encerrar', entidade: 'disponibilidades', regiao },
  );
  const [, deleted, , ended, left] = await db.batch([
    delEntry,
    del,
    endEntry,
    end,
    db.select({ id: disponibilidades.id }).from(disponibilidades).where(mine),
  ]);
  if (deleted.meta.changes > 0 || ended.meta.changes > 0) return;
  if (left[0]) throw new ApiError('INVALID_STATE', 'a declaração é toda de dias passados: não pode ser removida');
  throw new ApiError('NOT_FOUND', 'declaração não encontrada');
}
