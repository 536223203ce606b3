import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { funcoes } from './catalogs';
import { timestamps, uuidPk } from './columns';
import { profissionais } from './profissionais';
import { users } from './users';

export const DISPONIBILIDADE_TIPOS = ['indisponivel', 'preferencial'] as const;
export type DisponibilidadeTipo = (typeof DISPONIBILIDADE_TIPOS)[number];
export const DISPONIBILIDADE_ORIGENS = ['profissional', 'admin', 'campanha'] as const;
export const CAMPANHA_RESPOSTAS = ['sim', 'nao', 'talvez'] as const;
export type CampanhaResposta = (typeof CAMPANHA_RESPOSTAS)[number];

/** When a professional cannot (or prefers to) work (docs/decisions.md#d24). */
export const disponibilidades = sqliteTable(
  'disponibilidades',
  {
    id: uuidPk(),
    profissionalId: text('profissional_id')
      .notNull()
      .references(() => profissionais.id, { onDelete: 'cascade' }),
    tipo: text('tipo', { enum: DISPONIBILIDADE_TIPOS }).notNull(),
    dataInicio: text('data_inicio').notNull(),
    dataFim: text('data_fim').notNull(),
    /** HH:MM; both or neither (neither: the whole day). */
    horaInicio: text('hora_inicio'),
    horaFim: text('hora_fim'),
    /** Weekdays it repeats on inside the range, as a bit mask (bit 0 Sunday ... bit 6 Saturday); null: every day. */
    diasSemana: integer('dias_semana'),
    /** Private: only the professional and administrators read it. */
    motivo: text('motivo'),
    origem: text('origem', { enum: DISPONIBILIDADE_ORIGENS }).notNull(),
    /** The season poll a `nao` came from (its answer's replacement replaces these). */
    campanhaId: text('campanha_id').references(() => campanhasDisponibilidade.id, { onDelete: 'cascade' }),
    criadoPor: text('criado_por').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [
    // "Is P unavailable on day d": P's rows, then the range.
    index('disponibilidades_profissional_idx').on(t.profissionalId, t.dataInicio, t.dataFim),
    // The planner's "declarations near these dates" (services/planning/capacidade.ts): a declaration spans
    // at most 120 days, so those meeting a range start in a bounded window before it. Led by the date, so
    // that a query naming the professional keeps taking the index above; covering what the planner reads.
    index('disponibilidades_data_idx').on(
      t.dataInicio,
      t.tipo,
      t.dataFim,
      t.profissionalId,
      t.horaInicio,
      t.horaFim,
      t.diasSemana,
    ),
    // The rule's probe (availability/rule.ts) and the listing's hidden places: P's `indisponivel` rows
    // only, by range, from the index alone (it holds every column the rule reads); its `preferencial`
    // ones are never read there.
    index('disponibilidades_profissional_tipo_idx').on(
      t.profissionalId,
      t.tipo,
      t.dataInicio,
      t.dataFim,
      t.horaInicio,
      t.horaFim,
      t.diasSemana,
    ),
    index('disponibilidades_campanha_idx').on(t.campanhaId, t.profissionalId),
    index('disponibilidades_criado_por_idx').on(t.criadoPor),
  ],
);

/** A season poll: one question to every holder of some functions about the dates `de`..`ate`. */
export const campanhasDisponibilidade = sqliteTable(
  'campanhas_disponibilidade',
  {
    id: uuidPk(),
    regiao: text('regiao').notNull(),
    nome: text('nome').notNull(),
    de: text('de').notNull(),
    ate: text('ate').notNull(),
    /** The last São Paulo day answers are taken. */
    prazo: text('prazo').notNull(),
    /** Closed early by an administrator: no answer after it. */
    encerradaEm: text('encerrada_em'),
    /** The scheduled run that sent the reminder to the silent (claimed once: docs/decisions.md#d24). */
    lembreteExecucao: text('lembrete_execucao'),
    lembreteEm: text('lembrete_em'),
    criadoPor: text('criado_por').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [
    index('campanhas_disponibilidade_regiao_idx').on(t.regiao, t.prazo),
    index('campanhas_disponibilidade_lembrete_idx').on(t.lembreteExecucao, t.prazo),
    index('campanhas_disponibilidade_criado_por_idx').on(t.criadoPor),
  ],
);

export const campanhaFuncoes = sqliteTable(
  'campanha_funcoes',
  {
    campanhaId: text('campanha_id')
      .notNull()
      .references(() => campanhasDisponibilidade.id, { onDelete: 'cascade' }),
    funcaoId: text('funcao_id')
      .notNull()
      .references(() => funcoes.id, { onDelete: 'restrict' }),
  },
  (t) => [primaryKey({ columns: [t.campanhaId, t.funcaoId] }), index('campanha_funcoes_funcao_idx').on(t.funcaoId)],
);

/** Who answered a poll and when: the row each answer's guarded statement writes first. */
export const campanhaParticipacoes = sqliteTable(
  'campanha_participacoes',
  {
    campanhaId: text('campanha_id')
      .notNull()
      .references(() => campanhasDisponibilidade.id, { onDelete: 'cascade' }),
    profissionalId: text('profissional_id')
      .notNull()
      .references(() => profissionais.id, { onDelete: 'cascade' }),
    respondidoEm: text('respondido_em').notNull(),
    /** The request that wrote the current answer: the rest of its batch writes only under it. */
    marca: text('marca').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.campanhaId, t.profissionalId] }),
    index('campanha_participacoes_profissional_idx').on(t.profissionalId),
  ],
);

export const campanhaRespostas = sqliteTable(
  'campanha_respostas',
  {
    campanhaId: text('campanha_id')
      .notNull()
      .references(() => campanhasDisponibilidade.id, { onDelete: 'cascade' }),
    profissionalId: text('profissional_id')
      .notNull()
      .references(() => profissionais.id, { onDelete: 'cascade' }),
    data: text('data').notNull(),
    resposta: text('resposta', { enum: CAMPANHA_RESPOSTAS }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.campanhaId, t.profissionalId, t.data] }),
    index('campanha_respostas_data_idx').on(t.campanhaId, t.data),
    index('campanha_respostas_profissional_idx').on(t.profissionalId),
  ],
);

export type DisponibilidadeRow = typeof disponibilidades.$inferSelect;
export type CampanhaRow = typeof campanhasDisponibilidade.$inferSelect;
