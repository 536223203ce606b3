import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from 'cloudflare:test';
import worker from '../../src/index';
import { makeAdmin, type TestUser } from './factories';
import { api } from './request';

export interface LogEntry {
  id: string;
  seq: number;
  created_at: string;
  ator_id: string | null;
  ator_role: string | null;
  acao: string;
  entidade: string;
  entidade_id: string | null;
  regiao: string | null;
  request_id: string | null;
  dados: Record<string, { antes?: unknown; depois?: unknown }>;
  hash_anterior: string | null;
  hash: string | null;
}

let reader: TestUser | undefined;

/** Entries through GET /api/logs-atividade as a SUPERADMIN (every region), newest first. */
export async function logEntries(query: Record<string, string> = {}): Promise<LogEntry[]> {
  reader ??= await makeAdmin();
  const qs = new URLSearchParams({ limit: '200', ...query });
  const res = await api('GET', `/api/logs-atividade?${qs}`, { token: reader.token });
  if (res.status !== 200) throw new Error(`log list: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as LogEntry[];
}

/** The entries of one entity row, newest first. */
export const entriesOf = (entidadeId: string, acao?: string) =>
  logEntries({ entidade_id: entidadeId, ...(acao ? { acao } : {}) });

/** The highest seq so far (0 when empty): "entries after this" isolates one request's entries. */
export async function lastSeq() {
  const [top] = await logEntries({ limit: '1' });
  return top?.seq ?? 0;
}

export async function entriesSince(seq: number) {
  return (await logEntries()).filter((e) => e.seq > seq);
}

/** One run of the Worker's scheduled() (every job of the dispatcher) at `when`, awaited to the end. */
export async function runCron(when: Date = new Date()) {
  const controller = createScheduledController({ scheduledTime: when, cron: '*/15 * * * *' });
  const ctx = createExecutionContext();
  await worker.scheduled(controller, env, ctx);
  await waitOnExecutionContext(ctx);
}

/** The append-only triggers of the log and its seals (drizzle/0005_activity_log_append_only.sql). */
const APPEND_ONLY = ['logs_atividade', 'logs_atividade_selos'].flatMap((table) =>
  (['update', 'delete'] as const).map(
    (verb) =>
      `create trigger ${table}_no_${verb} before ${verb} on ${table} begin select raise(abort, '${table} is append-only: ${verb.toUpperCase()} refused'); end`,
  ),
);

/**
 * Runs SQL as someone with D1 write access would, behind the API: the append-only triggers are
 * lifted for these statements only (one atomic batch), then put back as they were.
 */
export async function behindTheApi(...statements: (string | D1PreparedStatement)[]) {
  const drop = APPEND_ONLY.map((ddl) => env.DB.prepare(`drop trigger ${ddl.split(' ')[2]}`));
  await env.DB.batch([
    ...drop,
    ...statements.map((s) => (typeof s === 'string' ? env.DB.prepare(s) : s)),
    ...APPEND_ONLY.map((ddl) => env.DB.prepare(ddl)),
  ]);
}

/** One raw row of `logs_atividade` (snake_case, as D1 answers). */
export type RawEntry = Record<string, unknown> & { seq: number };

/** The entries from `seq` on, as stored: what a test puts back after tampering (restoreFrom). */
export async function entriesFrom(seq: number): Promise<RawEntry[]> {
  const { results } = await env.DB.prepare('select * from logs_atividade where seq >= ? order by seq').bind(seq).all();
  return results as RawEntry[];
}

/**
 * Undoes a test's tampering: the entries saved by entriesFrom(seq) are stored again as they were,
 * every seal from `seq` on is removed, and the sealing job seals them again (with the key, the
 * same seals as before). The chain verifies again for the next test of the file.
 */
export async function restoreFrom(seq: number, saved: RawEntry[]) {
  const put = saved.map((e) => {
    const cols = Object.keys(e);
    return env.DB.prepare(
      `insert or replace into logs_atividade (${cols.join(', ')}) values (${cols.map(() => '?').join(', ')})`,
    ).bind(...cols.map((c) => e[c]));
  });
  await behindTheApi(env.DB.prepare('delete from logs_atividade_selos where seq >= ?').bind(seq), ...put);
  await runCron();
}
