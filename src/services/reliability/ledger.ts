import { and, eq, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { generatedId } from '../../db/generated-id';
import { insertSelect } from '../../db/insert-select';
import {
  agenda,
  agendaMudancas,
  confiabilidadeEventos,
  confiabilidadeRegioes,
  convites,
  profissionais,
  type ConfiabilidadeTipo,
} from '../../db/schema';
import { eventStartSql } from '../../lib/dates';
import { loggedUpdate, type LogSource } from '../core/activity-log';
import {
  CANCEL_FAIXAS,
  CANCEL_NEUTRAL_MIN,
  CANCEL_TARDE,
  CHEGADA_ACIMA,
  CHEGADA_FAIXAS,
  CONFIRMACAO_PRAZO_H,
  FALTA,
  HALF_LIFE_DAYS,
  NEUTRAL_AFTER_ACCEPT_MIN,
  PRIOR_PADRAO,
  PRIOR_WEIGHT,
  SEM_CONFIRMACAO,
} from './formula';

/**
 * The reliability ledger's statements (docs/decisions.md#d28), for the batches of the flows that
 * cause its rows: the professional's cancellation (services/teams/answer.ts), the missed D16
 * confirmation (services/operations/lembretes.ts), the check-in's lateness and the confirmed no-show
 * (`outcomeStatements`). Each row is written once per (invitation, kind): a `not exists` in the
 * insert, and the unique key behind it. Each set comes with `score`, the one UPDATE that refreshes
 * the professional's kept score from its ledger in the same batch, and only when this batch wrote
 * its row (its `ocorrido_em` is the batch's own instant).
 */

/** A value of the batch: bound, a cached batch's placeholder, or SQL. */
type V = string | Placeholder | SQL;

const num = (n: number) => sql.raw(String(n));

/** julianday('2020-01-01T00:00:00Z'): the anchor of the kept decayed sums (profissionais.confiabilidade_creditos). */
export const DECAY_ANCHOR_JULIANDAY = 2458849.5;

/**
 * The region's mean credit m (the prior): Σ peso·credito / Σ peso over its rows that count, from the
 * kept sums (one probe of confiabilidade_regioes' key); PRIOR_PADRAO while the region has none.
 */
export const regionMeanSql = (regiao: SQL | string) =>
  sql`coalesce((select 1.0 * sum(${confiabilidadeRegioes.somaCreditoCent}) / sum(${confiabilidadeRegioes.somaPesoCent})
    from ${confiabilidadeRegioes} where ${confiabilidadeRegioes.regiao} = ${regiao}
    having sum(${confiabilidadeRegioes.somaPesoCent}) > 0), ${num(PRIOR_PADRAO)})`;

/**
 * The UPDATE that refreshes the kept score of the professionals `which` selects (a condition on
 * `profissionais`) at `now`: R = 100 × (K·m + D·Σ) / (K + D·Σw) from the profile's own kept sums
 * (anchored at 2020-01-01, D = 2^(-days from the anchor to now / 180) turns them into the decayed
 * sums) and the region's mean: one row and one key probe per professional, whatever the ledger's
 * length. `updated_at` stays: the profile did not change.
 */
export function refreshScores(db: Db, o: { which: SQL; now: V }) {
  const d = sql`pow(2, -(julianday(${o.now}) - ${num(DECAY_ANCHOR_JULIANDAY)}) / ${num(HALF_LIFE_DAYS)}.0)`;
  const k = num(PRIOR_WEIGHT);
  const m = regionMeanSql(sql`${profissionais.regiao}`);
  return db
    .update(profissionais)
    .set({
      confiabilidade: sql`100.0 * (${k} * ${m} + ${d} * ${profissionais.confiabilidadeCreditos}) / (${k} + ${d} * ${profissionais.confiabilidadePesos})`,
      updatedAt: sql`${profissionais.updatedAt}`,
    })
    .where(o.which);
}

/** The refresh of the professional whose row of `tipo` for invitation `conviteId` this batch wrote (at `em`). */
const refreshOwnerOf = (db: Db, o: { conviteId: V; tipo: ConfiabilidadeTipo; em: V; now: V }) =>
  refreshScores(db, {
    which: sql`${profissionais.id} = (select ${confiabilidadeEventos.profissionalId} from ${confiabilidadeEventos}
      where ${confiabilidadeEventos.conviteId} = ${o.conviteId} and ${confiabilidadeEventos.tipo} = ${o.tipo}
        and ${confiabilidadeEventos.ocorridoEm} = ${o.em})`,
    now: o.now,
  });

/**
 * No row of `tipo` for the invitation yet (the unique key, over the rows that count, is the backstop
 * under a race). A `falta` looks only at the rows that count: an administrator who undid a no-show
 * excused its row, and a later confirmation writes a new one (docs/decisions.md#d27); a confirmation
 * that is not new writes nothing anyway (its batch's mark guards the row).
 */
const notRecorded = (tipo: ConfiabilidadeTipo) =>
  sql`not exists (select 1 from ${confiabilidadeEventos} where ${confiabilidadeEventos.conviteId} = ${convites.id} and ${confiabilidadeEventos.tipo} = ${tipo}${
    tipo === 'falta' ? sql` and ${confiabilidadeEventos.abonado} = 0` : sql``
  })`;

/**
 * The one way a ledger row stops counting (docs/decisions.md#d28): the rows `which` selects that
 * still count become `abonado` with `motivo` (logged `confiabilidade_eventos.abonar`), and the kept
 * score of the professional `owner` names (a scalar subquery; null: nobody) is recomputed in the same
 * batch. Used by a contest's `abonar` and by an administrator undoing a no-show (D27); both guard
 * `which` and `owner` with their own mark, so a refused or repeated request changes nothing.
 */
export function excuseStatements(
  { db, log }: { db: Db; log: LogSource },
  o: { which: SQL; owner: SQL; motivo: string | SQL; now: string; regiao: string },
) {
  return [
    ...loggedUpdate(
      { db, log },
      {
        table: confiabilidadeEventos,
        where: and(o.which, eq(confiabilidadeEventos.abonado, false)),
        set: { abonado: true, motivo: o.motivo, updatedAt: o.now },
      },
      { acao: 'confiabilidade_eventos.abonar', entidade: 'confiabilidade_eventos', regiao: o.regiao },
    ),
    refreshScores(db, { which: sql`${profissionais.id} = ${o.owner}`, now: o.now }),
  ] as const;
}

/** The start of the invitation's event, as an ISO instant (São Paulo time: lib/dates.ts). */
const startOf = eventStartSql(agenda.dataEvento, agenda.horario);
/** Whole minutes from `now` to the event's start (negative once it started). */
const minutesBefore = (now: V) => sql`cast(round((julianday(${startOf}) - julianday(${now})) * 1440) as integer)`;

/** CASE over bands: the first whose test holds gives the value, else `otherwise`. */
const bands = (arms: { when: SQL; value: number }[], otherwise: number) =>
  sql`(case ${sql.join(
    arms.map((a) => sql`when ${a.when} then ${num(a.value)}`),
    sql` `,
  )} else ${num(otherwise)} end)`;

/**
 * The ledger row of one invitation as an insert: the invitation joined to its event and
 * professional, `where` choosing it (and any guard of the flow), the row's kind, minutes, credit,
 * weight and instant as SQL over that join.
 */
function ledgerInsert(
  db: Db,
  o: { where: SQL; tipo: ConfiabilidadeTipo; minutos: SQL; credito: SQL; peso: SQL; em: V; now: V },
) {
  return insertSelect(
    db,
    confiabilidadeEventos,
    {
      id: generatedId,
      profissionalId: sql`${convites.profissionalId}`,
      regiao: sql`${profissionais.regiao}`,
      conviteId: sql`${convites.id}`,
      agendaId: sql`${convites.agendaId}`,
      dataEvento: sql`${agenda.dataEvento}`,
      tipo: sql`${o.tipo}`,
      minutos: o.minutos,
      credito: o.credito,
      peso: o.peso,
      ocorridoEm: sql`${o.em}`,
      abonado: sql`0`,
      motivo: sql`null`,
      createdAt: sql`${o.now}`,
      updatedAt: sql`${o.now}`,
    },
    sql`from ${convites}
      join ${agenda} on ${agenda.id} = ${convites.agendaId}
      join ${profissionais} on ${profissionais.id} = ${convites.profissionalId}
      where ${and(o.where, notRecorded(o.tipo))}`,
  );
}

/**
 * The professional cancels an accepted invitation (`where` selects it as the decline's own
 * condition; put these BEFORE the decline's update, which moves it out of `aceito`): by how early,
 * 72 h-7 d 0.6 x1, 24-72 h 0.3 x1, under 24 h (or after the start) 0.1 x1.5. Neutral, nothing
 * written: 7 days or more ahead, within 10 minutes of accepting, or after the office changed the
 * event's date, time or place since the acceptance (agenda_mudancas, kept by a trigger).
 */
export function cancellationStatements(db: Db, o: { where: SQL; now: V; conviteId: V }) {
  const antes = minutesBefore(o.now);
  const faixas = CANCEL_FAIXAS.map((f) => ({ when: sql`${antes} >= ${num(f.desde)}`, f }));
  const where = and(
    o.where,
    eq(convites.status, 'aceito'),
    sql`${antes} < ${num(CANCEL_NEUTRAL_MIN)}`,
    sql`(${convites.respondidoEm} is null or (julianday(${o.now}) - julianday(${convites.respondidoEm})) * 1440 > ${num(NEUTRAL_AFTER_ACCEPT_MIN)})`,
    sql`not exists (select 1 from ${agendaMudancas} where ${agendaMudancas.agendaId} = ${convites.agendaId}
      and ${agendaMudancas.mudouEm} > coalesce(${convites.respondidoEm}, ''))`,
  )!;
  return {
    ledger: ledgerInsert(db, {
      where,
      tipo: 'cancelamento',
      minutos: antes,
      credito: bands(
        faixas.map(({ when, f }) => ({ when, value: f.credito })),
        CANCEL_TARDE.credito,
      ),
      peso: bands(
        faixas.map(({ when, f }) => ({ when, value: f.peso })),
        CANCEL_TARDE.peso,
      ),
      em: o.now,
      now: o.now,
    }),
    score: refreshOwnerOf(db, { conviteId: o.conviteId, tipo: 'cancelamento', em: o.now, now: o.now }),
  };
}

/** An outcome of the event day (decision D27, issue 38): the entry's lateness in minutes, or a confirmed no-show. */
export type DayOutcome = { tipo: 'chegada'; atrasoMin: number | SQL } | { tipo: 'falta' };

/**
 * The ledger row of `outcome` for invitation `conviteId` and the score's refresh, for the check-in's
 * and the no-show's batches. `when` guards the row with the flow's own condition (the presence it
 * recorded exists, the no-show it confirmed happened), so a refused or repeated flow writes nothing;
 * `em` is when it happened (the entry's time), `now` the batch's instant (defaults to `em`).
 * Lateness: up to 5 min on time 1.0, to 15 min 0.8, to 60 min 0.5, beyond 0.2 (weight 1); a no-show
 * 0 (weight 2).
 */
export function outcomeStatements(db: Db, o: { conviteId: V; outcome: DayOutcome; em: V; now?: V; when?: SQL }) {
  const now = o.now ?? o.em;
  const where = and(sql`${convites.id} = ${o.conviteId}`, o.when)!;
  const out = o.outcome;
  if (out.tipo === 'falta')
    return {
      ledger: ledgerInsert(db, {
        where,
        tipo: 'falta',
        minutos: sql`null`,
        credito: sql`${num(FALTA.credito)}`,
        peso: sql`${num(FALTA.peso)}`,
        em: o.em,
        now,
      }),
      score: refreshOwnerOf(db, { conviteId: o.conviteId, tipo: 'falta', em: o.em, now }),
    };
  const atraso = sql`max(0, ${out.atrasoMin})`;
  const faixas = CHEGADA_FAIXAS.map((f) => ({ when: sql`${atraso} <= ${num(f.ate)}`, f }));
  return {
    ledger: ledgerInsert(db, {
      where,
      tipo: 'chegada',
      minutos: sql`cast(round(${atraso}) as integer)`,
      credito: bands(
        faixas.map(({ when, f }) => ({ when, value: f.credito })),
        CHEGADA_ACIMA.credito,
      ),
      peso: bands(
        faixas.map(({ when, f }) => ({ when, value: f.peso })),
        CHEGADA_ACIMA.peso,
      ),
      em: o.em,
      now,
    }),
    score: refreshOwnerOf(db, { conviteId: o.conviteId, tipo: 'chegada', em: o.em, now }),
  };
}

/**
 * The missed confirmations (docs/decisions.md#d16, #d28), for the reminders job's batch: every
 * accepted invitation still not confirmed when its deadline passes, CONFIRMACAO_PRAZO_H (12) hours
 * before the start (when the office is told the team is not confirmed), accepted at least a day
 * before the start (it was asked in time), written once with that deadline as its instant, 0.5 x0.5;
 * then the score of each professional this run wrote a row for. Events found by the agenda's date
 * index, as the reminders are; the refresh finds this run's rows by their invitations (`at`, the
 * run's instant, marks them).
 */
export function missedConfirmationStatements(db: Db, now: Date, range: SQL) {
  const at = now.toISOString();
  const deadline = sql`strftime('%Y-%m-%dT%H:%M:%fZ', ${agenda.dataEvento} || ' ' || coalesce(${agenda.horario}, '00:00'), '+3 hours', ${`-${CONFIRMACAO_PRAZO_H} hours`})`;
  const askedBy = sql`strftime('%Y-%m-%dT%H:%M:%fZ', ${agenda.dataEvento} || ' ' || coalesce(${agenda.horario}, '00:00'), '+3 hours', '-24 hours')`;
  const ledger = ledgerInsert(db, {
    where: and(
      range,
      eq(convites.status, 'aceito'),
      sql`${convites.confirmadoEm} is null`,
      sql`${deadline} <= ${at}`,
      sql`${startOf} > ${at}`,
      sql`(${convites.respondidoEm} is null or ${convites.respondidoEm} <= ${askedBy})`,
    )!,
    tipo: 'sem_confirmacao',
    minutos: sql`null`,
    credito: sql`${num(SEM_CONFIRMACAO.credito)}`,
    peso: sql`${num(SEM_CONFIRMACAO.peso)}`,
    em: deadline,
    now: at,
  });
  const score = refreshScores(db, {
    which: sql`${profissionais.id} in (select ${confiabilidadeEventos.profissionalId}
      from ${agenda} join ${convites} on ${convites.agendaId} = ${agenda.id}
      join ${confiabilidadeEventos} on ${confiabilidadeEventos.conviteId} = ${convites.id}
        and ${confiabilidadeEventos.tipo} = 'sem_confirmacao' and ${confiabilidadeEventos.createdAt} = ${at}
      where ${range})`,
    now: at,
  });
  return { ledger, score };
}
