import { z } from '@hono/zod-openapi';
import {
  LANCAMENTO_STATUS,
  ORIGEM_LANCAMENTO,
  REGIME_FISCAL,
  REPASSE_STATUS,
  TIPO_CHAVE_PIX,
  TIPO_LANCAMENTO,
} from '../../db/schema';
import { afterFields, clientKey, isoDate, money, optStr, percent, positiveMoney, reqStr, uuid } from '../../lib/fields';
import { pageFields } from '../../lib/pagination';
import { out } from '../openapi';

const q = <T extends z.ZodType>(name: string, s: T) => s.optional().openapi({ param: { name, in: 'query' } });

export const CategoriaRequest = z
  .object({ nome: reqStr(80), tipo: z.enum(TIPO_LANCAMENTO) })
  .openapi('CategoriaFinanceiraRequest');

export const CategoriaSchema = z
  .object({
    id: out.id(),
    nome: z.string(),
    tipo: z.enum(TIPO_LANCAMENTO),
    sistema: z.boolean().openapi({ description: 'a system category: cannot be renamed, retyped nor deleted' }),
    regiao: out.regiao(),
    created_at: out.timestamp(),
    updated_at: out.timestamp(),
  })
  .openapi('CategoriaFinanceira');

export const LancamentoRequest = z
  .object({
    tipo: z.enum(TIPO_LANCAMENTO),
    categoria_id: uuid(),
    descricao: reqStr(200),
    valor: positiveMoney(),
    vencimento: isoDate(),
    fot_id: uuid().nullish(),
    agenda_id: uuid().nullish(),
    profissional_id: uuid().nullish(),
    chave_externa: clientKey(100),
  })
  .openapi('LancamentoRequest');

export const LancamentoSchema = z
  .object({
    id: out.id(),
    regiao: out.regiao(),
    tipo: z.enum(TIPO_LANCAMENTO),
    categoria_id: out.id(),
    categoria_nome: z.string(),
    descricao: z.string(),
    valor: z.number().openapi({ description: 'BRL' }),
    vencimento: out.date(),
    status: z.enum(LANCAMENTO_STATUS),
    pago_em: out.date().nullable(),
    fot_id: out.id().nullable(),
    agenda_id: out.id().nullable(),
    profissional_id: out.id().nullable(),
    origem: z.enum(ORIGEM_LANCAMENTO),
    estorno_de: out.id().nullable(),
    contrato_id: out.id().nullable(),
    parcela: z.number().int().nullable(),
    convite_id: out.id().nullable(),
    chave_externa: z.string().nullable(),
    created_at: out.timestamp(),
    updated_at: out.timestamp(),
  })
  .openapi('Lancamento');

export const LancamentosQuery = z.object({
  tipo: q('tipo', z.enum(TIPO_LANCAMENTO)),
  status: q('status', z.enum(LANCAMENTO_STATUS)),
  categoria_id: q('categoria_id', uuid()),
  fot_id: q('fot_id', uuid()),
  agenda_id: q('agenda_id', uuid()),
  profissional_id: q('profissional_id', uuid()),
  de: q('de', isoDate()),
  ate: q('ate', isoDate()),
  ...pageFields,
});

export const PagarRequest = z
  .object({ pago_em: isoDate().optional() })
  .openapi('PagamentoRequest', { description: 'pago_em defaults to today in São Paulo' });

export const ContratoRequest = z
  .object({
    fot_id: uuid(),
    valor_total: positiveMoney(),
    parcelas: z.number().int().min(1).max(60),
    primeiro_vencimento: isoDate(),
    descricao: optStr(200),
  })
  .openapi('ContratoRequest');

export const ContratoSchema = z
  .object({
    id: out.id(),
    regiao: out.regiao(),
    fot_id: out.id(),
    valor_total: z.number(),
    parcelas: z.number().int(),
    primeiro_vencimento: out.date(),
    descricao: z.string().nullable(),
    lancamentos: z.array(LancamentoSchema),
    created_at: out.timestamp(),
    updated_at: out.timestamp(),
  })
  .openapi('Contrato');

export const ContratosQuery = z.object({ fot_id: q('fot_id', uuid()), ...pageFields });

export const ResultadoQuery = z.object({
  fot_id: q('fot_id', uuid()),
  agenda_id: q('agenda_id', uuid()),
  de: q('de', isoDate()),
  ate: q('ate', isoDate()),
});

