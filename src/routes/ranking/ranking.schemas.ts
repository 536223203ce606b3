import { z } from '@hono/zod-openapi';
import { COMPONENTES, PESOS_PADRAO } from '../../db/schema';
import { distinctList, uuid } from '../../lib/fields';
import { MOTIVOS } from '../../services/ranking/candidatos';
import { out } from '../openapi';
import { ConviteSchema } from '../teams/convites.schemas';

/** The most candidates one ranking answers, and the most invitations one batch makes. */
export const MAX_CANDIDATOS = 100;
export const MAX_LOTE = 20;

export const CandidatosQuery = z.object({
  funcao_id: uuid().openapi({ param: { name: 'funcao_id', in: 'query' } }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_CANDIDATOS)
    .default(20)
    .openapi({ param: { name: 'limit', in: 'query' }, type: 'integer', minimum: 1, maximum: MAX_CANDIDATOS }),
  incluir_excluidos: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true')
    .openapi({
      param: { name: 'incluir_excluidos', in: 'query' },
      type: 'string',
      enum: ['true', 'false'],
      description: 'true: also the holders a hard filter leaves out, each with its `motivo`',
    }),
});

const peso = () => z.number().min(0).max(1);

const componente = (detail: z.ZodRawShape, description: string) =>
  z
    .object({
      valor: z.number().openapi({ description: '0-1' }),
      peso: peso().openapi({ description: "the region's weight (the weights sum 1)" }),
      contribuicao: z.number().openapi({ description: 'valor x peso: what this component adds to `score`' }),
      ...detail,
    })
    .openapi({ description });

export const ComponentesSchema = z
  .object({
    distancia: componente(
      {
        minutos: z.number().int().nullable(),
        fonte: z.enum(['matriz', 'mesma_cidade', 'estimado']).nullable(),
        origem_ibge: z.number().int().nullable(),
      },
      "1 - min(travel minutes from the professional's city to the event's, 180) / 180 (the D23 rule: matrix, same city, estimate); 0.5 when either city is unknown",
    ),
    avaliacao: componente(
      { media: z.number(), amostra: z.number().int(), prior: z.number() },
      "Bayesian mean of the administrators' four criteria and the client ratings (C = 5, prior the holders' mean), / 5",
    ),
    confiabilidade: componente(
      {
        pontuacao: z
          .number()
          .int()
          .openapi({ description: "R (0-100) rounded, as the professional's reliability view answers it" }),
        fonte: z.enum(['profissional', 'regiao']).openapi({
          description: "`regiao`: no kept score yet, the region's prior (its mean credit x 100) stands in",
        }),
      },
      'reliability score R / 100 (D28); absent, and out of the score, for an agenda_viewer (D28 keeps the score from that role)',
    ).optional(),
    rodizio: componente(
      { trabalhos_30d: z.number().int(), media_regiao: z.number() },
      "1 / (1 + max(0, accepted jobs in the 30 days before the event - the holders' mean))",
    ),
    funcao: componente({ principal: z.boolean() }, 'main function 1, secondary 0.7'),
    preferencia: componente(
      { preferencial: z.boolean() },
      "1 when a `preferencial` declaration meets the event's window",
    ),
    responsividade: componente(
      { mediana_horas: z.number().nullable(), amostra: z.number().int() },
      'median reply hours to invitations of the past year: 1 - min(h, 72) / 72; 0.5 without replies',
    ),
  })
  .openapi('RankingComponentes');

export const CandidatoSchema = z
  .object({
    posicao: z.number().int(),
    profissional_id: out.id(),
    nome: z.string(),
    avatar_url: z.string().nullable(),
    score: z.number().openapi({ description: 'the sum of the contributions, 4 decimals (0-1)' }),
    trabalhos_30d: z.number().int(),
    componentes: ComponentesSchema,
    alertas: z.array(z.string()).openapi({ example: ['mesmo dia: Baile 21:00, folga 95 min'] }),
  })
  .openapi('Candidato');

