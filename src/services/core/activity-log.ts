import {
  and,
  asc,
  Column,
  desc,
  eq,
  getTableColumns,
  getTableName,
  gte,
  inArray,
  is,
  isNull,
  lt,
  or,
  sql,
  type Placeholder,
  type SQL,
  type SQLWrapper,
} from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { AUTHOR_PARAMS, guardOf, type Author, type GuardShape } from '../../db/authored';
import type { Placeholders, Value, Values as BindValues } from '../../db/cached-batch';
import type { Db } from '../../db/client';
import { generatedId } from '../../db/generated-id';
import { isKept } from '../../db/kept-columns';
import {
  emailOutbox,
  logsAtividade,
  logsAtividadeCabecas,
  logsAtividadeSelos,
  users,
  type LogAtividadeRow,
} from '../../db/schema';
import type { Scope, SqlScope } from '../../db/scope';
import { scopedSelect } from '../../db/scoped-select';
import { writeThenRead } from '../../db/write-read';
import type { Config, LogChainKeys } from '../../env';
import { saoPauloDate } from '../../lib/dates';
import { hmacSha256Hex, sameText, sha256Hex } from '../../lib/tokens';
import type { Ctx, QueryCtx } from './context';
import { prepareEmail } from './mail';

/**
 * The activity log (docs/decisions.md#d15; docs/guide/activity-log.md): the ONE writer
 * every write route uses, the list, the sealing of the hash chain and its verification.
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
  db: Db,
  ctx: LogSource,
  table: SQLiteTable & { id: Column },
  where: SQL | undefined,
  e: Omit<LogEntry, 'from' | 'entidadeId'> & { entidadeId?: LogValue },
) {
  return logStatement(db, ctx, {
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
  const entry = logRowWrite(db, log, u.table, u.where, { ...e, dados: { ...changed(u.table, u.set), ...extra } });
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
  const entry = logRowWrite(db, log, d.table, d.where, { ...e, dados: deleted(d.table) });
  return [entry, db.delete(d.table).where(d.where)] as const;
}

// The list (GET /api/logs-atividade).

export interface LogFilters {
  entidade?: string;
  entidade_id?: string;
  ator_id?: string;
  acao?: string;
  /** Instants (ISO-8601 UTC): created_at >= de, created_at < ate. */
  de?: string;
  ate?: string;
  limit: number;
  antes?: LogCursor;
}

/** `seq` of the last entry of the previous page, or an instant (entries created before it). */
export type LogCursor = { seq: number } | { createdAt: string };

const entryColumns = {
  ...getTableColumns(logsAtividade),
  hashAnterior: logsAtividadeSelos.hashAnterior,
  hash: logsAtividadeSelos.hash,
};

/** Administrators: a SUPERADMIN sees every entry, a BUSINESS_OWNER its region's and the global ones. */
const visible = (scope: SqlScope, regiao: string | Placeholder) =>
  scope.role === 'SUPERADMIN' ? undefined : or(eq(logsAtividade.regiao, regiao), isNull(logsAtividade.regiao));

type LogFilterShape = Record<
  'entidade' | 'entidadeId' | 'atorId' | 'acao' | 'de' | 'ate' | 'antesSeq' | 'antesAt',
  boolean
>;

// Built once per caller shape and set of filters (db/scoped-select.ts); every value is a placeholder.
const logPage = scopedSelect({
  params: ['regiao', 'entidade', 'entidadeId', 'atorId', 'acao', 'de', 'ate', 'antesSeq', 'antesAt', 'limit'],
  build: (db, scope, p, x: LogFilterShape) => {
    const l = logsAtividade;
    return db
      .select(entryColumns)
      .from(l)
      .leftJoin(logsAtividadeSelos, eq(logsAtividadeSelos.seq, l.seq))
      .where(
        and(
          visible(scope, p.regiao),
          x.entidade ? eq(l.entidade, p.entidade) : undefined,
          x.entidadeId ? eq(l.entidadeId, p.entidadeId) : undefined,
          x.atorId ? eq(l.atorId, p.atorId) : undefined,
          x.acao ? eq(l.acao, p.acao) : undefined,
          x.de ? gte(l.createdAt, p.de) : undefined,
          x.ate ? lt(l.createdAt, p.ate) : undefined,
          x.antesSeq ? lt(l.seq, p.antesSeq) : undefined,
          x.antesAt ? lt(l.createdAt, p.antesAt) : undefined,
        ),
      )
      .orderBy(desc(l.seq))
      .limit(p.limit);
  },
});

