import { z } from '@hono/zod-openapi';
import { out } from '../openapi';

export const CanaisRequest = z
  .object({
    whatsapp: z.boolean().openapi({
      description:
        'true: receive invitations and reminders on WhatsApp at the profile number (normalised to E.164; 400 when it is not a Brazilian number with DDD); false: stop',
    }),
  })
  .openapi('canaisRequest');

export const CanaisSchema = z
  .object({
    whatsapp: z.boolean(),
    whatsapp_desde: out.timestamp().nullable().openapi({ description: 'when the consent was given; null without it' }),
  })
  .openapi('Canais', { description: 'The channels the professional consented to (docs/decisions.md#d30)' });
