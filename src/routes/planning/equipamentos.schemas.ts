import { z } from '@hono/zod-openapi';
import { RECURSOS } from '../../db/schema';
import { out } from '../openapi';

export const EquipamentoSchema = z
  .object({
    recurso: z.enum(RECURSOS),
    nome: z.string(),
    estoque: z.number().int().openapi({ description: "the company's own (0 until set)" }),
    de_profissionais: z.number().int().openapi({
      description:
        "studios of the region's active professionals (profile `tem_estudio`, `qtd_estudio`; one when no number); 0 for other resources",
    }),
    total: z.number().int().openapi({ description: "estoque + de_profissionais: the planner's pool" }),
    updated_at: out.timestamp().nullable().openapi({ description: 'when the stock was last set (null: never)' }),
  })
  .openapi('Equipamento');

export const PutEquipamentosRequest = z
  .object({
    itens: z
      .array(z.object({ recurso: z.enum(RECURSOS), quantidade: z.number().int().min(0).max(10_000) }))
      .min(1)
      .max(RECURSOS.length)
      .refine((i) => new Set(i.map((x) => x.recurso)).size === i.length, 'recurso: cada recurso no máximo uma vez'),
  })
  .openapi('PutEquipamentosRequest');
