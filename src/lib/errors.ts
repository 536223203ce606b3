import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** Every machine-readable error code (docs/decisions.md#d2) and the HTTP status it maps to. */
export const codeToStatus = {
  VALIDATION_FAILED: 400,
  INVALID_JSON: 400,
  INVALID_ID: 400,
  INVALID_REGION: 400,
  EMAIL_TAKEN: 400,
  DUPLICATE_FOT: 400,
  ROLE_NOT_ALLOWED: 400,
  INVALID_RESET_TOKEN: 400,
  UNAUTHENTICATED: 401,
  INVALID_CREDENTIALS: 401,
  INVALID_REFRESH_TOKEN: 401,
  ACCOUNT_PENDING: 403,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  IN_USE: 409,
  QUOTA_FULL: 409,
  DOUBLE_BOOKED: 409,
  // Travel between two accepted events (docs/decisions.md#d11, amended by D23); the body adds its fields.
  TRAVEL_CONFLICT: 409,
  INVALID_STATE: 409,
  // Availability (docs/decisions.md#d24).
  HAS_ASSIGNMENT: 409,
  // A team quota above an institution's cap without `forcar` (docs/decisions.md#d25).
  EXCEEDS_INSTITUTION_LIMIT: 409,
  PROFESSIONAL_UNAVAILABLE: 409,
  // QR check-in (docs/decisions.md#d27).
  INVALID_TOKEN: 409,
  CHECKIN_WINDOW_CLOSED: 409,
  OUTSIDE_GEOFENCE: 409,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  // Spreadsheet import (docs/decisions.md#d20).
  IMPORT_HAS_ERRORS: 409,
  ALREADY_APPLIED: 409,
  // Payments (docs/decisions.md#d19).
  INVALID_SIGNATURE: 401,
  IDEMPOTENCY_MISMATCH: 409,
  INTERNAL: 500,
  // A setting the operation needs is not configured (API_URL for feed urls): the operator's to fix.
  CONFIG_MISSING: 503,
} as const satisfies Record<string, ContentfulStatusCode>;

export type ErrorCode = keyof typeof codeToStatus;

export class ApiError extends Error {
  readonly code: ErrorCode;
  /** Overrides the code's default status (ACCOUNT_PENDING is 401 at login, 403 elsewhere). */
  readonly status: ContentfulStatusCode;
  readonly headers?: Record<string, string>;
  /** Fields the body carries besides `error` and `code` (TRAVEL_CONFLICT's conflict). */
  readonly extra?: Record<string, unknown>;

  constructor(
    code: ErrorCode,
    message: string,
    opts: { status?: ContentfulStatusCode; headers?: Record<string, string>; extra?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.code = code;
    this.status = opts.status ?? codeToStatus[code];
    this.headers = opts.headers;
    this.extra = opts.extra;
  }
}

/** One problem of a request that failed validation: the field (its dotted path; null: the whole part) and why. */
export interface FieldError {
  campo: string | null;
  erro: string;
}

/**
 * The error body. `campos` only on an answer of the validation hook (routes/router.ts): every
 * problem, the first of which `error` states.
 */
export const errorBody = (code: ErrorCode, error: string, campos?: FieldError[]) =>
  campos ? { error, code, campos } : { error, code };

/** Collects the messages of an error and its causes (D1 errors arrive wrapped once or twice). */
function causeChain(err: unknown): { messages: string; query?: string } {
  const parts: string[] = [];
  let query: string | undefined;
  let cur: unknown = err;
  for (let depth = 0; cur && depth < 5; depth++) {
    if (cur instanceof Error) {
      const q = (cur as { query?: unknown }).query;
      // drizzle's wrapper repeats the SQL and the bound parameters (user input) in its message: keep
      // its SQL text apart and match constraint names only in the driver's messages.
      if (typeof q === 'string') query ??= q;
      else parts.push(cur.message);
      cur = cur.cause;
    } else {
      parts.push(String(cur));
      break;
    }
  }
  return { messages: parts.join(' | '), query };
}

/**
 * The one place where database constraint failures become API errors, so uniqueness and
 * references are enforced by the schema and never only by a read before the write.
 */
export function mapDbError(err: unknown): ApiError | undefined {
  const { messages, query } = causeChain(err);
  if (/UNIQUE constraint failed/i.test(messages)) {
    if (/users\.email/.test(messages)) return new ApiError('EMAIL_TAKEN', 'email: já existe uma conta com este e-mail');
    if (/cadastro_fot\.fot\b/.test(messages))
      return new ApiError('DUPLICATE_FOT', 'fot: já existe um registro FOT com este número');
    if (/convites\.agenda_id, convites\.profissional_id/.test(messages))
      return new ApiError('CONFLICT', 'este profissional já foi convidado para este evento');
    if (/agenda\.regiao, agenda\.chave_externa/.test(messages))
      return new ApiError('CONFLICT', 'chave_externa: já existe um evento com esta chave nesta região');
    // Institution rules (docs/decisions.md#d25): unique indexes on expressions name the index.
    if (/regras_versao_uq/.test(messages))
      return new ApiError(
        'CONFLICT',
        'vigencia_inicio: já existe uma versão desta regra (mesmo escopo, instituição e tipo de evento) começando neste dia',
      );
    if (/feriados_dia_uq/.test(messages))
      return new ApiError('CONFLICT', 'data: este dia já está cadastrado para este escopo');
    if (/profissionais\.usuario_id/.test(messages))
      return new ApiError('CONFLICT', 'este usuário já tem um perfil profissional');
    // Catalog names: unique (regiao, <field>_key), so the message can name the field.
    const field = /UNIQUE constraint failed: \w+\.regiao, \w+\.(\w+)_key\b/.exec(messages)?.[1];
    return new ApiError('CONFLICT', `${field ? `${field}: ` : ''}já existe um registro com este nome nesta região`);
  }
  // A payout batch that could not link every fee it was built from (services/money/repasses.ts).
  if (/CHECK constraint failed: repasses_vinculos/.test(messages))
    return new ApiError(
      'CONFLICT',
      'lancamentos: um cachê do período mudou ou entrou em outro repasse enquanto este era montado; tente de novo',
    );
  if (/FOREIGN KEY constraint failed/i.test(messages)) {
    // D1's message never carries the SQL: it is on drizzle's DrizzleQueryError (`query`), and a
    // db.batch() failure has none. ON DELETE RESTRICT fails at once and SQLite reports it as
    // SQLITE_CONSTRAINT_TRIGGER; a missing parent on insert/update is SQLITE_CONSTRAINT_FOREIGNKEY.
    // (Matching "delete from" in the messages would also match the bound parameters.)
    const isDelete = /^\s*delete\b/i.test(query ?? '') || /SQLITE_CONSTRAINT_TRIGGER/.test(messages);
    return isDelete
      ? new ApiError('IN_USE', 'este registro ainda é usado por outros registros e não pode ser excluído')
      : new ApiError('NOT_FOUND', 'um registro referenciado não existe');
  }
  return undefined;
}
