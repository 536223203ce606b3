import { z } from '@hono/zod-openapi';
import { out } from '../openapi';
import { pageFields } from '../../lib/pagination';
import { afterFields, isoDate, searchText, uf, uuid } from '../../lib/fields';

const q = (name: string, description?: string) => ({ param: { name, in: 'query' as const }, description });

export const VagasQuery = z
  .object({
    funcao_id: uuid().optional().openapi(q('funcao_id')),
    tipo_evento_id: uuid().optional().openapi(q('tipo_evento_id')),
    de: isoDate().optional().openapi(q('de', 'from this date (inclusive); never before today')),
    ate: isoDate().optional().openapi(q('ate', 'up to this date (inclusive)')),
    cidade: searchText(120).optional().openapi(q('cidade', "the FOT record's city, any case")),
    uf: uf().optional().openapi(q('uf', "the FOT record's state")),
    ...pageFields,
  })
  .refine((v) => !v.de || !v.ate || v.de <= v.ate, {
    path: ['ate'],
    message: 'deve ser igual ou posterior a de',
    ...afterFields,
  });

export const VagaSchema = z
  .object({
    agenda_id: out.id(),
    data_evento: out.date(),
    horario: out.time().nullable(),
    horario_fim: out.time().nullable(),
    local_evento: z.string().nullable(),
    cidade: z.string().nullable(),
    uf: out.ufOrNull(),
    tipo_evento: z.object({ id: out.id(), nome: z.string() }),
    funcao_id: out.id(),
    funcao_nome: z.string(),
    requer_aprovacao: z.boolean().openapi({ description: 'an application waits as `solicitado` for an administrator' }),
    vagas_restantes: z.number().int(),
    valor: z
      .number()
      .nullable()
      .openapi({ description: 'BRL: the price of this function for this event type in the region, or null' }),
    conflito_horario: z.boolean().openapi({
      description: "true when the caller is already accepted on another event whose time window overlaps this one's",
    }),
    conflito_deslocamento: z.boolean().openapi({
      description:
        'true when accepting this place would meet a travel conflict (409 TRAVEL_CONFLICT, docs/decisions.md#d11): another accepted event of the day before, the same day or the day after leaves less than the travel plus MARGEM_DESLOCAMENTO_MIN between the two; false otherwise (or a city unknown)',
    }),
    conflito_deslocamento_detalhe: z
      .object({
        conflito_com: out.id().openapi({ description: 'the other accepted event (agenda id)' }),
        folga_min: z
          .number()
          .int()
          .openapi({ description: "minutes from the earlier event's end to the later one's start" }),
        deslocamento_min: z.number().int().openapi({ description: 'travel minutes between the two places' }),
      })
      .nullable()
      .openapi({
        description: 'the conflict conflito_deslocamento announces, as the 409 would say it; null without one',
      }),
  })
  .openapi('Vaga');

export const CandidaturaRequest = z
  .object({
    funcao_id: uuid(),
    lista_espera: z.boolean().optional().openapi({
      description: 'when the function is full, join its waiting list (`espera`) instead of 409 QUOTA_FULL',
    }),
  })
  .openapi('CandidaturaRequest');
