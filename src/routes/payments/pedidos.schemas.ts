import { z } from '@hono/zod-openapi';
import { out } from '../openapi';
import { PEDIDO_STATUS } from '../../db/schema';
import { pageFields } from '../../lib/pagination';
import { cpf, email, reqStr, uuid } from '../../lib/fields';

export const CreatePedidoRequest = z
  .object({
    fot_id: uuid(),
    pacote_id: uuid(),
    comprador_nome: reqStr(200).openapi({ example: 'Maria da Silva' }),
    comprador_email: email(),
    comprador_cpf: cpf(),
    parcelas: z.number().int().min(1).max(12).default(1).openapi({ description: "at most the package's parcelas_max" }),
  })
  .openapi('CreatePedidoInput');

export const IdempotencyHeader = z.object({
  'idempotency-key': z
    .string({ error: 'é obrigatório' })
    .min(1, 'é obrigatório')
    .max(64)
    .openapi({
      param: { name: 'idempotency-key', in: 'header' },
      // What a header can carry once HTTP has trimmed it: visible ASCII, inner spaces.
      pattern: '^[!-~](?:[ -~]*[!-~])?$',
      example: 'f3c1a7e2-pedido-maria',
      description:
        'required, 1-64 characters, chosen by the client per order: the same key and body again answer the same order; the same key with another body is 409 IDEMPOTENCY_MISMATCH',
    }),
});

export const PedidoSchema = z
  .object({
    id: out.id(),
    regiao: out.regiao(),
    fot_id: out.id(),
    pacote_id: out.id(),
    pacote_nome: z.string(),
    comprador_nome: z.string(),
    comprador_email: z.string(),
    comprador_cpf: z.string().openapi({ description: '11 digits' }),
    valor: z.number().openapi({ description: "BRL: the package's price when ordered" }),
    parcelas: z.number().int(),
    status: z.enum(PEDIDO_STATUS),
    url_pagamento: z.string().nullable().openapi({
      description:
        'where the buyer pays (the checkout of Mercado Pago); null for the first second or so, while the checkout is created: GET the order again (or repeat the POST with the same Idempotency-Key)',
    }),
    expira_em: out.timestamp(),
    pago_em: out.timestamp().nullable(),
    estornado_em: out.timestamp().nullable(),
    created_at: out.timestamp(),
    updated_at: out.timestamp(),
  })
  .openapi('Pedido');

export const PedidoListQuery = z.object({
  fot_id: uuid()
    .optional()
    .openapi({ param: { name: 'fot_id', in: 'query' } }),
  status: z
    .enum(PEDIDO_STATUS)
    .optional()
    .openapi({ param: { name: 'status', in: 'query' } }),
  ...pageFields,
});
