import { z } from '@hono/zod-openapi';
import { CONFIABILIDADE_TIPOS, CONTESTACAO_STATUS } from '../../db/schema';
import { reqStr, uuid } from '../../lib/fields';
import { pageFields } from '../../lib/pagination';
import { MIN_PROFISSIONAIS_AGREGADO } from '../../services/reliability/formula';
import { out } from '../openapi';

export const ContestacaoSchema = z
  .object({
    id: out.id(),
    evento_id: out.id(),
    profissional_id: out.id(),
    regiao: out.regiao(),
    motivo: z.string(),
    status: z.enum(CONTESTACAO_STATUS),
    resposta: z.string().nullable(),
    respondido_por: out.id().nullable(),
    respondido_em: out.timestamp().nullable(),
    created_at: out.timestamp(),
    updated_at: out.timestamp(),
  })
  .openapi('ConfiabilidadeContestacao');

export const ConfiabilidadeEventoSchema = z
  .object({
    id: out.id(),
    tipo: z.enum(CONFIABILIDADE_TIPOS),
    convite_id: out.id().nullable(),
    agenda_id: out.id().nullable(),
    data_evento: out.date().nullable(),
    minutos: z
      .number()
      .int()
      .nullable()
      .openapi({ description: '`chegada`: minutes late; `cancelamento`: minutes before the start; else null' }),
    credito: z.number().openapi({ description: '0 to 1' }),
    peso: z.number(),
    ocorrido_em: out.timestamp(),
    abonado: z.boolean(),
    motivo: z.string().nullable().openapi({ description: 'why it was excused' }),
    decaimento: z.number().openapi({ description: 'the share of its weight it keeps today: 2^(-age in days / 180)' }),
    efeito_pontos: z.number().openapi({ description: 'points it moves the score by today (0 when excused)' }),
    efeito: z.string().openapi({ description: 'the row and its effect, in Portuguese' }),
    contestacao: ContestacaoSchema.nullable(),
  })
  .openapi('ConfiabilidadeEvento');

export const ConfiabilidadeSchema = z
  .object({
    profissional_id: out.id(),
    nome: z.string(),
    regiao: out.regiao(),
    pontuacao: z.number().int().openapi({ description: 'R rounded, 0 to 100' }),
    valor: z.number().openapi({ description: 'R with two decimals' }),
    novo: z.boolean().openapi({ description: 'true while the weights of the rows that count sum to less than 3' }),
    amostra: z.object({
      eventos: z.number().int().openapi({ description: 'rows that count' }),
      abonados: z.number().int(),
      peso: z.number().openapi({ description: 'the sum of their weights' }),
    }),
    media_regiao: z.number().openapi({ description: "m, the region's mean credit (the prior)" }),
    calculado_em: out.timestamp(),
    resumo: z.string(),
    regras: z.array(z.string()),
    eventos: z.array(ConfiabilidadeEventoSchema),
  })
  .openapi('Confiabilidade');

export const ContestacaoRequest = z
  .object({
    evento_id: uuid().openapi({ description: 'the ledger row contested (one of `eventos`)' }),
    motivo: reqStr(1000),
  })
  .openapi('ContestacaoRequest');

export const DecisaoRequest = z
  .object({
    decisao: z.enum(['abonar', 'manter']),
    resposta: reqStr(1000).openapi({ description: 'told to the professional; when abonar, the row’s `motivo`' }),
  })
  .openapi('ContestacaoDecisao');

export const ContestacaoItemSchema = ContestacaoSchema.extend({
  profissional_nome: z.string(),
  evento: ConfiabilidadeEventoSchema.pick({
    tipo: true,
    data_evento: true,
    minutos: true,
    credito: true,
    peso: true,
    ocorrido_em: true,
    abonado: true,
  }),
}).openapi('ConfiabilidadeContestacaoItem');

export const ContestacoesQuery = z.object({
  status: z
    .enum(CONTESTACAO_STATUS)
    .optional()
    .openapi({ param: { name: 'status', in: 'query' } }),
  ...pageFields,
});

export const ProfIdParam = z.object({ id: uuid().openapi({ param: { name: 'id', in: 'path' } }) });

export const RegiaoAgregadaSchema = z
  .object({
    regiao: out.regiao(),
    media_credito: z.number().openapi({ description: "the region's mean credit m (0.85 while it has no rows)" }),
    padrao: z.boolean().openapi({ description: 'true: no row yet, m is the default' }),
    eventos: z.number().int(),
    abonados: z.number().int(),
    suprimido: z.boolean().openapi({
      description: `true: at least one kind is hidden by the floor (fewer than ${MIN_PROFISSIONAIS_AGREGADO} professionals); the region's figures sum only the kinds shown`,
    }),
    por_tipo: z.array(
      z.object({
        tipo: z.enum(CONFIABILIDADE_TIPOS),
        eventos: z.number().int(),
        abonados: z.number().int(),
        media_credito: z.number().nullable(),
        suprimido: z.boolean().openapi({
          description: `true: fewer than ${MIN_PROFISSIONAIS_AGREGADO} professionals have rows of this kind in the region; its figures read as zero`,
        }),
      }),
    ),
  })
  .openapi('ConfiabilidadeRegiao');
