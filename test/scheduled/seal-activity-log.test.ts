// The sealing job of the activity log (docs/decisions.md#d15; issue 32, item 8): seals keyed with
// LOG_CHAIN_SECRET after the unkeyed ones of before, the head published once per run (a log line)
// and once per São Paulo day (an e-mail to the SUPERADMINs), key rotation and the configuration.
// The tests of this file run in order on one database: the first starts from an empty log, the last
// rotates the key.
import { env } from 'cloudflare:test';
import { and, count, eq, sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { emailOutbox, logsAtividade, logsAtividadeSelos, users } from '../../src/db/schema';
import { ConfigError, getConfig } from '../../src/env';
import { runScheduled } from '../../src/scheduled';
import { sealActivityLog } from '../../src/scheduled/seal-activity-log';
import { canonicalEntry, GENESIS } from '../../src/services/core/activity-log-chain';
import { behindTheApi, entriesFrom } from '../helpers/activity-log';
import { db, makeAdmin, makeUser, uniq } from '../helpers/factories';
import { api } from '../helpers/request';
import { TEST_VARS } from '../setup/vars';

const V = '/api/logs-atividade/verificacao';

/** One run of the sealing job alone, with an injected clock and bindings (as test/scheduled/lembretes.test.ts). */
const run = (now: Date, bindings: Partial<typeof env> = {}) =>
  runScheduled({ ...env, ...bindings }, now, { 'seal-activity-log': sealActivityLog });

async function newCurso(token: string) {
  const res = await api('POST', '/api/cursos', { token, body: { nome: uniq('Curso') } });
  expect(res.status).toBe(201);
}

async function verify(token: string, head?: { seq: number; hash: string }, bindings: Partial<typeof env> = {}) {
  const res = await api('GET', `${V}${head ? `?seq=${head.seq}&hash=${head.hash}` : ''}`, { token, bindings });
  expect(res.status).toBe(200);
  return res.body;
}

const sha256Hex = async (text: string) =>
  [...new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)))]
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('');

const allSeals = () => db.select().from(logsAtividadeSelos).orderBy(logsAtividadeSelos.seq);

