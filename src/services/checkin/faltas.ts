import { and, eq, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { createDb, type Db } from '../../db/client';
import { generatedId } from '../../db/generated-id';
import { rawBatch } from '../../db/raw-batch';
import {
  agenda,
  agendaCheckin,
  CHECKIN_DEFAULTS,
  confiabilidadeContestacoes,
  confiabilidadeEventos,
  convites,
  faltas,
  notifications,
  profissionais,
  users,
  type FaltaRow,
} from '../../db/schema';
import type { Bindings } from '../../env';
import { eventStart, eventStartSql, saoPauloDate } from '../../lib/dates';
import { ApiError } from '../../lib/errors';
import type { PushMessage } from '../../lib/messages';
import { regionAdmin } from '../accounts/profile';
import { loggedUpdate, logStatement } from '../core/activity-log';
import type { Ctx } from '../core/context';
import { notifyFromRow } from '../core/notifications';
import { excuseStatements, outcomeStatements } from '../reliability/ledger';
import { hasEntry } from './presencas';

/**
 * No-shows (docs/decisions.md#d27): the job flags `falta_provavel` once per invitation and tells the
 * region's administrators; only an administrator's `POST /api/convites/{id}/falta` records one.
 */

export const toFalta = (r: FaltaRow) => ({
  convite_id: r.conviteId,
  agenda_id: r.agendaId,
  profissional_id: r.profissionalId,
  status: r.status,
  provavel_em: r.provavelEm,
  confirmada_em: r.confirmadaEm,
  confirmada_por: r.confirmadaPor,
  motivo: r.motivo,
});

/** The statements of this batch's no-show land only with the row it marked (`execucao` = the request's mark). */
export const faltaMarked = (conviteId: string, marca: string) =>
  sql`exists (select 1 from ${faltas} where ${faltas.conviteId} = ${conviteId} and ${faltas.execucao} = ${marca} and ${faltas.status} = 'confirmada')`;

/**
 * The statements that confirm a no-show exactly once: an upsert of the invitation's row (a `provavel`
 * becomes `confirmada`; a `confirmada` is left as it is), guarded by the invitation being `aceito` on
 * an event of the region that has started, with no valid entrada. It writes `execucao = marca`, so
 * what joins the batch after it is guarded by `faltaMarked(conviteId, marca)` and lands only with it:
 * the log entry and the professional's notification here, the reliability ledger's row (a confirmed
 * no-show, D28) added after them.
 */
export function faltaWrites(
  { db, log }: Pick<Ctx, 'db' | 'log'>,
  f: { conviteId: string; regiao: string; motivo: string | null; autor: string; marca: string; agora: string },
): { statements: BatchItem<'sqlite'>[]; notes: ReturnType<typeof notifyFromRow> } {
  const { conviteId, regiao, motivo, autor, marca, agora } = f;
  const started = sql`${eventStartSql(agenda.dataEvento, agenda.horario)} <= ${agora}`;
  const upsert = db
    .insert(faltas)
    .select(
      sql`select ${convites.id}, ${convites.agendaId}, ${convites.profissionalId}, 'confirmada', null, ${agora}, ${autor}, ${motivo}, ${marca}, ${agora}, ${agora}
        from ${convites} join ${agenda} on ${agenda.id} = ${convites.agendaId}
        where ${convites.id} = ${conviteId} and ${convites.status} = 'aceito' and ${agenda.regiao} = ${regiao}
          and ${started} and not ${hasEntry(conviteId)}`,
    )
    .onConflictDoUpdate({
      target: faltas.conviteId,
      set: {
        status: 'confirmada',
        confirmadaEm: agora,
        confirmadaPor: autor,
        motivo,
        execucao: marca,
        updatedAt: agora,
      },
      setWhere: sql`${faltas.status} <> 'confirmada'`,
    });
  const marked = faltaMarked(conviteId, marca);
  const entry = logStatement(db, log, {
    acao: 'faltas.confirmar',
    entidade: 'faltas',
    entidadeId: conviteId,
    regiao,
    dados: { status: { depois: 'confirmada' }, motivo: { depois: motivo } },
    when: marked,
  });
  const brDate = sql`substr(${agenda.dataEvento}, 9, 2) || '/' || substr(${agenda.dataEvento}, 6, 2) || '/' || substr(${agenda.dataEvento}, 1, 4)`;
  const notes = notifyFromRow(
    db,
    {
      to: [profissionais.usuarioId],
      tipo: 'falta_registrada',
      titulo: 'Falta registrada',
      mensagem: sql`'O escritório registrou sua falta no evento de ' || ${brDate} || '. Se houve engano, responda pelo app.'`,
      dados: sql`json_object('agenda_id', ${faltas.agendaId}, 'convite_id', ${faltas.conviteId})`,
    },
    {
      from: sql`from ${faltas} join ${agenda} on ${agenda.id} = ${faltas.agendaId} join ${profissionais} on ${profissionais.id} = ${faltas.profissionalId}`,
      where: sql`${faltas.conviteId} = ${conviteId} and ${faltas.execucao} = ${marca}`,
      now: agora,
    },
  );
  // The reliability ledger's no-show (docs/decisions.md#d28): written only with this confirmation.
  const ledger = outcomeStatements(db, { conviteId, outcome: { tipo: 'falta' }, em: agora, when: marked });
  return { statements: [upsert, entry, ledger.ledger, ledger.score], notes };
}

/**
 * An administrator records a no-show: 201 when this request confirmed it, 200 with the record when it
 * was confirmed before (a retry). 404 for an invitation not in the region; 409 INVALID_STATE when it
 * is not accepted, its event has not started, or it has a valid entrada.
 */
export async function registrarFalta(ctx: Ctx, conviteId: string, body: { motivo?: string | null }) {
  const { db, regiao, user, push } = ctx;
  const marca = crypto.randomUUID();
  const agora = new Date().toISOString();
  const { statements, notes } = faltaWrites(ctx, {
    conviteId,
    regiao,
    motivo: body.motivo ?? null,
    autor: user.id,
    marca,
    agora,
  });
  const results = await db.batch([
    ...statements,
    notes.insert,
    db.select().from(faltas).where(eq(faltas.conviteId, conviteId)),
    db
      .select({
        status: convites.status,
        dataEvento: agenda.dataEvento,
        horario: agenda.horario,
        entrada: sql<number>`${hasEntry(conviteId)}`.as('entrada'),
      })
      .from(convites)
      .innerJoin(agenda, eq(agenda.id, convites.agendaId))
      .where(and(eq(convites.id, conviteId), eq(agenda.regiao, regiao))),
  ] as unknown as Parameters<typeof db.batch>[0]);
  const written = results.at(-3) as Awaited<typeof notes.insert>;
  const [row] = results.at(-2) as FaltaRow[];
  const [inv] = results.at(-1) as { status: string; dataEvento: string; horario: string | null; entrada: number }[];
  if (!inv) throw new ApiError('NOT_FOUND', 'convite não encontrado');
  if (row?.status === 'confirmada') {
    if (row.execucao === marca) push(notes.push(written));
    return { created: row.execucao === marca, falta: toFalta(row) };
  }
  if (inv.status !== 'aceito') throw new ApiError('INVALID_STATE', 'só um convite aceito pode ter falta registrada');
  if (eventStart(inv.dataEvento, inv.horario).getTime() > Date.parse(agora))
    throw new ApiError('INVALID_STATE', 'o evento ainda não começou: a falta só é registrada depois do início');
  if (inv.entrada) throw new ApiError('INVALID_STATE', 'há entrada registrada para este convite: não é falta');
  throw new ApiError('CONFLICT', 'o convite mudou enquanto isso: nada foi gravado, tente de novo');
}

/**
 * An administrator undoes a confirmed no-show (docs/decisions.md#d27), in ONE batch: the guarded
 * update of the invitation's `confirmada` row back to `provavel` (confirmation cleared, `motivo` the
 * undo's, `execucao` this request's mark), and, each guarded by that mark so a retry or a concurrent
 * undo writes nothing twice: its log entry (`faltas.desfazer`), the contest still open on the ledger's
 * `falta` row closed as `abonada`, that row excused the one way reliability excuses rows (with the
 * kept score recomputed), and the professional's notification (`falta_desfeita`). 200 with the record;
 * 404 for an invitation not in the region or without a no-show record; 409 INVALID_STATE when the
 * record is not `confirmada` (never confirmed, or undone already).
 */
export async function desfazerFalta(ctx: Ctx, conviteId: string, body: { motivo?: string | null }) {
  const { db, log, regiao, user, push } = ctx;
  const marca = crypto.randomUUID();
  const agora = new Date().toISOString();
  const motivo = body.motivo ?? null;
  const update = db
    .update(faltas)
    .set({
      status: 'provavel',
      confirmadaEm: null,
      confirmadaPor: null,
      motivo,
      execucao: marca,
      updatedAt: agora,
    })
    .where(
      and(
        eq(faltas.conviteId, conviteId),
        eq(faltas.status, 'confirmada'),
        sql`exists (select 1 from ${agenda} where ${agenda.id} = ${faltas.agendaId} and ${agenda.regiao} = ${regiao})`,
      ),
    );
  // This undo's own mark: every statement after the update lands only with it.
  const undone = sql`exists (select 1 from ${faltas} where ${faltas.conviteId} = ${conviteId} and ${faltas.execucao} = ${marca} and ${faltas.status} = 'provavel')`;
  const entry = logStatement(db, log, {
    acao: 'faltas.desfazer',
    entidade: 'faltas',
    entidadeId: conviteId,
    regiao,
    dados: { status: { antes: 'confirmada', depois: 'provavel' }, motivo: { depois: motivo } },
    when: undone,
  });
  // The ledger's row of the undone no-show that still counts (one at most: the unique key).
  const counting = and(
    eq(confiabilidadeEventos.conviteId, conviteId),
    eq(confiabilidadeEventos.tipo, 'falta'),
    eq(confiabilidadeEventos.abonado, false),
    undone,
  )!;
  const resposta = `Falta desfeita pelo escritório${motivo ? `: ${motivo}` : ''}.`;
  const contest = loggedUpdate(
    { db, log },
    {
      table: confiabilidadeContestacoes,
      where: and(
        sql`${confiabilidadeContestacoes.eventoId} in (select ${confiabilidadeEventos.id} from ${confiabilidadeEventos} where ${counting})`,
        eq(confiabilidadeContestacoes.status, 'aberta'),
      ),
      set: { status: 'abonada', resposta, respondidoPor: user.id, respondidoEm: agora, updatedAt: agora },
    },
    { acao: 'confiabilidade_contestacoes.decidir', entidade: 'confiabilidade_contestacoes', regiao },
  );
  const excuse = excuseStatements(
    { db, log },
    {
      which: counting,
      owner: sql`(select ${faltas.profissionalId} from ${faltas} where ${faltas.conviteId} = ${conviteId} and ${faltas.execucao} = ${marca} and ${faltas.status} = 'provavel')`,
      motivo: resposta,
      now: agora,
      regiao,
    },
  );
  const brDate = sql`substr(${agenda.dataEvento}, 9, 2) || '/' || substr(${agenda.dataEvento}, 6, 2) || '/' || substr(${agenda.dataEvento}, 1, 4)`;
  const notes = notifyFromRow(
    db,
    {
      to: [profissionais.usuarioId],
      tipo: 'falta_desfeita',
      titulo: 'Falta retirada',
      mensagem: sql`'O escritório retirou a falta registrada no evento de ' || ${brDate} || ': ela não conta mais na sua pontuação.'`,
      dados: sql`json_object('agenda_id', ${faltas.agendaId}, 'convite_id', ${faltas.conviteId})`,
    },
    {
      from: sql`from ${faltas} join ${agenda} on ${agenda.id} = ${faltas.agendaId} join ${profissionais} on ${profissionais.id} = ${faltas.profissionalId}`,
      where: sql`${faltas.conviteId} = ${conviteId} and ${faltas.execucao} = ${marca} and ${faltas.status} = 'provavel'`,
      now: agora,
    },
  );
  const results = await db.batch([
    update,
    entry,
    ...contest,
    ...excuse,
    notes.insert,
    db
      .select({ falta: faltas, convite: convites.id })
      .from(convites)
      .innerJoin(agenda, eq(agenda.id, convites.agendaId))
      .leftJoin(faltas, eq(faltas.conviteId, convites.id))
      .where(and(eq(convites.id, conviteId), eq(agenda.regiao, regiao))),
  ] as unknown as Parameters<typeof db.batch>[0]);
  const written = results.at(-2) as Awaited<typeof notes.insert>;
  const [found] = results.at(-1) as { falta: FaltaRow | null; convite: string }[];
  if (!found) throw new ApiError('NOT_FOUND', 'convite não encontrado');
  const row = found.falta;
  if (!row) throw new ApiError('NOT_FOUND', 'não há falta registrada para este convite');
  if (row.execucao !== marca)
    throw new ApiError('INVALID_STATE', 'não há falta confirmada para este convite: nada a desfazer');
  push(notes.push(written));
  return toFalta(row);
}

/** How many days back the job looks (an event's window closes at most a day after its date). */
const LOOKBACK_DAYS = 2;

/**
 * The `falta_provavel` job (src/scheduled/): every accepted invitation of an event whose entries have
 * closed (start + checkin_fecha_min; an event without hours: the end of its day) with no valid entrada
 * gets a `provavel` row once (the primary key), and the region's administrators one notification per
 * event of the run. Overlapping runs change nothing twice: only the run that inserted a row
 * (`execucao`) notifies it.
 */
export async function marcarFaltasProvaveis(env: Bindings, now: Date) {
  const db = createDb(env.DB);
  return faltasProvaveis(db, now);
}

export async function faltasProvaveis(db: Db, now: Date) {
  const run = crypto.randomUUID();
  const at = now.toISOString();
  const fecha = sql`coalesce(${agendaCheckin.checkinFechaMin}, ${CHECKIN_DEFAULTS.checkinFechaMin})`;
  const closes = sql`(case when ${agenda.horario} is null
      then strftime('%Y-%m-%dT%H:%M:%fZ', ${agenda.dataEvento}, '+1 day', '+3 hours')
      else strftime('%Y-%m-%dT%H:%M:%fZ', ${agenda.dataEvento} || ' ' || ${agenda.horario}, '+3 hours', '+' || ${fecha} || ' minutes') end)`;
  const [flagged, notes] = await rawBatch(db, [
    sql`insert into ${faltas} (convite_id, agenda_id, profissional_id, status, provavel_em, confirmada_em, confirmada_por, motivo, execucao, created_at, updated_at)
      select ${convites.id}, ${convites.agendaId}, ${convites.profissionalId}, 'provavel', ${at}, null, null, null, ${run}, ${at}, ${at}
      from ${agenda}
        join ${convites} on ${convites.agendaId} = ${agenda.id} and ${convites.status} = 'aceito'
        left join ${agendaCheckin} on ${agendaCheckin.agendaId} = ${agenda.id}
      where ${agenda.dataEvento} >= ${saoPauloDate(now, -LOOKBACK_DAYS)} and ${agenda.dataEvento} <= ${saoPauloDate(now)}
        and ${closes} <= ${at}
        and not ${hasEntry(convites.id)}
      on conflict (convite_id) do nothing
      returning convite_id`,
    sql`insert into ${notifications} (id, user_id, tipo, titulo, mensagem, dados, lida, read_at, created_at, updated_at)
      select ${generatedId}, ${users.id}, 'falta_provavel', 'Provável falta',
        e.n || ' profissional(is) sem entrada no evento de ' || substr(${agenda.dataEvento}, 9, 2) || '/' || substr(${agenda.dataEvento}, 6, 2) || '/' || substr(${agenda.dataEvento}, 1, 4) || ': confirme a falta ou registre a presença',
        json_object('agenda_id', ${agenda.id}), 0, null, ${at}, ${at}
      from (select ${faltas.agendaId} as agenda_id, count(*) as n from ${faltas} where ${faltas.execucao} = ${run} group by ${faltas.agendaId}) e
        join ${agenda} on ${agenda.id} = e.agenda_id
        join ${users} on ${regionAdmin(sql`${agenda.regiao}` as never)}
      returning *`,
  ]);
  const push: PushMessage[] = notes!.rows.map((r) => ({
    userId: r.user_id as string,
    notificationId: r.id as string,
    titulo: r.titulo as string,
    mensagem: r.mensagem as string,
    dados: JSON.parse(r.dados as string) as PushMessage['dados'],
  }));
  return { faltas: flagged!.rows.length, avisos: notes!.rows.length, push };
}
