import { z } from '@hono/zod-openapi';
import { cursorAntes, cursorLimit, cursorParts } from '../../lib/cursor';
import { isIsoInstant, saoPauloDayStart } from '../../lib/dates';
import { afterFields, isoDateOrInstant, searchText, uuid } from '../../lib/fields';
import { MOTIVOS } from '../../services/core/activity-log-chain';
import type { LogCursor } from '../../services/core/activity-log-list';
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
  isoDateOrInstant()
    .transform((s) => (isIsoInstant(s) ? new Date(s).toISOString() : saoPauloDayStart(s, name === 'ate' ? 1 : 0)))
    .optional()
    .openapi({
      param: { name, in: 'query' },
      description:
        name === 'de'
          ? 'Entries from this São Paulo day (YYYY-MM-DD) or instant (ISO-8601) on'
          : 'Entries up to the end of this São Paulo day (YYYY-MM-DD), or before this instant (ISO-8601)',
    });

const text = (name: string, description: string) =>
  searchText(100)
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

/** A published head (a sealing run's log line or daily e-mail): `seq` and `hash` together, or neither. */
export const VerificationQuery = z
  .object({
    seq: z
      .string()
      .regex(/^[1-9]\d{0,15}$/, 'deve ser um inteiro positivo')
      .transform(Number)
      .optional()
      .openapi({
        param: { name: 'seq', in: 'query' },
        type: 'integer',
        minimum: 1,
        description: "The expected head's seq (from a sealing run's log line or daily e-mail); with `hash`",
      }),
    hash: z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, 'deve ter 64 dígitos hexadecimais')
      .transform((s) => s.toLowerCase())
      .optional()
      .openapi({
        param: { name: 'hash', in: 'query' },
        pattern: '^[0-9a-fA-F]{64}$',
        description: "The expected head's seal (`hash` of that entry); with `seq`",
      }),
  })
  .refine((q) => (q.seq === undefined) === (q.hash === undefined), {
    path: ['hash'],
    message: 'informe seq e hash juntos, ou nenhum dos dois',
    ...afterFields,
  });

const Head = z
  .object({
    seq: z.number().int(),
    hash: z.string(),
    versao: z.number().int().openapi({ description: '0: the first rule, without a key; n: key version n' }),
  })
  .openapi('LogCabeca');

export const VerificationSchema = z
  .union([
    z.object({
      ok: z.literal(true),
      total: z.number().int(),
      cabeca: Head.nullable().openapi({ description: 'The last seal now; null when nothing is sealed' }),
      sem_chave_ate_seq: z.number().int().nullable().openapi({
        description:
          'The last seq sealed by the first rule, without a key (null: none). It never grows once LOG_CHAIN_SECRET is set',
      }),
      cabeca_esperada_alcancada: z
        .literal(true)
        .optional()
        .openapi({ description: 'Present when `seq` and `hash` were given: the chain still reaches that seal' }),
    }),
    z.object({
      ok: z.literal(false),
      quebra_em_seq: z.number().int(),
      motivo: z.enum(MOTIVOS).openapi({
        description:
          '`lacuna`: seqs missing (see `lacuna`); `entrada_ausente`: a sealed entry is gone; `selo_invalido`: the entry was ' +
          'changed or its seal does not follow the previous one; `versao_invalida`: a seal of an older rule after a newer ' +
          'one; `chave_desconhecida`: a seal of a key version the Worker does not have; `cabeca_ausente`: the expected ' +
          'head is past the last sealed entry (the end was removed); `cabeca_divergente`: the seal at the expected seq ' +
          'is another one (history up to it was rewritten)',
      }),
      lacuna: z
        .object({ de: z.number().int(), ate: z.number().int() })
        .optional()
        .openapi({ description: 'The missing seqs, both ends included (motivo `lacuna`)' }),
    }),
  ])
  .openapi('LogVerificacao');
