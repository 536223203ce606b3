import { z } from '@hono/zod-openapi';
import {
  DOCUMENTOS,
  PRAZO_TIPOS,
  PRAZO_UNIDADES,
  REGRA_ARREDONDAR,
  REGRA_ESCOPOS,
  REGRA_LIMITES,
  REGRA_RECURSOS,
  TAXA_POR,
} from '../../db/schema';
import { afterFields, distinctList, isoDate, optStr, positiveMoney, reqStr, uf, uuid } from '../../lib/fields';
import { MAX_PRAZO_DIAS_UTEIS } from '../../services/rules/evento';
import { out } from '../openapi';

/** The closed vocabulary of a rule (docs/decisions.md#d25): no field outside it, no free expression. */
export const QuotaSchema = z
  .strictObject({
    funcao_id: uuid().optional().openapi({ description: 'the function this quota sizes (or give recurso)' }),
    recurso: z.enum(REGRA_RECURSOS).optional().openapi({ description: "the event's resource this quota sizes" }),
    por_formandos: z
      .number()
      .int()
      .min(1)
      .max(10_000)
      .openapi({ description: 'one per this many graduates', example: 20 }),
    arredondar: z.enum(REGRA_ARREDONDAR).openapi({ description: 'cima: ceil(F / por), baixo: floor(F / por)' }),
    min: z.number().int().min(0).max(1000).optional().openapi({ description: 'never fewer than this' }),
    limite: z
      .enum(REGRA_LIMITES)
      .openapi({ description: "minimo: the company's target; maximo: an institution's cap (até); exato: both" }),
  })
  .superRefine((q, ctx) => {
    if ((q.funcao_id === undefined) === (q.recurso === undefined))
      ctx.addIssue({ code: 'custom', path: ['funcao_id'], message: 'informe funcao_id ou recurso (um dos dois)' });
  }, afterFields)
  .openapi('RegraQuota');

export const PrazoSchema = z
  .strictObject({
    tipo: z.enum(PRAZO_TIPOS),
    quantidade: z.number().int().min(0).max(MAX_PRAZO_DIAS_UTEIS),
    unidade: z.enum(PRAZO_UNIDADES),
    antes_de: z.enum(['data_evento']),
  })
  .openapi('RegraPrazo');

export const TaxaSchema = z
  .strictObject({
    descricao: reqStr(120).openapi({ example: 'Taxa de credenciamento' }),
    por: z.enum(TAXA_POR),
    valor: positiveMoney(),
  })
  .openapi('RegraTaxa');

export const DefinicaoSchema = z
  .strictObject({
    quotas: z.array(QuotaSchema).max(50).default([]),
    prazos: z.array(PrazoSchema).max(10).default([]),
    taxas: z.array(TaxaSchema).max(20).default([]),
    documentos: distinctList(z.enum(DOCUMENTOS), { max: DOCUMENTOS.length, message: 'documentos repetidos' }).default(
      [],
    ),
  })
  .openapi('RegraDefinicao');

const regraFields = {
  nome: reqStr(120).openapi({ example: 'UFSC 2011' }),
  escopo: z.enum(REGRA_ESCOPOS),
  instituicao_id: uuid().nullish().openapi({ description: 'required with escopo instituicao, absent with empresa' }),
  tipo_evento_id: uuid().nullish().openapi({ description: 'only events of this type; absent: every type' }),
  fonte_url: optStr(500).openapi({ description: 'where the rule was read (the institution’s resolution)' }),
  vigencia_inicio: isoDate(),
  vigencia_fim: isoDate().nullish().openapi({ description: 'the last day in force; absent: open' }),
  definicao: DefinicaoSchema,
};

type RegraBody = {
  escopo: string;
  instituicao_id?: string | null;
  vigencia_inicio: string;
  vigencia_fim?: string | null;
};

const coherent = (b: RegraBody, ctx: z.RefinementCtx) => {
  if (b.escopo === 'instituicao' && !b.instituicao_id)
    ctx.addIssue({
      code: 'custom',
      path: ['instituicao_id'],
      message: 'é obrigatório numa regra de escopo instituicao',
    });
  if (b.escopo === 'empresa' && b.instituicao_id)
    ctx.addIssue({
      code: 'custom',
      path: ['instituicao_id'],
      message: 'uma regra de escopo empresa não tem instituição',
    });
  if (b.vigencia_fim && b.vigencia_fim < b.vigencia_inicio)
    ctx.addIssue({ code: 'custom', path: ['vigencia_fim'], message: 'não pode ser antes de vigencia_inicio' });
};

export const RegraRequest = z.object(regraFields).superRefine(coherent, afterFields).openapi('RegraRequest');

