import {
  and,
  Column,
  getTableColumns,
  getTableName,
  is,
  sql,
  type Placeholder,
  type SQL,
  type SQLWrapper,
} from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { AUTHOR_PARAMS, guardOf, type Author, type GuardShape } from '../../db/authored';
import type { Placeholders, Value, Values as BindValues } from '../../db/cached-batch';
import type { Db } from '../../db/client';
import { generatedId } from '../../db/generated-id';
import { isKept } from '../../db/kept-columns';
import { logsAtividade } from '../../db/schema';

/**
 * The activity log (docs/decisions.md#d15; docs/guide/activity-log.md): the ONE writer
 * every write route uses. The list is in activity-log-list.ts, the sealing of the hash chain, its
 * verification and the head's publication in activity-log-chain.ts.
 *
 * The writer never runs anything: it returns a statement that the caller puts in its write's own
 * D1 batch, so the entry and the change commit or fail together (no extra round trip). The entry is
 * an `INSERT ... SELECT`:
 *   - for a create, after the insert, unconditional (the insert either happens or fails the batch);
 *   - for an update or delete, BEFORE it, `from` the target table `where` the write's own condition:
 *     it captures `antes` from the row in SQL (no read first) and is written only when the write
 *     will touch the row (a 404 or a refused guard leaves no entry);
 *   - `when` adds a condition evaluated in the batch, like prepareNotifications' `when`.
 */

/** Who acts, for the entry: services get this small object, never Hono's context. */
export interface LogCtx {
  atorId: string | null;
  atorRole: string | null;
  requestId: string | null;
}

/** The placeholders of a cached batch's log entries (db/cached-batch.ts): who acts, in which request, when. */
export const LOG_PARAMS = ['log_ator_id', 'log_ator_role', 'log_request_id', 'log_at'] as const;
type LogParam = (typeof LOG_PARAMS)[number];

/**
 * Who acts and when, for the entries of a cached batch: placeholders (or, in the batch's uncached
 * path, the values themselves), bound by `writeValues`/`logValues`. Each entry's id is made by SQL,
 * so one batch may hold several entries, and the time is the request's, never the builder's.
 */
export interface BatchLog {
  atorId: Placeholder;
  atorRole: Placeholder;
  requestId: Placeholder;
  at: Placeholder;
}
/** Who acts: a request's values, or a cached batch's placeholders. */
export type LogSource = LogCtx | BatchLog;

/** The log source of a cached batch's builder, from its placeholders. */
export const logOf = (p: Placeholders<LogParam>): BatchLog => ({
  atorId: p.log_ator_id,
  atorRole: p.log_ator_role,
  requestId: p.log_request_id,
  at: p.log_at,
});

/** The values of LOG_PARAMS for `ctx`, now. */
export const logValues = (ctx: LogCtx): BindValues<LogParam> => ({
  log_ator_id: ctx.atorId,
  log_ator_role: ctx.atorRole,
  log_request_id: ctx.requestId,
  log_at: new Date().toISOString(),
});

/** The placeholders of a folded write's cached batch besides its own: the author check's and the log entries'. */
export const WRITE_PARAMS = [...AUTHOR_PARAMS, ...LOG_PARAMS] as const;
export type WriteParam = (typeof WRITE_PARAMS)[number];

/** What a folded write's cached builder takes from WRITE_PARAMS: the author check of its shape, and the log source. */
export const writerOf = (db: Db, shape: GuardShape, p: Placeholders<WriteParam>) => ({
  guard: guardOf(db, shape, p),
  log: logOf(p),
});

/** The values of a folded write's cached batch: its own, then its author check's and its log entries'. */
export const writeValues = <V extends Record<string, Value>>(author: Author, values: V) => ({
  ...values,
  ...author.cached.values,
  ...logValues(author.log),
});

/** A value of `dados`: a JS value (bound), or a column / SQL expression evaluated in the entry's statement. */
export type LogValue = unknown;
export interface Change {
  antes?: LogValue;
  depois?: LogValue;
}

export interface LogEntry {
  /** `<resource>.<verb>`, e.g. `cursos.create`, `auth.login_failed`. */
  acao: string;
  /** The resource: its table name (`cursos`, `users`, `convites`). */
  entidade: string;
  entidadeId?: LogValue;
  /** The region of a regional resource; null (the default) for global ones. */
  regiao?: LogValue;
  /** `{campo: {antes, depois}}`. Secrets are dropped and bank/PIX fields masked here, whatever the caller passes. */
  dados?: Record<string, Change>;
  /** `from <table> ...`: the entry is written once if this yields one row (callers select by primary key), never if none. */
  from?: SQL;
  /** Written only if this holds (evaluated in the batch, where the statement stands). */
  when?: SQL;
  /** The actor, when the context does not know it (logout names the token's owner): a value or SQL. */
  atorId?: LogValue;
  atorRole?: LogValue;
}

