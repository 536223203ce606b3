import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { agenda } from './agenda';
import { timestamps, uuidPk } from './columns';
import { convites } from './convites';
import { profissionais } from './profissionais';
import { users } from './users';

// The reliability ledger and score (docs/decisions.md#d28; services/reliability/).

/**
 * What a ledger row records: `chegada` (the entry's check-in, `minutos` late, 0 on time), `falta`
 * (a no-show an administrator confirmed), `cancelamento` (the professional cancelled an accepted
 * invitation `minutos` before the start), `sem_confirmacao` (not confirmed by D16's deadline).
 */
export const CONFIABILIDADE_TIPOS = ['chegada', 'falta', 'cancelamento', 'sem_confirmacao'] as const;
export type ConfiabilidadeTipo = (typeof CONFIABILIDADE_TIPOS)[number];

export const CONTESTACAO_STATUS = ['aberta', 'abonada', 'mantida'] as const;
export type ContestacaoStatus = (typeof CONTESTACAO_STATUS)[number];

/**
 * One outcome that moves a professional's score, written in the same batch as the flow that caused
 * it, once per (invitation, kind) among the rows that count (the unique key; an undone no-show's row
 * is excused, and a new confirmation writes another). `credito` and `peso` are stored as the rules gave
 * them then, so a later change of the rules does not rewrite history. The invitation and event may be
 * deleted later (an office withdrawing an invitation it already judged): the row stays, with the
 * event's date kept for its explanation.
 */
export const confiabilidadeEventos = sqliteTable(
  'confiabilidade_eventos',
  {
    id: uuidPk(),
    profissionalId: text('profissional_id')
      .notNull()
      .references(() => profissionais.id, { onDelete: 'cascade' }),
    /** The professional's region when written: the region mean (the prior) sums its rows. */
    regiao: text('regiao').notNull(),
    conviteId: text('convite_id').references(() => convites.id, { onDelete: 'set null' }),
    agendaId: text('agenda_id').references(() => agenda.id, { onDelete: 'set null' }),
    dataEvento: text('data_evento'),
    tipo: text('tipo', { enum: CONFIABILIDADE_TIPOS }).notNull(),
    /** `chegada`: minutes late; `cancelamento`: minutes before the event's start; else null. */
    minutos: integer('minutos'),
    credito: real('credito').notNull(),
    peso: real('peso').notNull(),
    /** When it happened: the age the decay counts from. */
    ocorridoEm: text('ocorrido_em').notNull(),
    /** Excused (an administrator's `abonar`): it no longer counts. */
    abonado: integer('abonado', { mode: 'boolean' }).notNull().default(false),
    /** Why it was excused (the administrator's answer). */
    motivo: text('motivo'),
    ...timestamps,
  },
  (t) => [
    // Once per (invitation, kind) among the rows that count: an undone no-show's excused row leaves room
    // for a later confirmation's (docs/decisions.md#d27). Lookups by (invitation, kind) use the plain
    // index: a partial one serves only queries that repeat its literal condition.
    uniqueIndex('confiabilidade_eventos_convite_tipo_uq')
      .on(t.conviteId, t.tipo)
      .where(sql`${t.abonado} = 0`),
    index('confiabilidade_eventos_convite_tipo_idx').on(t.conviteId, t.tipo),
    // A professional's ledger, newest first, and the score's sums read from the index alone.
    index('confiabilidade_eventos_profissional_idx').on(t.profissionalId, t.abonado, t.ocorridoEm, t.peso, t.credito),
    index('confiabilidade_eventos_agenda_idx').on(t.agendaId),
    // The research aggregates' floor: a kind's distinct professionals in a region, counted up to the floor.
    index('confiabilidade_eventos_regiao_tipo_idx').on(t.regiao, t.tipo, t.profissionalId),
  ],
);

export type ConfiabilidadeEventoRow = typeof confiabilidadeEventos.$inferSelect;

/**
 * A professional's contest of one ledger row (LGPD art. 20: a review of an automated decision), one
 * per row. An administrator of the region answers it: `abonada` excuses the row, `mantida` keeps it.
 */
export const confiabilidadeContestacoes = sqliteTable(
  'confiabilidade_contestacoes',
  {
    id: uuidPk(),
    eventoId: text('evento_id')
      .notNull()
      .references(() => confiabilidadeEventos.id, { onDelete: 'cascade' }),
    profissionalId: text('profissional_id')
      .notNull()
      .references(() => profissionais.id, { onDelete: 'cascade' }),
    regiao: text('regiao').notNull(),
    motivo: text('motivo').notNull(),
    status: text('status', { enum: CONTESTACAO_STATUS }).notNull().default('aberta'),
    resposta: text('resposta'),
    respondidoPor: text('respondido_por').references(() => users.id, { onDelete: 'set null' }),
    respondidoEm: text('respondido_em'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('confiabilidade_contestacoes_evento_uq').on(t.eventoId),
    // The administrators' queue: a region's contests by status, oldest first.
    index('confiabilidade_contestacoes_regiao_idx').on(t.regiao, t.status, t.createdAt, t.id),
    index('confiabilidade_contestacoes_profissional_idx').on(t.profissionalId),
    index('confiabilidade_contestacoes_respondido_por_idx').on(t.respondidoPor),
  ],
);

export type ConfiabilidadeContestacaoRow = typeof confiabilidadeContestacoes.$inferSelect;

/**
 * Kept by triggers (drizzle/ confiabilidade_triggers), never written by the application: per region and
 * kind, the ledger's rows, the excused ones, and the sums of `peso x credito` and `peso` over the rows
 * that count, in hundredths (integers: adding and removing rows never drifts). The region's mean
 * credit, the score's prior, is one read of these rows whatever the ledger's length.
 */
export const confiabilidadeRegioes = sqliteTable(
  'confiabilidade_regioes',
  {
    regiao: text('regiao').notNull(),
    tipo: text('tipo', { enum: CONFIABILIDADE_TIPOS }).notNull(),
    eventos: integer('eventos').notNull().default(0),
    abonados: integer('abonados').notNull().default(0),
    somaCreditoCent: integer('soma_credito_cent').notNull().default(0),
    somaPesoCent: integer('soma_peso_cent').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.regiao, t.tipo] })],
);

/**
 * Kept by a trigger on agenda (drizzle/ confiabilidade_triggers): when an event's date, time or place
 * last changed. A professional cancelling after such a change is never penalised (D28).
 */
export const agendaMudancas = sqliteTable('agenda_mudancas', {
  agendaId: text('agenda_id')
    .primaryKey()
    .references(() => agenda.id, { onDelete: 'cascade' }),
  mudouEm: text('mudou_em').notNull(),
});

/** The nightly refresh's claim of its São Paulo day: one run per day, whatever the number of ticks. */
export const confiabilidadeExecucoes = sqliteTable('confiabilidade_execucoes', {
  dia: text('dia').primaryKey(),
  execucao: text('execucao').notNull(),
  em: text('em').notNull(),
});
