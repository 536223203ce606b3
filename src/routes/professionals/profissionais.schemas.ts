import { z } from '@hono/zod-openapi';
import { out } from '../openapi';
import { REGIME_FISCAL, TIPO_CHAVE_PIX } from '../../db/schema';
import { afterFields, email, optCpfCnpj, optStr, optUf, reqStr, senha, uuid } from '../../lib/fields';

const optBool = () => z.boolean().nullish();
const optCount = () => z.number().int().min(0).max(1000).nullish();
export const rating = () =>
  z
    .number()
    .int()
    .min(0)
    .max(5)
    .nullish()
    .openapi({ type: ['integer', 'null'], minimum: 0, maximum: 5 });

/** Fields a professional may change on its own profile: everything but ratings, links and functions. */
export const profissionalSelfFields = {
  nome: reqStr(120),
  whatsapp: optStr(30),
  endereco: optStr(200),
  cidade: optStr(100),
  uf: optUf(),
  banco: optStr(100),
  agencia: optStr(20),
  conta_pix: optStr(120).openapi({
    description:
      'PIX key for payouts, stored normalized (digits, lowercase, `+55...`); without `tipo_chave_pix` its type is inferred from it. `null` clears the key and its type',
  }),
  regime_fiscal: z.enum(REGIME_FISCAL).optional().openapi({
    description:
      'tax regime for payouts: `autonomo_rpa` has INSS, IRRF and ISS withheld, `mei` and `pj` nothing; a create without it is `mei`. Only administrators change it: a professional sending another value than its stored one (`mei` on its own create) gets 403 FORBIDDEN; the same value is accepted and ignored',
  }),
  tipo_chave_pix: z.enum(TIPO_CHAVE_PIX).nullish().openapi({
    description:
      'what `conta_pix` is. Optional: when absent or null, it is inferred from the key as banks do (an e-mail; a `+55` phone; a random key, a UUID; 14 digits with valid CNPJ check digits; 11 digits with valid CPF check digits), and a key that fits no type, or 11 digits that are both a valid CPF and a mobile number written without `+55`, is 400 naming `tipo_chave_pix`. When sent, it is checked against the key (the one sent, else the stored one): `cpf`/`cnpj` check digits, `email`, `telefone` `+55` and 10 or 11 digits, `aleatoria` 32 hex digits (UUID form or bare). The stored key sent again without a type changes nothing; a type without any key is 400',
  }),
  cpf_cnpj_titular: optCpfCnpj(),
  tipo_cartao: optStr(50),
  tabela_free: optStr(120),
  equipamentos: optStr(2000),
  observacao: optStr(2000),
  carro_disponivel: optBool(),
  tem_estudio: optBool(),
  qtd_estudio: optCount(),
  extra_por_equipamento: optBool(),
  avatar_url: optStr(500),
};

export const ProfissionalSelfUpdate = z.object(profissionalSelfFields).partial().openapi('ProfissionalSelfUpdate');

export const FuncaoRef = z.object({ id: out.id(), nome: z.string() }).openapi('FuncaoRef');

const nullableStr = () => z.string().nullable();
export const ProfissionalSchema = z
  .object({
    id: out.id(),
    usuario_id: out.id().nullable(),
    regiao: out.regiao(),
    email: nullableStr(),
    nome: z.string(),
    funcao_profissional_id: out.id().nullable(),
    funcao_profissional: nullableStr().openapi({ description: 'name of the main function' }),
    funcoes: z.array(FuncaoRef).optional(),
    whatsapp: nullableStr(),
    endereco: nullableStr(),
    cidade: nullableStr(),
    uf: out.ufOrNull(),
    banco: nullableStr()
      .optional()
      .openapi({ description: 'shown to administrators and the professional itself only' }),
    agencia: nullableStr().optional(),
    conta_pix: nullableStr().optional(),
    tipo_chave_pix: z.enum(TIPO_CHAVE_PIX).nullable().optional().openapi({
      description: 'what `conta_pix` is (given or inferred); null only on keys stored before the type existed',
    }),
    cpf_cnpj_titular: nullableStr().optional(),
    tipo_cartao: nullableStr().optional(),
    regime_fiscal: z.enum(REGIME_FISCAL).openapi({ description: 'tax regime for payouts' }),
    tabela_free: nullableStr(),
    equipamentos: nullableStr(),
    observacao: nullableStr(),
    carro_disponivel: z.boolean().nullable(),
    tem_estudio: z.boolean().nullable(),
    qtd_estudio: z.number().int().nullable(),
    extra_por_equipamento: z.boolean().nullable(),
    qual_tec: z.number().int().nullable(),
    educacao_simpatia: z.number().int().nullable(),
    desempenho_evento: z.number().int().nullable(),
    disp_horario: z.number().int().nullable(),
    media: z.number().nullable().openapi({ description: 'mean of the non-null ratings, 2 decimals' }),
    avatar_url: nullableStr(),
    created_at: out.timestamp(),
    updated_at: out.timestamp(),
  })
  .openapi('ProfissionalResponse');

const writeFields = {
  ...profissionalSelfFields,
  funcao_profissional_id: uuid().nullish().openapi({ description: 'main function; always one of `funcoes`' }),
  funcoes_ids: z.array(uuid()).max(20).optional().openapi({ description: 'every function the professional holds' }),
  qual_tec: rating(),
  educacao_simpatia: rating(),
  desempenho_evento: rating(),
  disp_horario: rating(),
  email: email().nullish().openapi({
    description:
      'contact e-mail; from an administrator it also creates the login: with `senha` that password, without it an access invitation e-mail (/definir-senha)',
  }),
};

export const CreateProfissionalInput = z
  .object({
    ...writeFields,
    senha: senha()
      .optional()
      .openapi({ description: 'administrators only: creates the linked active user (role profissional) with `email`' }),
  })
  .refine((b) => b.senha === undefined || (b.email !== undefined && b.email !== null), {
    path: ['email'],
    message: 'é obrigatório com senha',
    ...afterFields,
  })
  .openapi('CreateProfissionalInput', {
    description: 'media is computed by the server; ratings and email are ignored unless an administrator writes',
  });

export const UpdateProfissionalInput = z.object(writeFields).partial().openapi('UpdateProfissionalInput');

export const ContagemSchema = z
  .object({ funcao_id: out.id(), funcao_nome: z.string(), total: z.number().int() })
  .openapi('ContagemPorFuncao');

export const AvaliacaoClientesSchema = z
  .object({
    qual_tec: z.number().nullable(),
    educacao_simpatia: z.number().nullable(),
    desempenho_evento: z.number().nullable(),
    disp_horario: z.number().nullable(),
    media: z.number().nullable(),
    respostas: z.number().int(),
  })
  .openapi('AvaliacaoClientes', {
    description:
      'Client ratings from survey answers: per criterion the Bayesian mean (5*m + soma)/(5 + n), m the region mean, 2 decimals, null without answers',
  });

/** A professional as the list and the by-id read answer it: with its client ratings from surveys. */
export const ProfissionalComAvaliacaoSchema = ProfissionalSchema.extend({
  avaliacao_clientes: AvaliacaoClientesSchema,
}).openapi('ProfissionalComAvaliacao');

export const MinhasAvaliacoesSchema = z
  .object({
    profissional_id: out.id(),
    nome: z.string(),
    regiao: out.regiao(),
    avaliacao_clientes: AvaliacaoClientesSchema,
  })
  .openapi('MinhasAvaliacoes');
