import { z } from '@hono/zod-openapi';
import { out } from '../openapi';
import { tiposEventos } from '../../db/schema';
import { money, uuid } from '../../lib/fields';
import { catalogRequestSchema, catalogResponseShape, type CatalogConfig } from './catalogs.schemas';

/** Event types are a simple catalog (same table shape, rules and routes) that also owns prices. */
export const tiposEventosConfig = {
  table: tiposEventos,
  path: '/api/tipos-eventos',
  field: 'nome',
  maxLength: 120,
  example: 'Colação de grau',
  schemaNames: { request: 'CreateEventoRequest', response: 'EventoResponse' },
  tag: 'Event types and prices',
  noun: 'tipo de evento',
  notFound: 'tipo de evento não encontrado',
  deleteStyle: 'no-content',
} as const satisfies CatalogConfig;

export const CreateEventoRequest = catalogRequestSchema(tiposEventosConfig).openapi(
  tiposEventosConfig.schemaNames.request,
);

export const PrecoResponse = z
  .object({
    id: z.string().openapi({ format: 'uuid' }),
    tipo_evento_id: z.string().openapi({ format: 'uuid' }),
    funcao_profissional_id: z.string().openapi({ format: 'uuid' }),
    funcao_nome: z.string(),
    valor: z.number().openapi({ description: 'BRL, at most 2 decimals', multipleOf: 0.01, example: 350.5 }),
    regiao: out.regiao(),
    created_at: z.string().openapi({ format: 'date-time' }),
    updated_at: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('PrecoResponse');

export const EventoResponse = z
  .object({
    ...catalogResponseShape(tiposEventosConfig.field),
    precos: z.array(PrecoResponse).openapi({ description: "the region's prices of this event type, by function name" }),
  })
  .openapi(tiposEventosConfig.schemaNames.response);

export const PriceInput = z
  .object({
    tipo_evento_id: uuid(),
    funcao_profissional_id: uuid(),
    valor: money(),
  })
  .openapi('PriceInput');

export const PriceSavedResponse = z
  .object({
    message: z.string(),
    id: z.string().openapi({ format: 'uuid', description: 'id of the price (unchanged when replaced)' }),
  })
  .openapi('PriceSavedResponse');
