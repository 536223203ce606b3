import { z } from '@hono/zod-openapi';
import { out } from '../openapi';
import { CONVITE_ORIGEM, CONVITE_STATUS } from '../../db/schema';
import { pageFields } from '../../lib/pagination';
import { afterFields, uuid } from '../../lib/fields';

export const EquipeRequest = z
  .array(
    z.object({
      funcao_id: uuid(),
      quantidade: z.number().int().min(0).max(1000),
      publicar: z
        .boolean()
        .default(false)
        .openapi({ description: 'offered to professionals in GET /api/vagas (docs/decisions.md#d17)' }),
      requer_aprovacao: z
        .boolean()
        .default(false)
        .openapi({ description: 'applications wait as `solicitado` for an administrator' }),
      forcar: z.boolean().optional().openapi({
        description:
          "above the cap of an institution's rule (docs/decisions.md#d25) on purpose: logged; without it such a quota is 409 EXCEEDS_INSTITUTION_LIMIT",
      }),
    }),
  )
  .max(30)
  .refine((items) => new Set(items.map((i) => i.funcao_id)).size === items.length, {
    message: 'funcao_id: cada função no máximo uma vez',
    ...afterFields,
  })
  .openapi('EquipeRequest', { description: 'The whole team quota of the event: replaces the previous one' });

export const InviteRequest = z
  .object({
    profissional_id: uuid(),
    funcao_id: uuid(),
    forcar: z.boolean().optional().openapi({
      description:
        "Administrators only (403 otherwise): invite although the professional declared itself unavailable during the event's window (docs/decisions.md#d24); logged, and its acceptance is not refused for that declaration",
    }),
  })
  .openapi('ConviteRequest');

export const AnswerRequest = z
  .object({
    status: z.enum(['aceito', 'recusado']),
    forcar: z.boolean().optional().openapi({
      description:
        "An administrator's approval only (a professional sending `true`: 403): approve although the professional has a travel conflict (TRAVEL_CONFLICT) or declared itself unavailable (PROFESSIONAL_UNAVAILABLE); never over an overlap (DOUBLE_BOOKED) or a full quota. Logged with what it passed",
    }),
  })
  .openapi('ConviteAnswer', {
    description:
      'The invited professional answers its invitation; an administrator of the region decides an application in `solicitado`',
  });

export const ConviteSchema = z
  .object({
    id: out.id(),
    agenda_id: out.id(),
    profissional_id: out.id(),
    profissional_nome: z.string(),
    funcao_id: out.id(),
    funcao_nome: z.string(),
    status: z.enum(CONVITE_STATUS).openapi({
      description:
        'pendente (invited, unanswered), aceito (takes a place), recusado, solicitado (an application waiting for an administrator), espera (waiting list)',
    }),
    origem: z
      .enum(CONVITE_ORIGEM)
      .openapi({ description: 'convite: invited by the event; candidatura: applied through /api/vagas' }),
    convidado_por: out.id().nullable(),
    respondido_em: out.timestamp().nullable(),
    confirmado_em: out
      .timestamp()
      .nullable()
      .openapi({ description: 'when the professional confirmed presence (PATCH .../confirmacao); null: not yet' }),
    ciente_versao: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'the call-sheet versao the professional acknowledged (PATCH .../ciente)' }),
    created_at: out.timestamp(),
    updated_at: out.timestamp(),
    evento: z.object({
      regiao: out.regiao(),
      data_evento: out.date(),
      horario: out.time().nullable(),
      horario_fim: out.time().nullable(),
      local_evento: z.string().nullable(),
      tipo_evento_nome: z.string(),
    }),
    ranking_snapshot: z.record(z.string(), z.unknown()).nullable().optional().openapi({
      description:
        "planners' reads only (GET /api/agenda/{id}/convites, the batch invitation): the ranking as it stood when a batch invitation chose this professional (`posicao`, `score`, `componentes`, `alertas`, `pesos`, `calculado_em`; docs/guide/ranking.md); null for an invitation made one by one",
    }),
  })
  .openapi('ConviteResponse');

export const MyConvitesQuery = z.object({
  status: z
    .enum(CONVITE_STATUS)
    .optional()
    .openapi({ param: { name: 'status', in: 'query' } }),
  ...pageFields,
});