export const RegraSchema = z
  .object({
    id: out.id(),
    regiao: out.regiao(),
    nome: z.string(),
    escopo: z.enum(REGRA_ESCOPOS),
    instituicao_id: out.id().nullable(),
    tipo_evento_id: out.id().nullable(),
    fonte_url: z.string().nullable(),
    vigencia_inicio: out.date(),
    vigencia_fim: out.date().nullable(),
    definicao: z.object({
      quotas: z.array(
        z.object({
          funcao_id: out.id().optional(),
          recurso: z.enum(REGRA_RECURSOS).optional(),
          por_formandos: z.number().int(),
          arredondar: z.enum(REGRA_ARREDONDAR),
          min: z.number().int().optional(),
          limite: z.enum(REGRA_LIMITES),
        }),
      ),
      prazos: z.array(
        z.object({
          tipo: z.enum(PRAZO_TIPOS),
          quantidade: z.number().int(),
          unidade: z.enum(PRAZO_UNIDADES),
          antes_de: z.enum(['data_evento']),
        }),
      ),
      taxas: z.array(z.object({ descricao: z.string(), por: z.enum(TAXA_POR), valor: z.number() })),
      documentos: z.array(z.enum(DOCUMENTOS)),
    }),
    created_at: out.timestamp(),
    updated_at: out.timestamp(),
  })
  .openapi('Regra');

export const RegrasQuery = z.object({
  escopo: z
    .enum(REGRA_ESCOPOS)
    .optional()
    .openapi({ param: { name: 'escopo', in: 'query' } }),
  instituicao_id: uuid()
    .optional()
    .openapi({ param: { name: 'instituicao_id', in: 'query' } }),
  tipo_evento_id: uuid()
    .optional()
    .openapi({ param: { name: 'tipo_evento_id', in: 'query' } }),
  vigente_em: isoDate()
    .optional()
    .openapi({ param: { name: 'vigente_em', in: 'query' }, description: 'only the rules in force on this day' }),
});

/** The sample event of POST /api/regras/validar. */
const EventoAmostraSchema = z
  .strictObject({
    data_evento: isoDate(),
    tipo_evento_id: uuid().optional(),
    qtd_formandos: z.number().int().min(0).max(100_000).optional(),
    uf: uf().optional().openapi({ description: 'the state whose holidays count (national ones always do)' }),
    cidade_ibge: z.number().int().min(1_000_000).max(9_999_999).optional(),
    equipe: z
      .array(z.strictObject({ funcao_id: uuid(), quantidade: z.number().int().min(0).max(1000) }))
      .max(50)
      .optional()
      .openapi({ description: 'a team quota as set, to see conflicts and fees per professional' }),
    qtd_estudios: z.number().int().min(0).max(1000).optional(),
  })
  .openapi('EventoAmostra');

export const ValidarRequest = z
  .object({ regra: z.object(regraFields).superRefine(coherent, afterFields), evento: EventoAmostraSchema })
  .openapi('ValidarRegraRequest');

const QuotaSugeridaSchema = z.object({
  funcao_id: out.id().nullable(),
  recurso: z.enum(REGRA_RECURSOS).nullable(),
  nome: z.string(),
  quantidade: z.number().int(),
  minimo: z.number().int().nullable(),
  maximo: z.number().int().nullable(),
  explicacao: z.string().openapi({ example: 'fotógrafo: ceil(57 / 20) = 3 (máximo, UFSC 2011)' }),
});

export const AvaliacaoSchema = z
  .object({
    regras: z.array(
      z.object({
        id: z.string(),
        nome: z.string(),
        escopo: z.enum(REGRA_ESCOPOS),
        tipo_evento_id: out.id().nullable(),
      }),
    ),
    quotas_sugeridas: z.array(QuotaSugeridaSchema),
    prazos: z.array(
      z.object({
        tipo: z.enum(PRAZO_TIPOS),
        quantidade: z.number().int(),
        unidade: z.enum(PRAZO_UNIDADES),
        data_limite: out.date(),
        regra_id: z.string(),
        explicacao: z.string(),
      }),
    ),
    taxas: z.array(
      z.object({
        descricao: z.string(),
        por: z.enum(TAXA_POR),
        quantidade: z.number().int(),
        valor_unitario: z.number(),
        total: z.number(),
        regra_id: z.string(),
        explicacao: z.string(),
      }),
    ),
    documentos: z.array(z.enum(DOCUMENTOS)),
    conflitos: z.array(
      z.object({
        code: z.enum(['EXCEEDS_INSTITUTION_LIMIT']),
        funcao_id: out.id().nullable(),
        recurso: z.enum(REGRA_RECURSOS).nullable(),
        quantidade: z.number().int(),
        maximo: z.number().int(),
        explicacao: z.string(),
      }),
    ),
    avisos: z.array(z.string()),
  })
  .openapi('AvaliacaoRegras');
