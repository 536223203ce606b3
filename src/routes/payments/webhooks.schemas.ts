import { z } from '@hono/zod-openapi';

/** What Mercado Pago puts in the notification URL's query string (`data.id` is what its signature covers). */
export const WebhookQuery = z.object({
  'data.id': z
    .string()
    .max(64)
    .optional()
    .openapi({
      param: { name: 'data.id', in: 'query' },
      description: 'the payment id; part of the signed manifest',
      example: '123456789',
    }),
  type: z
    .string()
    .max(64)
    .optional()
    .openapi({
      param: { name: 'type', in: 'query' },
      description: 'only `payment` notifications are processed',
      example: 'payment',
    }),
});

export const WebhookHeaders = z.object({
  'x-signature': z
    .string()
    .max(512)
    .optional()
    .openapi({
      param: { name: 'x-signature', in: 'header' },
      description: '`ts=<unix seconds>,v1=<HMAC-SHA256 hex>`',
      example: 'ts=1704908010,v1=618c85345248dd820d5fd456117c2ab2ef8eda45a0282ff693eac24131a5e839',
    }),
  'x-request-id': z
    .string()
    .max(256)
    .optional()
    .openapi({ param: { name: 'x-request-id', in: 'header' }, description: 'part of the signed manifest' }),
});
