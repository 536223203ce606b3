import { z } from '@hono/zod-openapi';
import { cursorAntes, cursorLimit, cursorParts, isIsoInstant } from '../../lib/cursor';
import { isIsoDate, saoPauloDayStart } from '../../lib/dates';
import { uuid } from '../../lib/fields';
import type { LogCursor } from '../../services/activity-log';
import { out } from '../openapi';

export const LogEntrySchema = z
  .object({
    id: out.id(),
    seq: z.number().int(),
    created_at: out.timestamp(),
    ator_id: out.id().nullable(),
    ator_role: z.string().nullable(),
    acao: z.string().openapi({ example: 'cursos.update' }),
    entidade: z.string().openapi({ example: 'cursos' }),
    entidade_id: out.id().nullable(),
    regiao: z.string().nullable(),
    request_id: z
      .string()
      .nullable()
      .openapi({ description: "The answer's X-Request-Id (a client may send its own: not always a UUID)" }),
    dados: z
      .record(z.string(), z.unknown())
      .openapi({ example: { nome: { antes: 'Medicina', depois: 'Medicina (integral)' } } }),
    hash_anterior: z.string().nullable().openapi({ description: 'null until the entry is sealed (within 15 minutes)' }),
    hash: z.string().nullable().openapi({ description: 'null until the entry is sealed (within 15 minutes)' }),
  })
  .openapi('LogAtividade');

/** The log's cursor: base64url of the last entry's seq (src/lib/cursor.ts), or an ISO-8601 instant. */
export function decodeLogCursor(s: string): LogCursor | undefined {
  if (isIsoInstant(s)) return { createdAt: new Date(s).toISOString() };
  const parts = cursorParts(s);
  if (parts?.length !== 1 || !/^[1-9]\d{0,15}$/.test(parts[0]!)) return undefined;
  return { seq: Number(parts[0]) };
}

/** A São Paulo day (YYYY-MM-DD) or an ISO-8601 instant, as an instant; `ate` takes the whole day. */
const bound = (name: 'de' | 'ate') =>
  z
    .string()
    .trim()
    .refine((s) => isIsoDate(s) || isIsoInstant(s), 'deve ser uma data (AAAA-MM-DD) ou um instante ISO-8601')
    .transform((s) => (isIsoInstant(s) ? new Date(s).toISOString() : saoPauloDayStart(s, name === 'ate' ? 1 : 0)))
    .optional()
    .openapi({
      param: { name, in: 'query' },
      type: 'string',
      description:
        name === 'de'
          ? 'Entries from this São Paulo day (YYYY-MM-DD) or instant (ISO-8601) on'
          : 'Entries up to the end of this São Paulo day (YYYY-MM-DD), or before this instant (ISO-8601)',
    });

const text = (name: string, description: string) =>
  z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .openapi({ param: { name, in: 'query' }, description });

export const LogListQuery = z.object({
  entidade: text('entidade', 'The resource, e.g. `cursos`, `users`, `convites`'),
  entidade_id: uuid()
    .optional()
    .openapi({ param: { name: 'entidade_id', in: 'query' }, description: 'The resource row' }),
  ator_id: uuid()
    .optional()
    .openapi({ param: { name: 'ator_id', in: 'query' }, description: 'Who acted' }),
  acao: text('acao', 'The action, e.g. `cursos.update`, `auth.login_failed`'),
  de: bound('de'),
  ate: bound('ate'),
  limit: cursorLimit,
  antes: cursorAntes(decodeLogCursor, 'entries'),
});

export const VerificationSchema = z
  .union([
    z.object({ ok: z.literal(true), total: z.number().int() }),
    z.object({ ok: z.literal(false), quebra_em_seq: z.number().int() }),
  ])
  .openapi('LogVerificacao');