/** One page newest first (seq descending), plus one row to know whether more remain. */
export function logPageSelect({ db, regiao }: QueryCtx, scope: Scope, f: LogFilters) {
  const antes = f.antes;
  const values = {
    regiao,
    entidade: f.entidade,
    entidadeId: f.entidade_id,
    atorId: f.ator_id,
    acao: f.acao,
    de: f.de,
    ate: f.ate,
    antesSeq: antes && 'seq' in antes ? antes.seq : undefined,
    antesAt: antes && 'createdAt' in antes ? antes.createdAt : undefined,
    limit: f.limit + 1,
  };
  const shape = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v !== undefined])) as LogFilterShape & {
    regiao: boolean;
    limit: boolean;
  };
  return logPage(db, scope, values, shape);
}

type EntryRow = LogAtividadeRow & { hashAnterior: string | null; hash: string | null };

const parseDados = (s: string): Record<string, unknown> => {
  try {
    const v: unknown = JSON.parse(s);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

/**
 * An entry's own fields in wire names and in the canonical order (seq first): the response shows
 * them, and the hash is computed over exactly them (canonicalEntry).
 */
const entryFields = (r: LogAtividadeRow) => ({
  seq: r.seq,
  id: r.id,
  created_at: r.createdAt,
  ator_id: r.atorId,
  ator_role: r.atorRole,
  acao: r.acao,
  entidade: r.entidade,
  entidade_id: r.entidadeId,
  regiao: r.regiao,
  request_id: r.requestId,
});

export const toLogResponse = (r: EntryRow) => ({
  ...entryFields(r),
  dados: parseDados(r.dados),
  hash_anterior: r.hashAnterior,
  hash: r.hash,
});

// The hash chain (docs/decisions.md#d15).

/** hash_anterior of the first entry. */
export const GENESIS = '0'.repeat(64);

/** The seal version of the first rule, without a key: entries sealed before LOG_CHAIN_SECRET existed. */
export const UNKEYED = 0;

/** JSON with object keys sorted at every level (arrays keep their order). */
function sortedJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(sortedJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${sortedJson(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

/**
 * The canonical JSON of an entry: an object with exactly these keys in this order, `dados` parsed
 * from its stored text and re-serialised with sorted keys, no whitespace:
 * {"seq","id","created_at","ator_id","ator_role","acao","entidade","entidade_id","regiao","request_id","dados"}.
 */
export function canonicalEntry(r: LogAtividadeRow): string {
  const head = JSON.stringify(entryFields(r));
  return `${head.slice(0, -1)},"dados":${sortedJson(parseDados(r.dados))}}`;
}

/** Version 0, the first rule (no key): lowercase hex SHA-256 of hash_anterior followed by the canonical JSON. */
export const entryHash = (hashAnterior: string, r: LogAtividadeRow) => sha256Hex(hashAnterior + canonicalEntry(r));

/**
 * The seal of version `versao`: 0 the first rule (entryHash); n >= 1 lowercase hex HMAC-SHA256 of
 * the same text (hash_anterior + canonical JSON) under key n of LOG_CHAIN_SECRET. Undefined when
 * the Worker has no key n.
 */
export function sealHash(
  keys: LogChainKeys | undefined,
  { versao, hashAnterior, entry: r }: { versao: number; hashAnterior: string; entry: LogAtividadeRow },
): Promise<string> | undefined {
  if (versao === UNKEYED) return entryHash(hashAnterior, r);
  const key = keys?.keys.get(versao);
  return key === undefined ? undefined : hmacSha256Hex(key, hashAnterior + canonicalEntry(r));
}

/** Entries read per round trip when sealing or verifying. */
const CHAIN_PAGE = 500;
/** A seal row binds 5 parameters, the guard 1: 19 rows stay under D1's 100 per statement. */
const SEALS_PER_STATEMENT = 19;

const lastSealedSeq = sql`(select coalesce(max(${logsAtividadeSelos.seq}), 0) from ${logsAtividadeSelos})`;

/** The chain's last seal: what a sealing run publishes and what an auditor compares later. */
export interface ChainHead {
  seq: number;
  hash: string;
  versao: number;
}

const headSelect = (db: Db) =>
  db
    .select({ seq: logsAtividadeSelos.seq, hash: logsAtividadeSelos.hash, versao: logsAtividadeSelos.versao })
    .from(logsAtividadeSelos)
    .orderBy(desc(logsAtividadeSelos.seq))
    .limit(1);

/**
 * Seals the entries not yet sealed, in seq order, at most `max` per run, with the current key of
 * LOG_CHAIN_SECRET (never without one: entries wait unsealed until it is set). Idempotent under
 * overlap: each insert carries a guard "the last seal is the entry right before my first one", so
 * a run that lost the race inserts nothing (and the primary key on seq would refuse a second seal
 * anyway). The seals are a pure function of the entries and the key, so two runs compute the same
 * chain. Seals already written are never rewritten. Answers how many entries this run sealed.
 */
export async function sealPending(
  { db, keys }: { db: Db; keys: LogChainKeys },
  now: Date,
  max = 5000,
): Promise<number> {
  const versao = keys.current;
  const key = keys.keys.get(versao)!;
  let sealed = 0;
  while (sealed < max) {
    const [last, entries] = await db.batch([
      headSelect(db),
      db
        .select()
        .from(logsAtividade)
        .where(sql`${logsAtividade.seq} > ${lastSealedSeq}`)
        .orderBy(asc(logsAtividade.seq))
        .limit(Math.min(CHAIN_PAGE, max - sealed)),
    ]);
    // Versions only grow along the chain (verifyChain refuses a step back): an older current key is a
    // configuration mistake (a rotation undone), never a reason to seal.
    if (last[0] && last[0].versao > versao)
      throw new Error(
        `LOG_CHAIN_SECRET: its current key is version ${versao}, the chain is sealed up to version ${last[0].versao}: list the newest key first`,
      );
    if (entries.length === 0) break;
    let prevSeq = last[0]?.seq ?? 0;
    let prev = last[0]?.hash ?? GENESIS;
    const rows: { seq: number; hashAnterior: string; hash: string }[] = [];
    for (const e of entries) {
      const hash = await hmacSha256Hex(key, prev + canonicalEntry(e));
      rows.push({ seq: e.seq, hashAnterior: prev, hash });
      prev = hash;
    }
    const at = now.toISOString();
    const inserts: BatchItem<'sqlite'>[] = [];
    for (let i = 0; i < rows.length; i += SEALS_PER_STATEMENT) {
      const chunk = rows.slice(i, i + SEALS_PER_STATEMENT);
      const values = chunk.map((r) => sql`(${r.seq}, ${r.hashAnterior}, ${r.hash}, ${at}, ${versao})`);
      inserts.push(
        db
          .insert(logsAtividadeSelos)
          .select(sql`select * from (values ${sql.join(values, sql`, `)}) where ${lastSealedSeq} = ${prevSeq}`),
      );
      prevSeq = chunk[chunk.length - 1]!.seq;
    }
    const results = await db.batch(inserts as [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]]);
    const done = results.reduce((n, r) => n + ((r as D1Result).meta?.changes ?? 0), 0);
    sealed += done;
    // Another run sealed (some of) these meanwhile: it carries on; this run stops.
    if (done < rows.length) break;
  }
  return sealed;
}

/**
 * Why the chain does not hold: `lacuna` a seq missing from 1 up to the last seal (an entry and its
 * seal removed); `entrada_ausente` a seal whose entry is gone; `selo_invalido` the entry changed, or
 * its seal does not follow the previous one; `versao_invalida` a seal of an older rule after a newer
 * one; `chave_desconhecida` a key version the Worker does not have; `cabeca_ausente` the expected
 * head is past the last seal (the end was removed); `cabeca_divergente` the seal at the expected
 * head's seq is another one (history up to it was rewritten).
 */
export const MOTIVOS = [
  'lacuna',
  'entrada_ausente',
  'selo_invalido',
  'versao_invalida',
  'chave_desconhecida',
  'cabeca_ausente',
  'cabeca_divergente',
] as const;
export type Motivo = (typeof MOTIVOS)[number];

export type Broken = { ok: false; quebra_em_seq: number; motivo: Motivo; lacuna?: { de: number; ate: number } };
export type Verification =
  | {
      ok: true;
      total: number;
      /** The last seal now; null when nothing is sealed. */
      cabeca: ChainHead | null;
      /** The last seq sealed by the unkeyed first rule (null: none); it never grows once the key exists. */
      sem_chave_ate_seq: number | null;
      /** Present when an expected head was given: the chain still reaches it. */
      cabeca_esperada_alcancada?: true;
    }
  | Broken;

/**
 * Recomputes the chain over every sealed entry in seq order, each seal by the rule of its own
 * version. It breaks at the first seq missing from 1 up to the last seal (`lacuna`, with the
 * missing range), the first seal whose entry is gone, whose version steps back, whose key is
 * unknown, whose hash_anterior is not the previous hash, or whose hash does not match the entry as
 * stored now. With `expected` (a head published by a sealing run: its log line or daily e-mail),
 * the chain must also reach that seq with that very seal. One round trip per 500 entries (the check
 * is linear by nature).
 */
export async function verifyChain(
  db: Db,
  keys: LogChainKeys | undefined,
  expected?: { seq: number; hash: string },
): Promise<Verification> {
  let prev = GENESIS;
  let prevSeq = 0;
  let versao = UNKEYED;
  let semChave: number | null = null;
  let total = 0;
  const broken = (seq: number, motivo: Motivo): Broken => ({ ok: false, quebra_em_seq: seq, motivo });
  for (;;) {
    const rows = await db
      .select({
        sealSeq: sql<number>`${logsAtividadeSelos.seq}`.as('seal_seq'),
        hashAnterior: logsAtividadeSelos.hashAnterior,
        hash: logsAtividadeSelos.hash,
        versao: logsAtividadeSelos.versao,
        entry: logsAtividade,
      })
      .from(logsAtividadeSelos)
      .leftJoin(logsAtividade, eq(logsAtividade.seq, logsAtividadeSelos.seq))
      .where(sql`${logsAtividadeSelos.seq} > ${prevSeq}`)
      .orderBy(asc(logsAtividadeSelos.seq))
      .limit(CHAIN_PAGE);
    for (const r of rows) {
      const seq = r.sealSeq;
      if (seq !== prevSeq + 1) return { ...broken(prevSeq + 1, 'lacuna'), lacuna: { de: prevSeq + 1, ate: seq - 1 } };
      if (!r.entry) return broken(seq, 'entrada_ausente');
      if (r.versao < versao) return broken(seq, 'versao_invalida');
      const hash = sealHash(keys, { versao: r.versao, hashAnterior: prev, entry: r.entry });
      if (!hash) return broken(seq, 'chave_desconhecida');
      if (r.hashAnterior !== prev || !sameText(await hash, r.hash)) return broken(seq, 'selo_invalido');
      if (expected?.seq === seq && !sameText(expected.hash, r.hash)) return broken(seq, 'cabeca_divergente');
      if (r.versao === UNKEYED) semChave = seq;
      versao = r.versao;
      prev = r.hash;
      prevSeq = seq;
      total++;
    }
    if (rows.length < CHAIN_PAGE) break;
  }
  if (expected && expected.seq > prevSeq) return broken(prevSeq + 1, 'cabeca_ausente');
  return {
    ok: true,
    total,
    cabeca: total ? { seq: prevSeq, hash: prev, versao } : null,
    sem_chave_ate_seq: semChave,
    ...(expected ? { cabeca_esperada_alcancada: true as const } : {}),
  };
}

// Publishing the head, somewhere D1 cannot rewrite.

/** The chain's head now (null when nothing is sealed). */
export async function chainHead(db: Db): Promise<ChainHead | null> {
  const [head] = await headSelect(db);
  return head ?? null;
}

/**
 * The head's daily e-mail to every active SUPERADMIN, exactly once per São Paulo day: the day's
 * row in logs_atividade_cabecas is the unique key (overlapping runs: one gets in), and each
 * e-mail is written only with the row of this very run. Answers the outbox ids written (to
 * enqueue), none when the day's head was already published or there is no SUPERADMIN.
 */
export async function publishDailyHead(
  { db, config }: Pick<Ctx, 'db'> & { config: Pick<Config, 'JWT_SECRET'> },
  head: ChainHead,
  now: Date,
): Promise<string[]> {
  const dia = saoPauloDate(now);
  const admins = await db
    .select({ email: users.email, nome: users.nome })
    .from(users)
    .where(
      and(
        eq(users.role, 'SUPERADMIN'),
        eq(users.ativo, true),
        sql`not exists (select 1 from ${logsAtividadeCabecas} where ${logsAtividadeCabecas.dia} = ${dia})`,
      ),
    );
  if (admins.length === 0) return [];
  const id = crypto.randomUUID();
  const at = now.toISOString();
  const mine = sql`exists (select 1 from ${logsAtividadeCabecas} where ${logsAtividadeCabecas.dia} = ${dia} and ${logsAtividadeCabecas.id} = ${id})`;
  const mails = await Promise.all(
    admins.map((a) =>
      prepareEmail(
        { db, config },
        { para: a.email, tipo: 'cabeca_log', dados: { nome: a.nome, dia, ...head }, when: mine },
        now,
      ),
    ),
  );
  const [written] = await writeThenRead(
    db,
    [
      db
        .insert(logsAtividadeCabecas)
        .values({ dia, id, ...head, createdAt: at })
        .onConflictDoNothing(),
      ...mails.map((m) => m.insert),
    ],
    [
      db
        .select({ id: emailOutbox.id })
        .from(emailOutbox)
        .where(
          inArray(
            emailOutbox.id,
            mails.map((m) => m.id),
          ),
        ),
    ],
  );
  return written.map((r) => r.id);
}
