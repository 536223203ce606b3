import { z } from '@hono/zod-openapi';

/** The subscription handshake Meta sends once, when the webhook URL is saved in the app's dashboard. */
export const HandshakeQuery = z.object({
  'hub.mode': z
    .string()
    .max(32)
    .optional()
    .openapi({ param: { name: 'hub.mode', in: 'query' }, example: 'subscribe' }),
  'hub.verify_token': z
    .string()
    .max(256)
    .optional()
    .openapi({ param: { name: 'hub.verify_token', in: 'query' }, description: 'must equal WHATSAPP_VERIFY_TOKEN' }),
  'hub.challenge': z
    .string()
    .max(256)
    .optional()
    .openapi({
      param: { name: 'hub.challenge', in: 'query' },
      description: 'answered back as text',
      example: '1158201444',
    }),
});

export const SignatureHeaders = z.object({
  'x-hub-signature-256': z
    .string()
    .max(128)
    .optional()
    .openapi({
      param: { name: 'x-hub-signature-256', in: 'header' },
      description: '`sha256=<hex>`: HMAC-SHA256 of the raw body with WHATSAPP_APP_SECRET',
      example: 'sha256=0d4bd0c8c2b5f8a0e6a6e3f0a5b1c7d9e2f4a6b8c0d2e4f6a8b0c2d4e6f8a0b2',
    }),
});

export const WhatsappStatusSchema = z
  .object({
    convite_id: z.string().openapi({ format: 'uuid' }),
    profissional_id: z.string().nullable().openapi({ format: 'uuid' }),
    status: z.enum(['pendente', 'enviando', 'enviado', 'entregue', 'lido', 'falhou']).openapi({
      description: 'pendente/enviando: not yet accepted by WhatsApp; enviado; entregue (on the phone); lido; falhou',
    }),
    enviado_em: z.string().nullable(),
    entregue_em: z.string().nullable(),
    lido_em: z.string().nullable(),
    respondido_por_whatsapp: z.boolean().openapi({ description: 'the invitation was answered with its buttons' }),
    erro: z.string().nullable().openapi({ description: 'why it failed (WhatsApp’s answer), when it did' }),
  })
  .openapi('WhatsappConviteStatus');