/** Never logged, in any form: passwords, password hashes, tokens (refresh, push, reset) and secrets. */
const SECRET_FIELD = /senha|password|hash|token|secret/i;
/** Bank and PIX fields: only their last 4 characters are logged. */
export const MASKED_FIELDS = new Set(['banco', 'agencia', 'conta_pix', 'cpf_cnpj_titular']);
/** Bookkeeping columns (timestamps every write sets, derived lookup keys): not a change worth an audit line. */
const notLogged = (field: string) => field === 'created_at' || field === 'updated_at' || field.endsWith('_key');

const isSqlValue = (v: unknown): v is SQLWrapper =>
  typeof v === 'object' && v !== null && typeof (v as SQLWrapper).getSQL === 'function';

/** `***` + the last 4 characters; values of 4 characters or fewer become `***` alone. */
export const maskValue = (v: unknown) => {
  if (v === null || v === undefined) return null;
  const s = String(v);
  return s.length > 4 ? `***${s.slice(-4)}` : '***';
};

/** A stored boolean (0/1, or null) as JSON true/false/null. */
const boolJson = (expr: SQL) =>
  sql`json(case when ${expr} is null then 'null' when ${expr} then 'true' else 'false' end)`;

/** A value as json_object() should see it: booleans as JSON true/false (columns store 0/1), objects as JSON. */
function valueSql(v: LogValue, masked: boolean): SQL {
  if (isSqlValue(v)) {
    const expr = sql`${v}`;
    if (masked)
      return sql`(case when ${expr} is null then null when length(${expr}) > 4 then '***' || substr(${expr}, -4) else '***' end)`;
    if (is(v, Column) && v.columnType === 'SQLiteBoolean') return boolJson(expr);
    return expr;
  }
  if (masked) return sql`${maskValue(v)}`;
  if (v === null || v === undefined) return sql`null`;
  if (typeof v === 'boolean' || typeof v === 'object') return sql`json(${JSON.stringify(v)})`;
  return sql`${v}`;
}

const FIELD_RE = /^[a-z][a-z0-9_]*$/;

function dadosSql(dados: Record<string, Change> = {}): SQL {
  const parts: SQL[] = [];
  for (const [field, change] of Object.entries(dados)) {
    if (SECRET_FIELD.test(field) || notLogged(field)) continue;
    // Field names come from code, never from a request: inlined as SQL literals (D1 binds at most 100 parameters).
    if (!FIELD_RE.test(field)) throw new Error(`activity log: bad field name ${field}`);
    const masked = MASKED_FIELDS.has(field);
    const inner: SQL[] = [];
    if ('antes' in change) inner.push(sql.raw(`'antes'`), valueSql(change.antes, masked));
    if ('depois' in change) inner.push(sql.raw(`'depois'`), valueSql(change.depois, masked));
    parts.push(sql.raw(`'${field}'`), sql`json_object(${sql.join(inner, sql`, `)})`);
  }
  return parts.length ? sql`json_object(${sql.join(parts, sql`, `)})` : sql`'{}'`;
}

/** The entry's statement, to put in the write's batch (see the file comment for where). */
export function logStatement(db: Db, ctx: LogSource, e: LogEntry) {
  return entryInsert(db, ctx, e, sql`${crypto.randomUUID()}`);
}

/**
 * One entry for EVERY row `from` yields (a set-based write such as an import's apply), each with its
 * own id made in SQL: the entries of thousands of rows are one statement of the write's batch.
 */
export function logEachRow(db: Db, ctx: LogSource, e: LogEntry & { from: SQL }) {
  return entryInsert(db, ctx, e, generatedId);
}

function entryInsert(db: Db, ctx: LogSource, e: LogEntry, id: SQL) {
  // A cached batch's source: each value wrapped, so that a value (the uncached path) binds like its placeholder, null too.
  if ('at' in ctx)
    return entryOf(db, e, {
      id: generatedId,
      now: sql`${ctx.at}`,
      atorId: sql`${ctx.atorId}`,
      atorRole: sql`${ctx.atorRole}`,
      requestId: sql`${ctx.requestId}`,
    });
  return entryOf(db, e, { id, now: sql`${new Date().toISOString()}`, ...ctx });
}

/** The per-entry values of a log statement: bound values, or placeholders in a cached statement. */
interface EntryValues {
  id: SQL;
  now: SQL;
  atorId: LogValue;
  atorRole: LogValue;
  requestId: LogValue;
}

function entryOf(db: Db, e: LogEntry, v: EntryValues) {
  // Columns in table order: seq (null: AUTOINCREMENT assigns it), id, created_at, ator_id, ator_role,
  // acao, entidade, entidade_id, regiao, request_id, dados.
  const atorId = valueSql(e.atorId === undefined ? v.atorId : e.atorId, false);
  const atorRole = valueSql(e.atorRole === undefined ? v.atorRole : e.atorRole, false);
  const select = sql`select null, ${v.id}, ${v.now}, ${atorId}, ${atorRole}, ${e.acao}, ${e.entidade}, ${valueSql(e.entidadeId ?? null, false)}, ${valueSql(e.regiao ?? null, false)}, ${valueSql(v.requestId, false)}, ${dadosSql(e.dados)}`;
  return db.insert(logsAtividade).select(sql`${select} ${e.from ?? sql``} where ${e.when ?? sql`1`}`);
}

type Values = Record<string, unknown>;

