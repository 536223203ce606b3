import { z } from '@hono/zod-openapi';
import { UFS } from '../lib/brazil';
import { codeToStatus, type ErrorCode } from '../lib/errors';
import { DATE_PATTERN, TIME_PATTERN, uuid } from '../lib/fields';

/**
 * The OpenAPI pieces every route group shares: the error body, the documented error responses,
 * the bearer requirement, body/response wrappers and the common parameters. Routes are declared
 * through routes/route.ts, which spreads these for them.
 */

export const IdParam = z.object({ id: uuid().openapi({ param: { name: 'id', in: 'path' } }) });

export const ErrorSchema = z
  .object({
    error: z.string().openapi({ example: 'senha: deve ter pelo menos 6 caracteres' }),
    code: z
      .enum(Object.keys(codeToStatus) as [ErrorCode, ...ErrorCode[]])
      .openapi({ description: 'machine-readable; the list can grow', example: 'VALIDATION_FAILED' }),
  })
  .openapi('Error');

const FieldErrorSchema = z
  .object({
    campo: z.string().nullable().openapi({
      description:
        "The field's path, with dots (`funcoes_ids.1`, `profissional.uf`); null: the body or query as a whole",
      example: 'senha',
    }),
    erro: z.string().openapi({ description: 'Why, in Portuguese', example: 'deve ter pelo menos 6 caracteres' }),
  })
  .openapi('CampoErro');

/**
 * A 400. An answer of the validation hook (VALIDATION_FAILED, INVALID_ID from a path parameter)
 * also lists every field error in `campos`; `error` is the first of them as one sentence.
 */
export const ValidationErrorSchema = ErrorSchema.extend({
  campos: z
    .array(FieldErrorSchema)
    .min(1)
    .optional()
    .openapi({
      description:
        'Every field error of the request part that failed its schema (path, query or body), in order; `error` states the first. ' +
        'Present on every answer of schema validation; absent when a later check (against the stored data) refuses the request.',
    }),
}).openapi('ValidationError');

/** A refused acceptance (docs/decisions.md#d11): TRAVEL_CONFLICT names the conflict. */
export const AcceptanceErrorSchema = ErrorSchema.extend({
  conflito_com: z
    .string()
    .optional()
    .openapi({ description: 'TRAVEL_CONFLICT: the id of the other accepted event (agenda)' }),
  folga_min: z
    .number()
    .int()
    .optional()
    .openapi({ description: "TRAVEL_CONFLICT: minutes from the earlier event's end to the later one's start" }),
  deslocamento_min: z.number().int().optional().openapi({
    description:
      "TRAVEL_CONFLICT: the travel minutes from the earlier event's place to the later one's (the margin MARGEM_DESLOCAMENTO_MIN comes on top)",
  }),
}).openapi('AcceptanceError');

export const MessageSchema = z.object({ message: z.string() }).openapi('Message');

const errorContent = <S extends z.ZodType = typeof ErrorSchema>(description: string, schema?: S) => ({
  description,
  content: { 'application/json': { schema: (schema ?? ErrorSchema) as S } },
});

/** Error responses shared by every route; spread the ones a route can produce. */
export const errors = {
  400: errorContent(
    'Invalid body, id, region or JSON (VALIDATION_FAILED, INVALID_ID, INVALID_REGION, INVALID_JSON, ...); a schema failure lists every field error in `campos`',
    ValidationErrorSchema,
  ),
  401: errorContent('Missing, invalid or expired credential (UNAUTHENTICATED)'),
  403: errorContent('Authenticated but not allowed (FORBIDDEN, ACCOUNT_PENDING)'),
  404: errorContent("Not found, or outside the caller's region or permissions (NOT_FOUND)"),
  409: errorContent('Conflict (CONFLICT, IN_USE, QUOTA_FULL, DOUBLE_BOOKED, INVALID_STATE)'),
  /** A path to `aceito` (docs/decisions.md#d11): the acceptance rule's codes, TRAVEL_CONFLICT with its fields. */
  acceptance409: errorContent(
    'Conflict (QUOTA_FULL, DOUBLE_BOOKED, TRAVEL_CONFLICT with conflito_com/folga_min/deslocamento_min, PROFESSIONAL_UNAVAILABLE, INVALID_STATE, CONFLICT)',
    AcceptanceErrorSchema,
  ),
  413: errorContent('Body over 64 KiB (PAYLOAD_TOO_LARGE)'),
  429: {
    ...errorContent('Too many failed attempts (RATE_LIMITED)'),
    headers: {
      'Retry-After': { description: 'seconds to wait before trying again', schema: { type: 'integer', minimum: 1 } },
    },
  },
  500: errorContent('Internal failure (INTERNAL)'),
  503: errorContent('The deployment lacks a setting this operation needs (CONFIG_MISSING); nothing was changed'),
} as const;

/** The OpenAPI security requirement of every authenticated route. */
export const bearer = [{ BearerAuth: [] }];

/** The error responses every authenticated route can give; routes add 404, 409, 413 as they apply. */
export const protectedErrors = { 400: errors[400], 401: errors[401], 403: errors[403], 500: errors[500] } as const;

export const jsonBody = <T extends z.ZodType>(schema: T, description?: string) => ({
  required: true,
  description,
  content: { 'application/json': { schema } },
});

/** A `text/csv` request body or answer (docs/decisions.md#shared-rules: UTF-8, header row, formula-escaped). */
export const csvContent = (description: string) => ({
  description,
  content: { 'text/csv': { schema: z.string().openapi({ format: 'binary' }) } },
});

/** A CSV upload: as csvContent, and never empty (an empty file is refused: 400). */
export const csvUpload = (description: string) => ({
  description,
  content: { 'text/csv': { schema: z.string().openapi({ format: 'binary', minLength: 1 }) } },
});

export const jsonResponse = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

/** A region; its enum is the deployment's REGIOES, filled in by routes/document.ts. */
export const RegiaoSchema = z.string().openapi('Regiao', { example: 'SP' });

/** x-regiao header, documented on every regional route (document.ts adds the pattern of REGIOES). */
export const RegionHeader = z.object({
  'x-regiao': z
    .string()
    .optional()
    .openapi({
      param: { name: 'x-regiao', in: 'header' },
      example: 'SP',
      description: 'Region, any case. Missing or empty: the default region (REGIAO_PADRAO).',
    }),
});

/**
 * Response fields with the format the server always writes (ids, timestamps, dates, times, UF codes):
 * a client generated from the document gets the right types and a validator can hold us to them.
 */
export const out = {
  id: () => z.string().openapi({ format: 'uuid' }),
  timestamp: () => z.string().openapi({ format: 'date-time', example: '2026-11-23T19:47:27.000Z' }),
  date: () => z.string().openapi({ format: 'date', pattern: DATE_PATTERN, example: '2026-12-05' }),
  time: () => z.string().openapi({ pattern: TIME_PATTERN, example: '19:30' }),
  /** A UF code (uppercase) or null; typed as a string, so mappers need not narrow it. */
  ufOrNull: () =>
    z
      .string()
      .nullable()
      .openapi({ enum: [...UFS, null], description: 'UF code, uppercase' }),
  /** A region of the deployment: the document lists the configured REGIOES (routes/document.ts). */
  regiao: () => RegiaoSchema,
};
