import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { funcoes } from './catalogs';
import { timestamps, uuidPk } from './columns';
import { users } from './users';

export const REGIME_FISCAL = ['autonomo_rpa', 'mei', 'pj'] as const;
export type RegimeFiscal = (typeof REGIME_FISCAL)[number];
export const TIPO_CHAVE_PIX = ['cpf', 'cnpj', 'email', 'telefone', 'aleatoria'] as const;
export type TipoChavePix = (typeof TIPO_CHAVE_PIX)[number];

export const profissionais = sqliteTable(
  'profissionais',
  {
    id: uuidPk(),
    regiao: text('regiao').notNull(),
    // A deleted account leaves the profile (ratings, bank data) for the business; it just unlinks.
    usuarioId: text('usuario_id')
      .unique()
      .references(() => users.id, { onDelete: 'set null' }),
    email: text('email'),
    nome: text('nome').notNull(),
    funcaoProfissionalId: text('funcao_profissional_id').references(() => funcoes.id, { onDelete: 'restrict' }),
    whatsapp: text('whatsapp'),
    /**
     * WhatsApp consent (docs/decisions.md#d30): when the professional opted in, and `whatsapp` in E.164
     * as it was then. A change of `whatsapp` clears both (trigger, drizzle/ whatsapp_consent): the
     * consent was given for one number.
     */
    whatsappDesde: text('whatsapp_desde'),
    whatsappE164: text('whatsapp_e164'),
    endereco: text('endereco'),
    cidade: text('cidade'),
    uf: text('uf'),
    banco: text('banco'),
    agencia: text('agencia'),
    contaPix: text('conta_pix'),
    cpfCnpjTitular: text('cpf_cnpj_titular'),
    tipoCartao: text('tipo_cartao'),
    tabelaFree: text('tabela_free'),
    equipamentos: text('equipamentos'),
    observacao: text('observacao'),
    carroDisponivel: integer('carro_disponivel', { mode: 'boolean' }),
    temEstudio: integer('tem_estudio', { mode: 'boolean' }),
    qtdEstudio: integer('qtd_estudio'),
    extraPorEquipamento: integer('extra_por_equipamento', { mode: 'boolean' }),
    qualTec: integer('qual_tec'),
    educacaoSimpatia: integer('educacao_simpatia'),
    desempenhoEvento: integer('desempenho_evento'),
    dispHorario: integer('disp_horario'),
    avatarUrl: text('avatar_url'),
    /**
     * false while the profile is the self-created one of a sign-up not yet approved (security review 2):
     * rejecting the sign-up deletes it, and an administrator account links by e-mail only approved ones.
     */
    aprovado: integer('aprovado', { mode: 'boolean' }).notNull().default(true),
    /** Tax regime for payouts (docs/decisions.md#d18-finance "Tax"). */
    regimeFiscal: text('regime_fiscal', { enum: REGIME_FISCAL }).notNull().default('mei'),
    /** What `conta_pix` is; validated against it (lib/brazil.ts pixKey). */
    tipoChavePix: text('tipo_chave_pix', { enum: TIPO_CHAVE_PIX }),
    /**
     * 1 while listed (services/professionals/profissionais.ts listedProfile: no linked account, or an active one),
     * kept by triggers on profissionais and users (drizzle/0025; docs/architecture.md, "Kept by
     * triggers") for the list's kept total. The application never writes it; an SQL default, so an
     * insert binds nothing for it.
     */
    listado: integer('listado')
      .notNull()
      .default(sql`0`),
    /**
     * The reliability score R (0-100), docs/decisions.md#d28: written by services/reliability/ in the
     * ledger's own batch and by the nightly refresh (decay), never by a profile write; null while the
     * professional never had a ledger row (the score is then the region's prior). Read only by
     * administrators and the professional itself.
     */
    confiabilidade: real('confiabilidade'),
    /**
     * Kept by triggers on confiabilidade_eventos (drizzle/ confiabilidade_triggers), never written by the
     * application: over the rows that count, Σ peso (`novo` while under 3) and, anchored at 2020-01-01
     * (t = days since then), Σ peso·credito·2^(t/180) and Σ peso·2^(t/180). Multiplied by 2^(-now/180)
     * they are the score's decayed sums, so the score is computed from this row alone whatever the
     * ledger's length (services/reliability/ledger.ts refreshScores).
     */
    confiabilidadePeso: real('confiabilidade_peso')
      .notNull()
      .default(sql`0`),
    confiabilidadeCreditos: real('confiabilidade_creditos')
      .notNull()
      .default(sql`0`),
    confiabilidadePesos: real('confiabilidade_pesos')
      .notNull()
      .default(sql`0`),
    ...timestamps,
  },
  (t) => [
    // The list's page walks it in name order; usuario_id at its end lets the list's total (X-Total-Count)
    // run listedProfile (services/professionals/profissionais.ts) from the index alone, reading no profile row: 19 ms at
    // 10,000 profiles of the bench, 0.4 ms. (A separate (regiao, usuario_id) index took the place of the
    // cpf_cnpj and e-mail indexes in the imports' `col = ? and regiao = ?` probes.)
    index('profissionais_regiao_nome_login_idx').on(t.regiao, t.nome, t.usuarioId),
    index('profissionais_email_idx').on(t.email),
    // Spreadsheet imports match professionals by CPF/CNPJ (docs/decisions.md#d20).
    index('profissionais_cpf_cnpj_idx').on(t.cpfCnpjTitular),
    index('profissionais_funcao_idx').on(t.funcaoProfissionalId),
    // The listed professionals of a region who bring their own studio (the planner's equipment:
    // services/planning/capacidade.ts), without reading the region's other profiles.
    index('profissionais_estudio_idx')
      .on(t.regiao, t.qtdEstudio)
      .where(sql`${t.temEstudio} = 1 AND ${t.listado} = 1`),
  ],
);

/** Every function a professional holds (the main one included). */
export const profissionalFuncoes = sqliteTable(
  'profissional_funcoes',
  {
    profissionalId: text('profissional_id')
      .notNull()
      .references(() => profissionais.id, { onDelete: 'cascade' }),
    funcaoId: text('funcao_id')
      .notNull()
      .references(() => funcoes.id, { onDelete: 'restrict' }),
    /**
     * Kept by triggers (drizzle/0030), never written by the application: its profile's `listado`,
     * copied so that the head count per function (contagens, GET /api/profissionais/contagem) moves
     * with this row's own values, the profile's cascade delete included (docs/architecture.md,
     * "Kept by triggers"). An SQL default, so an insert binds nothing for it.
     */
    listado: integer('listado')
      .notNull()
      .default(sql`0`),
  },
  (t) => [
    primaryKey({ columns: [t.profissionalId, t.funcaoId] }),
    index('profissional_funcoes_funcao_idx').on(t.funcaoId),
  ],
);

export type ProfissionalRow = typeof profissionais.$inferSelect;