const Totais = z.object({ receitas: z.number(), despesas: z.number() });
export const ResultadoSchema = z
  .object({
    receitas: z.number(),
    despesas: z.number(),
    resultado: z.number(),
    margem_pct: z
      .number()
      .nullable()
      .openapi({ description: 'resultado / receitas × 100, 2 decimals; null when receitas = 0' }),
    previsto: Totais,
    realizado: Totais,
    por_categoria: z.array(
      z.object({
        categoria_id: out.id(),
        nome: z.string(),
        tipo: z.enum(TIPO_LANCAMENTO),
        previsto: z.number(),
        realizado: z.number(),
      }),
    ),
  })
  .openapi('Resultado');

export const VigenciaParam = z.object({
  vigencia: isoDate().openapi({ param: { name: 'vigencia', in: 'path' } }),
});

export const TabelaRequest = z
  .object({
    inss_aliquota: percent(),
    inss_teto: money(),
    irrf_faixas: z
      .array(z.object({ ate: money().nullable(), aliquota: percent(), deducao: money() }))
      .min(1)
      .max(20)
      .refine(
        (fs) =>
          fs.every((f, i) => (i === fs.length - 1 ? f.ate === null : f.ate !== null)) &&
          fs.every((f, i) => i === 0 || f.ate === null || f.ate > fs[i - 1]!.ate!),
        { message: 'ate: crescente, null só (e sempre) na última faixa', ...afterFields },
      ),
    iss_aliquota: percent(),
  })
  .openapi('TabelaTributariaRequest');

export const TabelaSchema = z
  .object({
    vigencia: out.date(),
    inss_aliquota: z.number(),
    inss_teto: z.number(),
    irrf_faixas: z.array(z.object({ ate: z.number().nullable(), aliquota: z.number(), deducao: z.number() })),
    iss_aliquota: z.number(),
    created_at: out.timestamp(),
    updated_at: out.timestamp(),
  })
  .openapi('TabelaTributaria');

export const RepasseRequest = z
  .object({
    de: isoDate(),
    ate: isoDate(),
    profissional_ids: z
      .array(uuid())
      .min(1)
      .max(500)
      .optional()
      .openapi({ description: 'only these professionals (default: everyone with fees in the period)' }),
  })
  .openapi('RepasseRequest');

/** A professional's figures in a payout batch (BRL): in the batch and in the professional's own view. */
const figures = {
  regime_fiscal: z.enum(REGIME_FISCAL),
  valor_bruto: z.number(),
  inss: z.number(),
  irrf: z.number(),
  iss: z.number(),
  valor_liquido: z.number(),
};

export const RepasseSchema = z
  .object({
    id: out.id(),
    regiao: out.regiao(),
    de: out.date(),
    ate: out.date(),
    status: z.enum(REPASSE_STATUS),
    tabela_vigencia: out.date().nullable().openapi({ description: 'the tax table used (null: no autonomo_rpa item)' }),
    total_bruto: z.number(),
    total_inss: z.number(),
    total_irrf: z.number(),
    total_iss: z.number(),
    total_liquido: z.number(),
    qtd_lancamentos: z.number().int(),
    aprovado_em: out.timestamp().nullable(),
    pago_em: out.date().nullable(),
    cancelado_em: out.timestamp().nullable(),
    created_at: out.timestamp(),
    updated_at: out.timestamp(),
    itens: z.array(
      z.object({
        profissional_id: out.id(),
        nome: z.string(),
        cpf_cnpj: z.string().nullable(),
        ...figures,
        chave_pix: z.string().nullable(),
        tipo_chave_pix: z.enum(TIPO_CHAVE_PIX).nullable(),
        lancamento_ids: z.array(out.id()),
      }),
    ),
  })
  .openapi('Repasse');

export const RepassesQuery = z.object({ status: q('status', z.enum(REPASSE_STATUS)), ...pageFields });

export const MeusPagamentosQuery = z.object({
  de: q('de', isoDate()),
  ate: q('ate', isoDate()),
});

export const MeusPagamentosSchema = z
  .object({
    lancamentos: z.array(
      z.object({
        id: out.id(),
        descricao: z.string(),
        valor: z.number(),
        vencimento: out.date(),
        status: z.enum(LANCAMENTO_STATUS),
        pago_em: out.date().nullable(),
        agenda_id: out.id().nullable(),
        repasse_id: out.id().nullable().openapi({ description: 'the live payout batch holding this fee' }),
      }),
    ),
    repasses: z.array(
      z.object({
        repasse_id: out.id(),
        de: out.date(),
        ate: out.date(),
        status: z.enum(REPASSE_STATUS),
        pago_em: out.date().nullable(),
        ...figures,
      }),
    ),
  })
  .openapi('MeusPagamentos');
