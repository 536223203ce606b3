/**
 * The one way to write a log line: one JSON object per line, `{"level","message",...fields}`, through
 * console.log (info), console.warn or console.error, which Workers Logs and Logpush keep as they are.
 *
 * Never pass SQL parameters, tokens or secrets as fields, and describe an error with `errorText`: a
 * failed Drizzle query's message carries its SQL and parameters (a password hash, a token), so
 * `errorText` reports the driver's cause instead (SECURITY.md).
 */
export type LogLevel = 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;

export interface Logger {
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

/**
 * A logger whose lines all start their message with `prefix` (`mail: `) and carry `fields`
 * (`{ consumer: 'payments' }`); a line's own fields come after them.
 */
export function createLogger(opts: { prefix?: string; fields?: LogFields } = {}): Logger {
  const line =
    (level: LogLevel) =>
    (message: string, fields: LogFields = {}) => {
      const text = JSON.stringify({ level, message: `${opts.prefix ?? ''}${message}`, ...opts.fields, ...fields });
      // console is read at each call, so that a test's spy sees the line.
      if (level === 'error') console.error(text);
      else if (level === 'warn') console.warn(text);
      else console.log(text);
    };
  return { info: line('info'), warn: line('warn'), error: line('error') };
}

/** The plain logger: no prefix, no fields of its own. */
export const logger = createLogger();

/**
 * `Name: message` of an error, never the SQL or its parameters: a failed query's error (Drizzle's
 * carries `query` and `params`) is described by its cause, the driver's own message.
 */
export function errorText(err: unknown): string {
  let cause: unknown = err;
  while (cause instanceof Error && cause.cause && (cause as { query?: unknown }).query !== undefined)
    cause = cause.cause;
  return cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
}
