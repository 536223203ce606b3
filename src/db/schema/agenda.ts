import { index, integer, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { cadastroFot } from './cadastro-fot';
import { tiposEventos } from './catalogs';
import { timestamps, uuidPk } from './columns';
import { cidades } from './lugares';
import { users } from './users';

const qtd = (name: string) => integer(name);

/** An event on the agenda. Column names are the wire names (src/db/wire.ts maps them generically). */
export const agenda = sqliteTable(
  'agenda',
  {
    id: uuidPk(),
    regiao: text('regiao').notNull(),
    // The creator; a deleted account leaves its events in place.
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    fotId: text('fot_id')
      .notNull()
      .references(() => cadastroFot.id, { onDelete: 'restrict' }),
    tipoEventoId: text('tipo_evento_id')
      .notNull()
      .references(() => tiposEventos.id, { onDelete: 'restrict' }),
    dataEvento: text('data_evento').notNull(),
    horario: text('horario'),
    // Optional end (HH:MM); before `horario` means the next day (docs/decisions.md#d11, time window).
    horarioFim: text('horario_fim'),
    localEvento: text('local_evento'),
    endereco: text('endereco'),
    // The event's city (docs/decisions.md#d23) and, optionally, the venue's coordinates (both or neither).
    cidadeIbge: integer('cidade_ibge').references(() => cidades.codigoIbge, { onDelete: 'restrict' }),
    latitude: real('latitude'),
    longitude: real('longitude'),
    observacoesEvento: text('observacoes_evento'),
    logisticaObservacoes: text('logistica_observacoes'),
    statusProfissionais: text('status_profissionais'),
    preVenda: integer('pre_venda', { mode: 'boolean' }),
    qtdFormandos: qtd('qtd_formandos'),
    qtdFotografos: qtd('qtd_fotografos'),
    qtdCinegrafistas: qtd('qtd_cinegrafistas'),
    qtdRecepcionistas: qtd('qtd_recepcionistas'),
    qtdEstudios: qtd('qtd_estudios'),
    qtdPontoFoto: qtd('qtd_ponto_foto'),
    qtdPontoId: qtd('qtd_ponto_id'),
    qtdPontoDecorado: qtd('qtd_ponto_decorado'),
    qtdPontosLed: qtd('qtd_pontos_led'),
    qtdPlataforma360: qtd('qtd_plataforma_360'),
    fotoFaltante: qtd('foto_faltante'),
    cineFaltante: qtd('cine_faltante'),
    recepFaltante: qtd('recep_faltante'),
    /** The event's key in the client's own spreadsheet: a re-import updates instead of duplicating (D20). */
    chaveExterna: text('chave_externa'),
    ...timestamps,
  },
  (t) => [
    index('agenda_regiao_data_idx').on(t.regiao, t.dataEvento, t.horario, t.id),
    index('agenda_user_data_idx').on(t.userId, t.dataEvento),
    // An agenda_viewer's list (its own events of a region): the page walks it in the list's order and
    // the total counts it alone, instead of reading every event row of the region.
    index('agenda_user_regiao_data_idx').on(t.userId, t.regiao, t.dataEvento, t.horario, t.id),
    index('agenda_fot_idx').on(t.fotId),
    index('agenda_tipo_evento_idx').on(t.tipoEventoId),
    index('agenda_cidade_idx').on(t.cidadeIbge),
    // The reminders job scans events by date across regions (services/operations/lembretes.ts).
    index('agenda_data_idx').on(t.dataEvento),
    uniqueIndex('agenda_regiao_chave_externa_uq').on(t.regiao, t.chaveExterna),
  ],
);

export type AgendaRow = typeof agenda.$inferSelect;
