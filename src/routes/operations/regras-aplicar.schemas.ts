import { z } from '@hono/zod-openapi';
import { REGRA_RECURSOS } from '../../db/schema';
import { out } from '../openapi';
import { AvaliacaoSchema } from '../rules/regras.schemas';

export const AplicarHeaders = z.object({
  'idempotency-key': z
    .string({ error: 'é obrigatório' })
    .min(1, 'é obrigatório')
    .max(64)
    .openapi({
      param: { name: 'idempotency-key', in: 'header' },
      pattern: '^[!-~](?:[ -~]*[!-~])?$',
      example: 'aplicar-ufsc-2026-12-10',
      description:
        'required, 1-64 characters, chosen by the client per application: the same key again answers the first application (nothing written twice); the same key for another event is 409 IDEMPOTENCY_MISMATCH',
    }),
});

export const AplicacaoSchema = z
  .object({
    aplicacao_id: out.id(),
    agenda_id: out.id(),
    quotas: z.array(z.object({ funcao_id: out.id(), quantidade: z.number().int() })),
    recursos: z.object(Object.fromEntries(REGRA_RECURSOS.map((r) => [r, z.number().int().optional()]))),
    prazo_credenciamento: out.date().nullable(),
    lancamentos: z.array(
      z.object({
        chave: z.string().openapi({ description: "the entry's chave_externa: taxa:<event>:<fee>" }),
        descricao: z.string(),
        valor: z.number(),
        vencimento: out.date(),
      }),
    ),
    avaliacao: AvaliacaoSchema,
  })
  .openapi('AplicacaoRegras');
