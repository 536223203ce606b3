import { desc } from 'drizzle-orm';
import { index, integer, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { agenda } from './agenda';
import { tiposEventos } from './catalogs';
import { timestamps, uuidPk } from './columns';
import { profissionais } from './profissionais';
import { users } from './users';

export const PESQUISA_PUBLICOS = ['cliente', 'formando', 'profissional'] as const;
export const PESQUISA_STATUS = ['rascunho', 'ativa', 'encerrada'] as const;
export const PERGUNTA_TIPOS = [
  'nota_1_5',
  'nps_0_10',
  'escolha_unica',
  'escolha_multipla',
  'texto',
  'sim_nao',
] as const;
/** The four rating fields of professionals (docs/decisions.md#d8) a `nota_1_5` question may feed. */
export const CRITERIOS = ['qual_tec', 'educacao_simpatia', 'desempenho_evento', 'disp_horario'] as const;
export type PerguntaTipo = (typeof PERGUNTA_TIPOS)[number];
export type Criterio = (typeof CRITERIOS)[number];

/** Surveys (docs/decisions.md#d21), per region. */
export const pesquisas = sqliteTable(
  'pesquisas',
  {
    id: uuidPk(),
    regiao: text('regiao').notNull(),
    titulo: text('titulo').notNull(),
    publico: text('publico', { enum: PESQUISA_PUBLICOS }).notNull(),
    anonima: integer('anonima', { mode: 'boolean' }).notNull().default(false),
    tipoEventoId: text('tipo_evento_id').references(() => tiposEventos.id, { onDelete: 'restrict' }),
    status: text('status', { enum: PESQUISA_STATUS }).notNull().default('rascunho'),
    criadoPor: text('criado_por').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [
    index('pesquisas_regiao_created_idx').on(t.regiao, desc(t.createdAt), t.id),
    index('pesquisas_auto_idx').on(t.status, t.publico, t.tipoEventoId),
    index('pesquisas_criado_por_idx').on(t.criadoPor),
    index('pesquisas_tipo_evento_idx').on(t.tipoEventoId),
  ],
);

export const pesquisaPerguntas = sqliteTable(
  'pesquisa_perguntas',
  {
    id: uuidPk(),
    pesquisaId: text('pesquisa_id')
      .notNull()
      .references(() => pesquisas.id, { onDelete: 'cascade' }),
    ordem: integer('ordem').notNull(),
    texto: text('texto').notNull(),
    tipo: text('tipo', { enum: PERGUNTA_TIPOS }).notNull(),
    obrigatoria: integer('obrigatoria', { mode: 'boolean' }).notNull().default(false),
    opcoes: text('opcoes', { mode: 'json' }).$type<string[]>(),
    criterio: text('criterio', { enum: CRITERIOS }),
  },
  (t) => [
    index('pesquisa_perguntas_pesquisa_idx').on(t.pesquisaId, t.ordem),
    index('pesquisa_perguntas_criterio_idx').on(t.criterio),
  ],
);

/**
 * One single-use link per recipient: only the SHA-256 of its token is stored. `uso` is a random
 * value the answering batch writes when it spends the link, so that batch's inserts can tell that
 * THEIR update spent it (two racing submissions: one stores). It links to no response.
 * `usuario_id` is set for the automatic sends (the event's EVENT_OWNERs): unique with the survey
 * and the event, so the scheduled job sends once per (survey, event, recipient).
 */
export const pesquisaEnvios = sqliteTable(
  'pesquisa_envios',
  {
    id: uuidPk(),
    pesquisaId: text('pesquisa_id')
      .notNull()
      .references(() => pesquisas.id, { onDelete: 'cascade' }),
    agendaId: text('agenda_id').references(() => agenda.id, { onDelete: 'set null' }),
    usuarioId: text('usuario_id').references(() => users.id, { onDelete: 'set null' }),
    email: text('email').notNull(),
    nome: text('nome'),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: text('expires_at').notNull(),
    usadoEm: text('usado_em'),
    uso: text('uso'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('pesquisa_envios_auto_uq').on(t.pesquisaId, t.agendaId, t.usuarioId),
    index('pesquisa_envios_agenda_idx').on(t.agendaId),
    index('pesquisa_envios_usuario_idx').on(t.usuarioId),
  ],
);

/**
 * One submission. In an anonymous survey `envio_id` and `agenda_id` stay null and `created_at`
 * keeps the day only, so no recipient can be reached from it (docs/guide/surveys.md).
 */
export const pesquisaRespostas = sqliteTable(
  'pesquisa_respostas',
  {
    id: uuidPk(),
    pesquisaId: text('pesquisa_id')
      .notNull()
      .references(() => pesquisas.id, { onDelete: 'cascade' }),
    envioId: text('envio_id').references(() => pesquisaEnvios.id, { onDelete: 'set null' }),
    agendaId: text('agenda_id').references(() => agenda.id, { onDelete: 'set null' }),
    createdAt: text('created_at').notNull(),
  },
  (t) => [
    index('pesquisa_respostas_pesquisa_idx').on(t.pesquisaId, t.createdAt),
    index('pesquisa_respostas_envio_idx').on(t.envioId),
    index('pesquisa_respostas_agenda_idx').on(t.agendaId),
  ],
);

/**
 * One answer to one question (and, for a `criterio` question, about one professional). Numbers
 * (notes, NPS, sim_nao as 1/0) in `valor_num`; chosen options as a JSON array in `opcoes`; free
 * text in `texto`.
 */
export const pesquisaRespostaItens = sqliteTable(
  'pesquisa_resposta_itens',
  {
    id: uuidPk(),
    respostaId: text('resposta_id')
      .notNull()
      .references(() => pesquisaRespostas.id, { onDelete: 'cascade' }),
    perguntaId: text('pergunta_id')
      .notNull()
      .references(() => pesquisaPerguntas.id, { onDelete: 'cascade' }),
    profissionalId: text('profissional_id').references(() => profissionais.id, { onDelete: 'cascade' }),
    valorNum: real('valor_num'),
    opcoes: text('opcoes', { mode: 'json' }).$type<string[]>(),
    texto: text('texto'),
  },
  (t) => [
    index('pesquisa_resposta_itens_pergunta_idx').on(t.perguntaId, t.valorNum),
    index('pesquisa_resposta_itens_resposta_idx').on(t.respostaId),
    index('pesquisa_resposta_itens_profissional_idx').on(t.profissionalId, t.perguntaId),
  ],
);