export const ExcluidoSchema = z
  .object({
    profissional_id: out.id(),
    nome: z.string(),
    motivo: z.enum(MOTIVOS),
    detalhe: z.string(),
  })
  .openapi('CandidatoExcluido');

export const PesosSchema = z
  .object(Object.fromEntries(COMPONENTES.map((k) => [k, peso().openapi({ example: PESOS_PADRAO[k] })])))
  .openapi('PesosRanking');

export const RankingSchema = z
  .object({
    agenda_id: out.id(),
    data_evento: out.date(),
    funcao_id: out.id(),
    pesos: PesosSchema,
    vagas: z.object({
      quantidade: z.number().int().nullable().openapi({ description: "the function's team quota; null: no quota" }),
      aceitos: z.number().int(),
      aberta: z
        .boolean()
        .openapi({ description: 'false: the quota is filled (a batch invitation refuses QUOTA_FULL)' }),
    }),
    candidatos: z.array(CandidatoSchema),
    excluidos: z.array(ExcluidoSchema).optional().openapi({ description: 'only with incluir_excluidos=true' }),
    calculado_em: out.timestamp(),
  })
  .openapi('Ranking');

const pesoEntrada = () => z.number().min(0).max(1000);
export const PesosRequest = z
  .object(
    Object.fromEntries(COMPONENTES.map((k) => [k, pesoEntrada()])) as Record<
      (typeof COMPONENTES)[number],
      ReturnType<typeof pesoEntrada>
    >,
  )
  .openapi('PesosRankingRequest', {
    description: 'The seven weights, any non-negative numbers with a positive sum: stored divided by their sum',
  });

export const PesosAnswerSchema = z
  .object({
    regiao: out.regiao(),
    pesos: PesosSchema,
    padrao: z.boolean().openapi({ description: "true: the region has no weights of its own (D29's defaults)" }),
    updated_at: out.timestamp().nullable(),
  })
  .openapi('PesosRankingResponse');

const loteIds = z
  .object({
    funcao_id: uuid(),
    profissional_ids: distinctList(uuid(), { min: 1, max: MAX_LOTE, message: 'profissional_ids repetidos' }).openapi({
      description: 'these professionals (each answered on its own)',
    }),
  })
  .openapi('ConviteLoteNomeados');
const loteTop = z
  .object({
    funcao_id: uuid(),
    top_n: z.number().int().min(1).max(MAX_LOTE).openapi({ description: "the ranking's first N candidates" }),
  })
  .openapi('ConviteLoteMelhores');

/** Either the professionals named or the ranking's first N (a body with both is read as the named ones). */
export const LoteRequest = z
  .union([loteIds, loteTop], {
    error: 'envie funcao_id e profissional_ids (os profissionais) ou top_n (os primeiros do ranking)',
  })
  .openapi('ConviteLoteRequest');

export const LoteItemSchema = z
  .object({
    profissional_id: out.id(),
    resultado: z.enum(['convidado', 'recusado']),
    convite: ConviteSchema.optional().openapi({ description: 'convidado: the invitation with its ranking_snapshot' }),
    code: z.string().optional().openapi({
      description:
        'recusado: the code D11 gives (CONFLICT already invited, PROFESSIONAL_UNAVAILABLE, DOUBLE_BOOKED, TRAVEL_CONFLICT, QUOTA_FULL, VALIDATION_FAILED no such function, NOT_FOUND)',
    }),
    motivo: z.enum(MOTIVOS).optional().openapi({ description: "recusado by a hard filter: the ranking's motivo" }),
    error: z.string().optional().openapi({ description: 'recusado: why, in Portuguese' }),
  })
  .openapi('ConviteLoteItem');

export const LoteSchema = z
  .object({
    convidados: z.number().int(),
    recusados: z.number().int(),
    itens: z.array(LoteItemSchema),
  })
  .openapi('ConviteLoteResponse');
