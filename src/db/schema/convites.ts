import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { agenda } from './agenda';
import { funcoes } from './catalogs';
import { timestamps, uuidPk } from './columns';
import { profissionais } from './profissionais';
import { users } from './users';

// `solicitado`: an application waiting for an administrator; `espera`: on the waiting list (D17).
export const CONVITE_STATUS = ['pendente', 'aceito', 'recusado', 'solicitado', 'espera'] as const;
export type ConviteStatus = (typeof CONVITE_STATUS)[number];
export const CONVITE_ORIGEM = ['convite', 'candidatura'] as const;

/** Team quota of an agenda event per function (docs/decisions.md#d11). */
export const agendaEquipe = sqliteTable(
  'agenda_equipe',
  {
    agendaId: text('agenda_id')
      .notNull()
      .references(() => agenda.id, { onDelete: 'cascade' }),
    funcaoId: text('funcao_id')
      .notNull()
      .references(() => funcoes.id, { onDelete: 'restrict' }),
    quantidade: integer('quantidade').notNull(),
    // Job listings (D17): offered in GET /api/vagas; applications wait for an administrator.
    publicar: integer('publicar', { mode: 'boolean' }).notNull().default(false),
    requerAprovacao: integer('requer_aprovacao', { mode: 'boolean' }).notNull().default(false),
    // Kept by triggers (drizzle/0018_vagas_triggers.sql, 0027), never written by the application: the
    // event's region and date, and the counts of its invitations for this function by status. They let
    // the job listings' total count one index range, and a team be read without counting invitations
    // (docs/architecture.md, "Kept by triggers").
    // SQL defaults, so that an insert binds no parameter for them (D1 allows 100 per statement).
    regiao: text('regiao')
      .notNull()
      .default(sql`''`),
    dataEvento: text('data_evento')
      .notNull()
      .default(sql`''`),
    aceitos: integer('aceitos')
      .notNull()
      .default(sql`0`),
    // Waiting for an answer (`pendente`, `solicitado`) and on the waiting list (`espera`).
    pendentes: integer('pendentes')
      .notNull()
      .default(sql`0`),
    espera: integer('espera')
      .notNull()
      .default(sql`0`),
    // The event's FOT record's city and state (drizzle/0040), for the job listings' filters.
    cidade: text('cidade').default(sql`null`),
    uf: text('uf').default(sql`null`),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.agendaId, t.funcaoId] }),
    index('agenda_equipe_funcao_idx').on(t.funcaoId),
    // The job listings' total (services/teams/vagas.ts): the open published places of a region per function
    // and date, read from the index alone. The WHERE holds only while places are left.
    index('agenda_equipe_vagas_idx')
      .on(t.regiao, t.funcaoId, t.dataEvento, t.publicar, t.quantidade, t.aceitos)
      .where(sql`${t.publicar} = 1 AND ${t.quantidade} > ${t.aceitos}`),
    // The same places by city (compared as the filter does, COLLATE NOCASE) or by state: a filtered
    // listing reads the places that match, not every open place of the function.
    // Read from the index alone, as agenda_equipe_vagas_idx.
    index('agenda_equipe_vagas_cidade_idx')
      .on(t.regiao, t.funcaoId, sql`${t.cidade} COLLATE NOCASE`, t.dataEvento, t.publicar, t.quantidade, t.aceitos)
      .where(sql`${t.publicar} = 1 AND ${t.quantidade} > ${t.aceitos}`),
    index('agenda_equipe_vagas_uf_idx')
      .on(t.regiao, t.funcaoId, t.uf, t.dataEvento, t.publicar, t.quantidade, t.aceitos)
      .where(sql`${t.publicar} = 1 AND ${t.quantidade} > ${t.aceitos}`),
  ],
);

/** An invitation of a professional to an event's team, for one function. */
export const convites = sqliteTable(
  'convites',
  {
    id: uuidPk(),
    agendaId: text('agenda_id')
      .notNull()
      .references(() => agenda.id, { onDelete: 'cascade' }),
    profissionalId: text('profissional_id')
      .notNull()
      .references(() => profissionais.id, { onDelete: 'cascade' }),
    funcaoId: text('funcao_id')
      .notNull()
      .references(() => funcoes.id, { onDelete: 'restrict' }),
    status: text('status', { enum: CONVITE_STATUS }).notNull().default('pendente'),
    convidadoPor: text('convidado_por').references(() => users.id, { onDelete: 'set null' }),
    respondidoEm: text('respondido_em'),
    /** Presence confirmed by the professional (D16); the first confirmation's time is kept. */
    confirmadoEm: text('confirmado_em'),
    /** The call-sheet version the professional acknowledged (D16). */
    cienteVersao: integer('ciente_versao'),
    origem: text('origem', { enum: CONVITE_ORIGEM }).notNull().default('convite'),
    // Set by the waiting-list promotion that made it `aceito`: the batch finds its own promotion by it.
    promocaoId: text('promocao_id'),
    // An administrator invited over the professional's declared unavailability (`forcar`, D24): its
    // acceptance is not refused for it (services/teams/acceptance.ts availableFor).
    forcado: integer('forcado', { mode: 'boolean' }).notNull().default(false),
    /**
     * Why this professional (docs/decisions.md#d29): the ranking as it stood when a batch invitation
     * (POST /api/agenda/{id}/convites/lote) chose it; null for an invitation made one by one. Shown to planners only.
     */
    rankingSnapshot: text('ranking_snapshot', { mode: 'json' }).$type<Record<string, unknown>>(),
    // Kept by triggers (drizzle/0042), never written by the application: the event's date, so that the
    // double-booking rule reads a professional's accepted events of three days from
    // convites_profissional_status_idx, not its every accepted event (services/teams/time-window.ts).
    dataEvento: text('data_evento')
      .notNull()
      .default(sql`''`),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('convites_agenda_profissional_uq').on(t.agendaId, t.profissionalId),
    // An event's invitations in one status (its accepted team: the survey, the logistics notice).
    // convites_fila_idx serves (agenda_id, funcao_id, status).
    index('convites_agenda_status_idx').on(t.agendaId, t.status),
    // With agenda_id: a professional's own invitations and their events from the index alone (the job
    // listings' total, the calendar feed, the agenda of a professional); with the event's date, its
    // accepted events of a few days (the double-booking rule).
    index('convites_profissional_status_idx').on(t.profissionalId, t.status, t.dataEvento, t.agendaId),
    index('convites_funcao_idx').on(t.funcaoId),
    index('convites_fila_idx').on(t.agendaId, t.funcaoId, t.status, t.createdAt),
    index('convites_promocao_idx').on(t.promocaoId),
    index('convites_convidado_por_idx').on(t.convidadoPor),
  ],
);

export type ConviteRow = typeof convites.$inferSelect;
