import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { agenda } from './agenda';
import { timestamps, uuidPk } from './columns';
import { users } from './users';

// Event operations (docs/decisions.md#d16): call sheets, reminders sent, calendar feeds.

export const TRANSPORTES = ['proprio', 'van', 'carona', 'reembolso'] as const;

/** The call sheet of an agenda event: one row per event, `versao` +1 per real change. */
export const agendaLogistica = sqliteTable(
  'agenda_logistica',
  {
    agendaId: text('agenda_id')
      .primaryKey()
      .references(() => agenda.id, { onDelete: 'cascade' }),
    horarioChegada: text('horario_chegada'),
    pontoEncontro: text('ponto_encontro'),
    enderecoEncontro: text('endereco_encontro'),
    transporte: text('transporte', { enum: TRANSPORTES }),
    horarioSaidaVan: text('horario_saida_van'),
    estacionamento: text('estacionamento'),
    traje: text('traje'),
    retiradaEquipamento: text('retirada_equipamento'),
    devolucaoEquipamento: text('devolucao_equipamento'),
    contatoNome: text('contato_nome'),
    contatoTelefone: text('contato_telefone'),
    prazoCredenciamento: text('prazo_credenciamento'),
    /** When the credential list went to the institution (docs/decisions.md#d25): ends its reminder. */
    credenciamentoEnviadoEm: text('credenciamento_enviado_em'),
    observacoes: text('observacoes'),
    versao: integer('versao').notNull().default(1),
    ...timestamps,
  },
  // The credential reminder's job reads the sheets whose deadline is near (services/rules/credenciamento.ts).
  (t) => [index('agenda_logistica_prazo_credenciamento_idx').on(t.prazoCredenciamento)],
);

export type AgendaLogisticaRow = typeof agendaLogistica.$inferSelect;

export const LEMBRETE_TIPOS = [
  'lembrete_d7',
  'lembrete_d2',
  'lembrete_d1',
  'confirmacao_pendente',
  'equipe_nao_confirmada',
  // The credential list is due in 2 business days and not sent (docs/decisions.md#d25).
  'credenciamento_pendente',
] as const;

/**
 * Reminders already sent: the primary key (alvo_id, tipo) makes each (invitation or event, kind)
 * happen once whatever the number or overlap of runs. `execucao` names the run that inserted the
 * row: only that run notifies it (services/operations/lembretes.ts).
 */
export const lembretesEnviados = sqliteTable(
  'lembretes_enviados',
  {
    /** The invitation (member reminders) or the event (`equipe_nao_confirmada`). */
    alvoId: text('alvo_id').notNull(),
    tipo: text('tipo', { enum: LEMBRETE_TIPOS }).notNull(),
    agendaId: text('agenda_id')
      .notNull()
      .references(() => agenda.id, { onDelete: 'cascade' }),
    execucao: text('execucao').notNull(),
    enviadoEm: text('enviado_em').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.alvoId, t.tipo] }),
    index('lembretes_execucao_idx').on(t.execucao),
    index('lembretes_agenda_idx').on(t.agendaId),
  ],
);

/**
 * A user's calendar feed. The url's token is HMAC(ICAL_TOKEN_SECRET, id:geracao), never stored:
 * only its SHA-256 (`token_hash`) is, for the lookup. Rotating bumps `geracao`; turning it off
 * deletes the row.
 */
export const calendarios = sqliteTable('calendarios', {
  id: uuidPk(),
  userId: text('user_id')
    .notNull()
    .unique()
    .references(() => users.id, { onDelete: 'cascade' }),
  geracao: integer('geracao').notNull().default(1),
  tokenHash: text('token_hash').notNull().unique(),
  ...timestamps,
});

export type CalendarioRow = typeof calendarios.$inferSelect;

/** What a calendar feed's token is derived from (services/operations/calendario.ts feedPathOf). */
export interface FeedRef {
  id: string;
  geracao: number;
}
/** The columns to read (or join) for a feed's path. */
export const feedRefColumns = { id: calendarios.id, geracao: calendarios.geracao };
