import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { timestamps, uuidPk } from './columns';

/**
 * Brazil's municipalities (5,571 in the data) (docs/decisions.md#d23), loaded once by a migration from
 * data/municipios.csv (MIT, data/LICENSE-municipios). `codigo_ibge` is the IBGE's 7-digit code, the
 * row id; `nome_key` is the name's search form (lib/names.ts searchKey), so a search by name reads an
 * index range instead of every row.
 */
export const cidades = sqliteTable(
  'cidades',
  {
    codigoIbge: integer('codigo_ibge').primaryKey(),
    nome: text('nome').notNull(),
    nomeKey: text('nome_key').notNull(),
    uf: text('uf').notNull(),
    latitude: real('latitude').notNull(),
    longitude: real('longitude').notNull(),
  },
  (t) => [index('cidades_nome_key_idx').on(t.nomeKey), index('cidades_uf_nome_key_idx').on(t.uf, t.nomeKey)],
);

/**
 * Each word of each city's search form with the rest of the name after it ("sao jose dos campos",
 * "jose dos campos", "dos campos", "campos"), `posicao` 0 for the whole name: a search reads the index
 * range of what was typed and so finds a city by the start of any of its words, the start of its
 * name first (services/places/cidades.ts). Written from `cidades` by the same migration.
 */
export const cidadesBusca = sqliteTable(
  'cidades_busca',
  {
    chave: text('chave').notNull(),
    codigoIbge: integer('codigo_ibge')
      .notNull()
      .references(() => cidades.codigoIbge, { onDelete: 'cascade' }),
    posicao: integer('posicao').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.chave, t.codigoIbge, t.posicao] }),
    // Every foreign key has an index led by its column (test/perf/query-plans.test.ts).
    index('cidades_busca_codigo_idx').on(t.codigoIbge),
  ],
);

export type CidadeRow = typeof cidades.$inferSelect;

/**
 * Institutions of the graduating classes (docs/decisions.md#d23): the seventh regional catalog, the
 * same shape as the others (label + label_key, unique per region) with an optional acronym and city.
 */
export const instituicoes = sqliteTable(
  'instituicoes',
  {
    id: uuidPk(),
    regiao: text('regiao').notNull(),
    label: text('nome').notNull(),
    labelKey: text('nome_key').notNull(),
    sigla: text('sigla'),
    cidadeIbge: integer('cidade_ibge').references(() => cidades.codigoIbge, { onDelete: 'restrict' }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('instituicoes_regiao_key_uq').on(t.regiao, t.labelKey),
    index('instituicoes_cidade_idx').on(t.cidadeIbge),
  ],
);

export type InstituicaoRow = typeof instituicoes.$inferSelect;

/**
 * The region's travel matrix (docs/decisions.md#d23): minutes from one city to another as the office
 * knows them. A row also serves the way back unless that direction has a row of its own
 * (services/places/deslocamentos.ts travelMinutes).
 */
export const deslocamentos = sqliteTable(
  'deslocamentos',
  {
    id: uuidPk(),
    regiao: text('regiao').notNull(),
    origemIbge: integer('origem_ibge')
      .notNull()
      .references(() => cidades.codigoIbge, { onDelete: 'restrict' }),
    destinoIbge: integer('destino_ibge')
      .notNull()
      .references(() => cidades.codigoIbge, { onDelete: 'restrict' }),
    minutos: integer('minutos').notNull(),
    fonte: text('fonte'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('deslocamentos_regiao_origem_destino_uq').on(t.regiao, t.origemIbge, t.destinoIbge),
    index('deslocamentos_origem_idx').on(t.origemIbge),
    index('deslocamentos_destino_idx').on(t.destinoIbge),
  ],
);

export type DeslocamentoRow = typeof deslocamentos.$inferSelect;