/** `dados` of a create: every column given, as stored (column names, money in cents); id and regiao are the entry's own fields. */
export function created(table: SQLiteTable, values: Values): Record<string, Change> {
  const cols = getTableColumns(table);
  const out: Record<string, Change> = {};
  for (const [key, v] of Object.entries(values)) {
    const col = cols[key];
    if (col && v !== undefined && key !== 'id' && key !== 'regiao') out[col.name] = { depois: v };
  }
  return out;
}

/**
 * The entry of the row a cached insert creates (db/cached-batch.ts): `<table>.create` for the row's
 * `id` and `regiao`, `dados` its `columns` (`created()` of the values: each bound through its
 * column, then booleans as JSON true/false and JSON columns as JSON, whether `row` holds the
 * placeholders or the values), written exactly when that row exists: its id is new, so only that
 * insert can have written it (a primary-key lookup, cheaper than the author check again).
 */
export function createdEntry<T extends SQLiteTable & { id: SQLiteColumn }>(
  { db, log }: { db: Db; log: LogSource },
  table: T,
  {
    columns,
    row,
  }: {
    columns: readonly (keyof T['$inferInsert'] & string)[];
    row: Record<'id' | 'regiao', Placeholder> & Partial<Record<keyof T['$inferInsert'], Placeholder>>;
  },
) {
  const cols = getTableColumns(table);
  const dados: Record<string, Change> = {};
  for (const key of columns) {
    const col = cols[key]!;
    if (key === 'id' || key === 'regiao') continue;
    const v = sql`${sql.param(row[key], col)}`;
    dados[col.name] = {
      depois:
        col.columnType === 'SQLiteBoolean' ? boolJson(v) : col.columnType === 'SQLiteTextJson' ? sql`json(${v})` : v,
    };
  }
  const entidade = getTableName(table);
  return logStatement(db, log, {
    acao: `${entidade}.create`,
    entidade,
    entidadeId: row.id,
    regiao: row.regiao,
    dados,
    when: sql`exists (select 1 from ${table} where ${table.id} = ${row.id})`,
  });
}

/** `dados` of an update: each column set, `antes` read from the row by the entry's own statement. */
export function changed(table: SQLiteTable, set: Values): Record<string, Change> {
  const cols = getTableColumns(table);
  const out: Record<string, Change> = {};
  for (const [key, v] of Object.entries(set)) {
    const col = cols[key];
    if (col && v !== undefined) out[col.name] = { antes: col, depois: v };
  }
  return out;
}

/** `dados` of a delete: the row as it was (every column but the id and those triggers keep, db/kept-columns.ts). */
export function deleted(table: SQLiteTable): Record<string, Change> {
  const out: Record<string, Change> = {};
  for (const [key, col] of Object.entries(getTableColumns(table)))
    if (key !== 'id' && !isKept(col)) out[col.name] = { antes: col };
  return out;
}

/** An update or delete of one row of `table` matching `where`: the entry goes BEFORE the write in its batch. */
export function logRowWrite(
  { db, log }: { db: Db; log: LogSource },
  { table, where }: { table: SQLiteTable & { id: Column }; where: SQL | undefined },
  e: Omit<LogEntry, 'from' | 'entidadeId'> & { entidadeId?: LogValue },
) {
  return logStatement(db, log, {
    entidadeId: table.id,
    ...e,
    from: sql`from ${table}`,
    when: and(where, e.when) ?? sql`1`,
  });
}

/** What a logged update or delete names besides its rows: the entry's action, resource and region. */
type RowWriteEntry = Omit<LogEntry, 'from' | 'entidadeId' | 'dados'> & { entidadeId?: LogValue };
/** An update's entry may add to its changed columns what the write changes elsewhere (a survey's question count). */
type UpdateEntry = RowWriteEntry & { extra?: Record<string, Change> };

/**
 * The update of the rows of `table` matching `where`, its log entry first (docs/guide/activity-log.md):
 * the entry's `dados` are the changed columns, before and after; both statements are guarded by `where`,
 * so a row the update does not find logs nothing. Spread the pair into the write's batch.
 */
export function loggedUpdate<T extends SQLiteTable & { id: Column }>(
  { db, log }: { db: Db; log: LogSource },
  u: { table: T; where: SQL | undefined; set: Values },
  { extra, ...e }: UpdateEntry,
) {
  const entry = logRowWrite(
    { db, log },
    { table: u.table, where: u.where },
    { ...e, dados: { ...changed(u.table, u.set), ...extra } },
  );
  return [
    entry,
    db
      .update(u.table)
      .set(u.set as never)
      .where(u.where),
  ] as const;
}

/** The delete of the rows of `table` matching `where`, its log entry (the deleted columns) first. */
export function loggedDelete<T extends SQLiteTable & { id: Column }>(
  { db, log }: { db: Db; log: LogSource },
  d: { table: T; where: SQL | undefined },
  e: RowWriteEntry,
) {
  const entry = logRowWrite({ db, log }, { table: d.table, where: d.where }, { ...e, dados: deleted(d.table) });
  return [entry, db.delete(d.table).where(d.where)] as const;
}
