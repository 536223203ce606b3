import { index, integer, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { agenda } from './agenda';
import { timestamps, uuidPk } from './columns';
import { convites } from './convites';
import { profissionais } from './profissionais';
import { users } from './users';

// QR check-in and check-out (docs/decisions.md#d27).

export const PRESENCA_TIPOS = ['entrada', 'saida'] as const;
export type PresencaTipo = (typeof PRESENCA_TIPOS)[number];
/** How a presence was recorded: the event's rotating code, the professional's own code read by the coordinator, by hand. */
export const PRESENCA_ORIGENS = ['qr_evento', 'qr_pessoal', 'manual'] as const;
export type PresencaOrigem = (typeof PRESENCA_ORIGENS)[number];
/** `revisar`: outside the geofence or its place unknown where the event asks for it; an administrator decides. */
export const PRESENCA_SITUACOES = ['ok', 'revisar', 'invalida'] as const;
export type PresencaSituacao = (typeof PRESENCA_SITUACOES)[number];
export const FALTA_STATUS = ['provavel', 'confirmada'] as const;

/** The defaults of an event without a settings row. */
export const CHECKIN_DEFAULTS = { raioCheckinM: 300, checkinAbreMin: 90, checkinFechaMin: 60, exigeLocalizacao: false };

/**
 * An event's check-in settings, its event key's version and its coordinator: one row per event,
 * written by the first PUT (an event without one has CHECKIN_DEFAULTS and key version 1). The
 * coordinator is an invitation of the event, so "at most one per event" holds by the row's shape; it
 * acts only while that invitation is `aceito`.
 */
export const agendaCheckin = sqliteTable(
  'agenda_checkin',
  {
    agendaId: text('agenda_id')
      .primaryKey()
      .references(() => agenda.id, { onDelete: 'cascade' }),
    raioCheckinM: integer('raio_checkin_m').notNull().default(CHECKIN_DEFAULTS.raioCheckinM),
    checkinAbreMin: integer('checkin_abre_min').notNull().default(CHECKIN_DEFAULTS.checkinAbreMin),
    checkinFechaMin: integer('checkin_fecha_min').notNull().default(CHECKIN_DEFAULTS.checkinFechaMin),
    exigeLocalizacao: integer('exige_localizacao', { mode: 'boolean' }).notNull().default(false),
    /** k_event = HMAC(CHECKIN_SECRET, agenda_id | chave_versao): rotating bumps it and old codes stop working. */
    chaveVersao: integer('chave_versao').notNull().default(1),
    coordenadorConviteId: text('coordenador_convite_id').references(() => convites.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [index('agenda_checkin_coordenador_idx').on(t.coordenadorConviteId)],
);

export type AgendaCheckinRow = typeof agendaCheckin.$inferSelect;

/**
 * Arrivals and departures: one row per (invitation, tipo), whatever the number of scans, retries or
 * parallel requests (the unique index; writes are INSERT ... ON CONFLICT DO NOTHING). `momento` is the
 * server's clock, or the server-issued step of the code read offline, never a device's.
 */
export const presencas = sqliteTable(
  'presencas',
  {
    id: uuidPk(),
    conviteId: text('convite_id')
      .notNull()
      .references(() => convites.id, { onDelete: 'cascade' }),
    agendaId: text('agenda_id')
      .notNull()
      .references(() => agenda.id, { onDelete: 'cascade' }),
    profissionalId: text('profissional_id')
      .notNull()
      .references(() => profissionais.id, { onDelete: 'cascade' }),
    tipo: text('tipo', { enum: PRESENCA_TIPOS }).notNull(),
    momento: text('momento').notNull(),
    origem: text('origem', { enum: PRESENCA_ORIGENS }).notNull(),
    /** Read from a personal code after the fact (the coordinator's offline batch): `momento` is the code's step. */
    offline: integer('offline', { mode: 'boolean' }).notNull().default(false),
    latitude: real('latitude'),
    longitude: real('longitude'),
    precisaoM: real('precisao_m'),
    distanciaM: integer('distancia_m'),
    /** null: unknown (no location sent, accuracy over 500 m, or the event has no coordinates). */
    dentroRaio: integer('dentro_raio', { mode: 'boolean' }),
    situacao: text('situacao', { enum: PRESENCA_SITUACOES }).notNull().default('ok'),
    /** Minutes after the call time (or the start) of an entrada; 0 when on time; null for a saida or an event without hours. */
    atrasoMin: integer('atraso_min'),
    motivo: text('motivo'),
    registradoPor: text('registrado_por').references(() => users.id, { onDelete: 'set null' }),
    revisadoPor: text('revisado_por').references(() => users.id, { onDelete: 'set null' }),
    revisadoEm: text('revisado_em'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('presencas_convite_tipo_uq').on(t.conviteId, t.tipo),
    index('presencas_agenda_idx').on(t.agendaId, t.tipo),
    index('presencas_profissional_idx').on(t.profissionalId),
    index('presencas_registrado_por_idx').on(t.registradoPor),
    index('presencas_revisado_por_idx').on(t.revisadoPor),
  ],
);

export type PresencaRow = typeof presencas.$inferSelect;

/**
 * No-shows: `provavel` when the job found no entrada by start + checkin_fecha_min (it notifies the
 * administrators once per invitation: the primary key), `confirmada` only by an administrator's
 * POST /api/convites/{id}/falta, back to `provavel` by its DELETE (the undo, docs/decisions.md#d27;
 * `provavel_em` stays null when the job never flagged it). `execucao` names the job run or request that wrote the row last: the
 * statements of that batch (notifications, log, a reliability row) are guarded by it.
 */
export const faltas = sqliteTable(
  'faltas',
  {
    conviteId: text('convite_id')
      .primaryKey()
      .references(() => convites.id, { onDelete: 'cascade' }),
    agendaId: text('agenda_id')
      .notNull()
      .references(() => agenda.id, { onDelete: 'cascade' }),
    profissionalId: text('profissional_id')
      .notNull()
      .references(() => profissionais.id, { onDelete: 'cascade' }),
    status: text('status', { enum: FALTA_STATUS }).notNull(),
    provavelEm: text('provavel_em'),
    confirmadaEm: text('confirmada_em'),
    confirmadaPor: text('confirmada_por').references(() => users.id, { onDelete: 'set null' }),
    motivo: text('motivo'),
    execucao: text('execucao').notNull(),
    ...timestamps,
  },
  (t) => [
    index('faltas_agenda_idx').on(t.agendaId),
    index('faltas_profissional_idx').on(t.profissionalId),
    index('faltas_execucao_idx').on(t.execucao),
    index('faltas_confirmada_por_idx').on(t.confirmadaPor),
  ],
);

export type FaltaRow = typeof faltas.$inferSelect;
