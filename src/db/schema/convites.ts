import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { agenda } from './agenda';
import { funcoes } from './catalogs';
import { timestamps, uuidPk } from './columns';
import { profissionais } from './profissionais';
import { users } from './users';

export const CONVITE_STATUS = ['pendente', 'aceito', 'recusado'] as const;
export type ConviteStatus = (typeof CONVITE_STATUS)[number];

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
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.agendaId, t.funcaoId] }), index('agenda_equipe_funcao_idx').on(t.funcaoId)],
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
    ...timestamps,
  },
  (t) => [
    uniqueIndex('convites_agenda_profissional_uq').on(t.agendaId, t.profissionalId),
    index('convites_agenda_funcao_status_idx').on(t.agendaId, t.funcaoId, t.status),
    index('convites_profissional_status_idx').on(t.profissionalId, t.status),
    index('convites_funcao_idx').on(t.funcaoId),
  ],
);

export type ConviteRow = typeof convites.$inferSelect;
