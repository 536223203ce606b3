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
