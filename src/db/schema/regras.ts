import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { agenda } from './agenda';
import { tiposEventos } from './catalogs';
import { timestamps, uuidPk } from './columns';
import { cidades, instituicoes } from './lugares';
import { users } from './users';

// Institution rules, holidays and business days (docs/decisions.md#d25).

export const REGRA_ESCOPOS = ['empresa', 'instituicao'] as const;
export type RegraEscopo = (typeof REGRA_ESCOPOS)[number];
/** The agenda's resource counts a quota may size. */
export const REGRA_RECURSOS = ['qtd_estudios', 'qtd_pontos_led', 'qtd_plataforma_360', 'qtd_ponto_foto'] as const;
export type RegraRecurso = (typeof REGRA_RECURSOS)[number];
export const REGRA_LIMITES = ['minimo', 'maximo', 'exato'] as const;
export const REGRA_ARREDONDAR = ['cima', 'baixo'] as const;
export const PRAZO_TIPOS = ['credenciamento', 'lista_formandos', 'outro'] as const;
export const PRAZO_UNIDADES = ['dias_uteis', 'dias'] as const;
export const TAXA_POR = ['evento', 'profissional', 'estudio'] as const;
export const DOCUMENTOS = ['nome_completo', 'cpf', 'rg', 'funcao', 'foto'] as const;
export type Documento = (typeof DOCUMENTOS)[number];

/**
 * A rule of the company or of one institution, in force from `vigencia_inicio` to `vigencia_fim`
 * (open: null). `definicao` is JSON of the closed vocabulary (services/rules/avaliacao.ts), money
 * as integer cents. At most one version per (scope, institution, event type) starts on a day.
 */
export const regras = sqliteTable(
  'regras',
  {
    id: uuidPk(),
    regiao: text('regiao').notNull(),
    nome: text('nome').notNull(),
    escopo: text('escopo', { enum: REGRA_ESCOPOS }).notNull(),
    instituicaoId: text('instituicao_id').references(() => instituicoes.id, { onDelete: 'restrict' }),
    tipoEventoId: text('tipo_evento_id').references(() => tiposEventos.id, { onDelete: 'restrict' }),
    fonteUrl: text('fonte_url'),
    vigenciaInicio: text('vigencia_inicio').notNull(),
    vigenciaFim: text('vigencia_fim'),
    definicao: text('definicao').notNull(),
    ...timestamps,
  },
  (t) => [
    index('regras_regiao_vigencia_idx').on(t.regiao, t.vigenciaInicio),
    index('regras_instituicao_idx').on(t.instituicaoId),
    index('regras_tipo_evento_idx').on(t.tipoEventoId),
    // Unique (regiao, escopo, coalesce(instituicao_id, ''), coalesce(tipo_evento_id, ''), vigencia_inicio):
    // `regras_versao_uq`, an index on expressions, which drizzle-kit cannot write (it splits them at
    // their commas): created by the migration's data part (scripts/feriados-migration.ts).
  ],
);

export type RegraRow = typeof regras.$inferSelect;

export const FERIADO_TIPOS = ['feriado', 'ponto_facultativo', 'recesso'] as const;
export type FeriadoTipo = (typeof FERIADO_TIPOS)[number];
export const FERIADO_ESCOPOS = ['nacional', 'uf', 'municipio', 'instituicao'] as const;
export type FeriadoEscopo = (typeof FERIADO_ESCOPOS)[number];

/**
 * Days that are not business days (but `ponto_facultativo`, which counts as one). National and state
 * rows come from a migration (scripts/feriados-migration.ts) and have no region; municipal and
 * institutional ones are added by a region's administrators and carry it.
 */
export const feriados = sqliteTable(
  'feriados',
  {
    id: uuidPk(),
    regiao: text('regiao'),
    data: text('data').notNull(),
    nome: text('nome').notNull(),
    tipo: text('tipo', { enum: FERIADO_TIPOS }).notNull(),
    escopo: text('escopo', { enum: FERIADO_ESCOPOS }).notNull(),
    uf: text('uf'),
    cidadeIbge: integer('cidade_ibge').references(() => cidades.codigoIbge, { onDelete: 'restrict' }),
    instituicaoId: text('instituicao_id').references(() => instituicoes.id, { onDelete: 'cascade' }),
    ...timestamps,
  },
  (t) => [
    index('feriados_data_idx').on(t.data),
    index('feriados_cidade_idx').on(t.cidadeIbge),
    index('feriados_instituicao_idx').on(t.instituicaoId),
    // Unique per (region or none, day, scope, state, city, institution), nulls as '' / 0:
    // `feriados_dia_uq`, written by scripts/feriados-migration.ts like regras_versao_uq.
  ],
);

export type FeriadoRow = typeof feriados.$inferSelect;

/**
 * One application of the rules to an event per (caller, Idempotency-Key): the row is the key's claim,
 * every effect of the application is written in its batch only if this row was (services/operations/regras-aplicar.ts).
 */
export const regrasAplicacoes = sqliteTable(
  'regras_aplicacoes',
  {
    id: uuidPk(),
    agendaId: text('agenda_id')
      .notNull()
      .references(() => agenda.id, { onDelete: 'cascade' }),
    criadoPor: text('criado_por')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    idempotencyKey: text('idempotency_key').notNull(),
    requestHash: text('request_hash').notNull(),
    /** The answer of the application, JSON, as the request that made it answered. */
    resultado: text('resultado').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('regras_aplicacoes_key_uq').on(t.criadoPor, t.idempotencyKey),
    index('regras_aplicacoes_agenda_idx').on(t.agendaId),
  ],
);