/** The head lines the job printed while `fn` ran. */
async function headLines(fn: () => Promise<unknown>) {
  const spy = vi.spyOn(console, 'log').mockImplementation(() => {});
  try {
    await fn();
    return spy.mock.calls
      .map((c) => String(c[0]))
      .filter((l) => l.includes('"activity log head"'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  } finally {
    spy.mockRestore();
  }
}

/** The head e-mails of a São Paulo day. */
const headMails = (dia: string) =>
  db
    .select({ para: emailOutbox.para, dados: emailOutbox.dados })
    .from(emailOutbox)
    .where(and(eq(emailOutbox.tipo, 'cabeca_log'), sql`json_extract(${emailOutbox.dados}, '$.dia') = ${dia}`));

const activeSuperadmins = async () =>
  (
    await db
      .select({ email: users.email })
      .from(users)
      .where(and(eq(users.role, 'SUPERADMIN'), eq(users.ativo, true)))
  )
    .map((u) => u.email)
    .sort();

describe('seal-activity-log', () => {
  it('entries sealed before the key (unkeyed, version 0) still verify; later ones are keyed; none is sealed again', async () => {
    const admin = await makeAdmin();
    expect(await db.select({ n: count() }).from(logsAtividadeSelos)).toEqual([{ n: 0 }]);
    for (let i = 0; i < 3; i++) await newCurso(admin.token);
    // The seals an older deployment wrote, by the first rule: SHA-256(hash_anterior + canonical JSON),
    // inserted without `versao` (as the migration's default leaves them).
    let prev = GENESIS;
    const legacy: D1PreparedStatement[] = [];
    for (const e of await db.select().from(logsAtividade).orderBy(logsAtividade.seq)) {
      const hash = await sha256Hex(prev + canonicalEntry(e));
      legacy.push(
        env.DB.prepare(
          'insert into logs_atividade_selos (seq, hash_anterior, hash, selado_em) values (?, ?, ?, ?)',
        ).bind(e.seq, prev, hash, '2026-11-01T00:00:00.000Z'),
      );
      prev = hash;
    }
    await env.DB.batch(legacy);
    const before = await allSeals();
    expect(before.map((s) => s.versao)).toEqual([0, 0, 0]);

    for (let i = 0; i < 2; i++) await newCurso(admin.token);
    await run(new Date('2031-01-10T12:00:00Z'));
    const after = await allSeals();
    expect(after.slice(0, 3)).toEqual(before);
    expect(after.map((s) => s.versao)).toEqual([0, 0, 0, 1, 1]);
    expect(after[3]!.hashAnterior).toBe(before[2]!.hash);
    expect(await verify(admin.token)).toEqual({
      ok: true,
      total: 5,
      cabeca: { seq: 5, hash: after[4]!.hash, versao: 1 },
      sem_chave_ate_seq: 3,
    });

    // The unkeyed part is held by the first keyed seal: an unkeyed entry edited and its unkeyed seals
    // recomputed (anyone can) no longer lead to the hash_anterior the keyed seal was made over.
    const saved = await entriesFrom(2);
    const e2 = (await db.select().from(logsAtividade).where(eq(logsAtividade.seq, 2)))[0]!;
    const forged = { ...e2, dados: '{"nome":{"depois":"forjado"}}' };
    const h2 = await sha256Hex(before[0]!.hash + canonicalEntry(forged));
    const e3 = (await db.select().from(logsAtividade).where(eq(logsAtividade.seq, 3)))[0]!;
    const h3 = await sha256Hex(h2 + canonicalEntry(e3));
    await behindTheApi(
      env.DB.prepare('update logs_atividade set dados = ? where seq = 2').bind(forged.dados),
      env.DB.prepare('update logs_atividade_selos set hash = ? where seq = 2').bind(h2),
      env.DB.prepare('update logs_atividade_selos set hash_anterior = ?, hash = ? where seq = 3').bind(h2, h3),
    );
    expect(await verify(admin.token)).toEqual({ ok: false, quebra_em_seq: 4, motivo: 'selo_invalido' });
    // Put back: the entries as they were, the unkeyed seals by hand (the job never writes one), the rest by the job.
    await behindTheApi(
      env.DB.prepare('delete from logs_atividade_selos where seq >= 2'),
      ...saved.map((e) => env.DB.prepare('update logs_atividade set dados = ? where seq = ?').bind(e.dados, e.seq)),
      ...before
        .slice(1)
        .map((s) =>
          env.DB.prepare('insert into logs_atividade_selos values (?, ?, ?, ?, ?)').bind(
            s.seq,
            s.hashAnterior,
            s.hash,
            s.seladoEm,
            s.versao,
          ),
        ),
    );
    await run(new Date('2031-01-10T12:15:00Z'));
    expect(await allSeals()).toEqual(after.map((s) => expect.objectContaining({ ...s, seladoEm: expect.any(String) })));
    expect(await verify(admin.token)).toMatchObject({ ok: true, total: 5, sem_chave_ate_seq: 3 });
  });

  it('logs the head after every run: one JSON line with the last seq and its seal', async () => {
    const admin = await makeAdmin();
    const lines: Record<string, unknown>[] = [];
    for (const [i, at] of ['2031-02-10T12:00:00Z', '2031-02-10T12:15:00Z', '2031-02-10T12:30:00Z'].entries()) {
      for (let k = 0; k <= i; k++) await newCurso(admin.token);
      const [line, ...more] = await headLines(() => run(new Date(at)));
      expect(more).toEqual([]);
      const [last] = (await allSeals()).slice(-1);
      expect(line).toEqual({
        level: 'info',
        message: 'activity log head',
        job: 'seal-activity-log',
        at: new Date(at).toISOString(),
        sealed: i + 1,
        seq: last!.seq,
        hash: last!.hash,
        versao: 1,
      });
      lines.push(line!);
    }
    // What an auditor does with a line kept in Workers Logs: the chain still reaches it.
    const first = lines[0] as { seq: number; hash: string };
    expect(await verify(admin.token, first)).toMatchObject({ ok: true, cabeca_esperada_alcancada: true });
  });

  it('e-mails the head to every active SUPERADMIN once per São Paulo day, however many runs', async () => {
    const admin = await makeAdmin();
    await makeAdmin({ ativo: false });
    await makeUser({ role: 'BUSINESS_OWNER' });
    const dia = '2031-03-10';
    await newCurso(admin.token);
    // 07:00, 12:00 and 23:59 in São Paulo (UTC-3): one day, three runs, the head moving in between.
    const [line] = await headLines(() => run(new Date('2031-03-10T10:00:00Z')));
    for (const at of ['2031-03-10T15:00:00Z', '2031-03-11T02:59:00Z']) {
      await newCurso(admin.token);
      await run(new Date(at));
    }
    const mails = await headMails(dia);
    expect(mails.map((m) => m.para).sort()).toEqual(await activeSuperadmins());
    // The head of the day's first run, which the day's log line also shows.
    for (const m of mails) expect(m.dados).toMatchObject({ dia, seq: line!.seq, hash: line!.hash, versao: 1 });
    expect(await verify(admin.token, line as { seq: number; hash: string })).toMatchObject({
      ok: true,
      cabeca_esperada_alcancada: true,
    });
    // The next São Paulo day (00:00 there) gets its own.
    await run(new Date('2031-03-11T03:00:00Z'));
    expect((await headMails('2031-03-11')).length).toBe(mails.length);
    expect((await headMails(dia)).length).toBe(mails.length);
  });

  it('five overlapping runs on a new day write one head and one e-mail per SUPERADMIN', async () => {
    const admin = await makeAdmin();
    for (let i = 0; i < 3; i++) await newCurso(admin.token);
    const now = new Date('2031-04-10T12:00:00Z');
    await Promise.all(Array.from({ length: 5 }, () => run(now)));
    const mails = await headMails('2031-04-10');
    expect(mails.map((m) => m.para).sort()).toEqual(await activeSuperadmins());
    const heads = await env.DB.prepare("select * from logs_atividade_cabecas where dia = '2031-04-10'").all();
    expect(heads.results).toHaveLength(1);
    const [seals] = await db.select({ n: count() }).from(logsAtividadeSelos);
    const [entries] = await db.select({ n: count() }).from(logsAtividade);
    expect(seals!.n).toBe(entries!.n);
  });

  it('without LOG_CHAIN_SECRET the run fails with a clear line and seals nothing; a bad one is a configuration error', async () => {
    const admin = await makeAdmin();
    await newCurso(admin.token);
    const before = await allSeals();
    const err = vi.spyOn(console, 'error').mockImplementation(() => {});
    await expect(run(new Date(), { LOG_CHAIN_SECRET: undefined })).rejects.toThrow(/seal-activity-log/);
    expect(String(err.mock.calls[0]?.[0])).toContain('LOG_CHAIN_SECRET is not set');
    err.mockRestore();
    expect(await allSeals()).toEqual(before);
    const short = 'k'.repeat(31);
    const key = (c: string) => c.repeat(32);
    for (const [value, message] of [
      [short, 'at least 32'],
      [`1:${short}`, 'at least 32'],
      [`1:${key('a')} 2:${key('b')}`, 'current key (the highest version) first'],
      [`2:${key('a')},2:${key('b')}`, 'twice'],
      [`0:${key('a')}`, '<version>:<key>'],
    ] as [string, string][])
      expect(() => getConfig({ ...env, LOG_CHAIN_SECRET: value })).toThrow(
        expect.objectContaining({ constructor: ConfigError, message: expect.stringContaining(message) }),
      );
    const ring = getConfig({ ...env, LOG_CHAIN_SECRET: ` 3:${key('c')}, 1:${key('a')}\n` }).LOG_CHAIN_SECRET!;
    expect([ring.current, [...ring.keys.keys()]]).toEqual([3, [3, 1]]);
    expect(getConfig({ ...env, LOG_CHAIN_SECRET: '' }).LOG_CHAIN_SECRET).toBeUndefined();
  });

  // Last: the chain ends sealed by key version 2.
  it('rotates the key: new seals take the new version, old ones verify with the old key, no step back', async () => {
    const admin = await makeAdmin();
    await run(new Date());
    const before = await allSeals();
    const rotated = { LOG_CHAIN_SECRET: `2:${'n'.repeat(40)} 1:${TEST_VARS.LOG_CHAIN_SECRET}` };
    await newCurso(admin.token);
    await run(new Date(), rotated);
    const after = await allSeals();
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.slice(before.length).map((s) => s.versao)).toEqual([2]);
    const total = after.length;
    expect(await verify(admin.token, undefined, rotated)).toMatchObject({
      ok: true,
      total,
      cabeca: { seq: after.at(-1)!.seq, versao: 2 },
      sem_chave_ate_seq: 3,
    });
    // A Worker without key 2 cannot vouch for its seals...
    expect(await verify(admin.token)).toEqual({
      ok: false,
      quebra_em_seq: after.at(-1)!.seq,
      motivo: 'chave_desconhecida',
    });
    // ...and does not seal after them with the older key.
    await newCurso(admin.token);
    const err = vi.spyOn(console, 'error').mockImplementation(() => {});
    await expect(run(new Date())).rejects.toThrow(/seal-activity-log/);
    expect(String(err.mock.calls[0]?.[0])).toContain('list the newest key first');
    err.mockRestore();
    expect((await allSeals()).length).toBe(total);
    await run(new Date(), rotated);
    expect(await verify(admin.token, undefined, rotated)).toMatchObject({ ok: true, total: total + 1 });
  });
});
