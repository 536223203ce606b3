/**
 * npx tsx bench/cpu-answer.ts [requests per run]
 *
 * CPU per request of the professional's answer, PATCH /api/convites/{id} accepting and declining,
 * through the app's own fetch (createApp) in Node over a canned D1 that answers every statement at
 * once: what the request costs the Worker, without the database. The acceptance and the decline are
 * cached batches (src/db/cached-batch.ts); each is measured cached and through its uncached path
 * (the same builders, drizzle building the SQL on every request), in runs that alternate in this
 * one process, so that a busy machine weighs on both alike. Prints the medians of 12 runs of each
 * (default 500 requests per run) after a warm-up, and their ratio.
 */
import { getTableColumns } from 'drizzle-orm';
import { createApp } from '../src/app';
import { convites, notifications } from '../src/db/schema';
import { signAccessToken } from '../src/lib/tokens';
import { acceptBatch, declineBatch } from '../src/services/teams/convites';

const N = Number(process.argv[2] ?? 500);
const SECRET = 'x'.repeat(40);
const now = new Date().toISOString();
const user = { id: crypto.randomUUID(), role: 'profissional' as const, empresaId: null };
const conviteId = crypto.randomUUID();

const binds = [acceptBatch, declineBatch].map((b) => [b as { bind: unknown }, b.bind, b.uncached] as const);
/** Every answer through its uncached path, or back to the cache. */
const uncached = (on: boolean) => {
  for (const [b, bind, built] of binds) b.bind = on ? built : bind;
};

// ------------------------------------------------------------------ the canned D1

let status = 'aceito';
/** The invitation as the answer reads it back (selectConvites: the columns but its kept date, then the joins'). */
const conviteRow = () => {
  const row: Record<string, unknown> = {};
  for (const col of Object.values(getTableColumns(convites))) {
    if (col.name === 'data_evento') continue;
    row[col.name] = { status, origem: 'convite', ciente_versao: null, id: conviteId }[col.name] ?? now;
  }
  return Object.assign(row, {
    profissional_nome: 'Ana',
    funcao_nome: 'Fotógrafo',
    regiao: 'MG',
    data_evento: '2027-01-01',
    horario: '10:00',
    horario_fim: '12:00',
    local_evento: 'Salão',
    tipo_evento_nome: 'Formatura',
  });
};
const notificationRow = () => {
  const row: Record<string, unknown> = {};
  for (const col of Object.values(getTableColumns(notifications)))
    row[col.name] = { lida: 0, dados: '{"convite_id":"x"}', read_at: null }[col.name] ?? 'v';
  return row;
};
let statements = 0;
function answer(sql: string) {
  statements++;
  const meta = { changes: 1 };
  if (/^update "convites"/.test(sql)) return { results: [], meta, success: true };
  if (/^insert into "notifications"/.test(sql)) return { results: [notificationRow()], meta, success: true };
  if (/^select/.test(sql) && /"convites"\."origem"/.test(sql)) return { results: [conviteRow()], meta, success: true };
  return { results: [], meta, success: true };
}
const prepared = (sql: string) => {
  const s = { sql, bind: () => s, all: async () => answer(sql), run: async () => answer(sql) };
  return s;
};
const DB = { prepare: prepared, batch: async (list: { sql: string }[]) => list.map((s) => answer(s.sql)) };

// ------------------------------------------------------------------ the requests

const env = { DB, JWT_SECRET: SECRET, REGIOES: 'SP,MG' } as never;
const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as never;
const app = createApp();
const { token } = await signAccessToken(user, SECRET, 3600, crypto.randomUUID());

async function one(body: string) {
  const res = await app.fetch(
    new Request(`http://bench/api/convites/${conviteId}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-regiao': 'MG' },
      body,
    }),
    env,
    ctx,
  );
  if (res.status !== 200) throw new Error(`${res.status} ${await res.text()}`);
  await res.arrayBuffer();
}

async function measure(name: string, answered: string) {
  status = answered;
  const body = JSON.stringify({ status: answered });
  for (const off of [true, false]) {
    uncached(off);
    for (let i = 0; i < 1000; i++) await one(body);
  }
  const runs = { cached: [] as number[], uncached: [] as number[] };
  for (let r = 0; r < 12; r++)
    for (const kind of r % 2 ? (['cached', 'uncached'] as const) : (['uncached', 'cached'] as const)) {
      uncached(kind === 'uncached');
      const before = process.cpuUsage();
      for (let i = 0; i < N; i++) await one(body);
      const d = process.cpuUsage(before);
      runs[kind].push((d.user + d.system) / N);
    }
  uncached(false);
  statements = 0;
  await one(body);
  const median = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1]!;
  const [c, u] = [median(runs.cached), median(runs.uncached)];
  console.log(
    `${name} (${statements} statements): ${c.toFixed(0)} µs CPU per request cached, ${u.toFixed(0)} uncached (${(u / c).toFixed(1)}x); medians of 12 runs of ${N}`,
  );
}

await measure('accept', 'aceito');
await measure('decline', 'recusado');
