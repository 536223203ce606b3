// The activity log itself (docs/decisions.md#d15): the writer's guarantees, the list with its filters
// and cursor, the append-only triggers, the sealing job (through scheduled()) and the verification.
import { env } from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import { createApp } from '../../../src/app';
import { cursos, logsAtividade, logsAtividadeSelos } from '../../../src/db/schema';
import { LogEntrySchema, VerificationSchema } from '../../../src/routes/activity-log/logs-atividade.schemas';
import { runScheduled } from '../../../src/scheduled';
import { canonicalEntry, entryHash, GENESIS, sealPending } from '../../../src/services/core/activity-log-chain';
import { createDb } from '../../../src/db/client';
import { getConfig } from '../../../src/env';
import { TEST_VARS } from '../../setup/vars';
import { behindTheApi, entriesFrom, entriesOf, logEntries, restoreFrom, runCron } from '../../helpers/activity-log';
import { failingD1 } from '../../helpers/failing-d1';
import { db, makeAdmin, makeCatalog, makeUser, uniq } from '../../helpers/factories';
import { api, expectError } from '../../helpers/request';

/** HMAC-SHA256, lowercase hex: how anyone holding the key recomputes a seal (docs/decisions.md#d15). */
async function hmacHex(secret: string, text: string) {
  const enc = new TextEncoder();
  const key = await crypto.subtle.importKey('raw', enc.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, enc.encode(text)));
  return [...mac].map((b) => b.toString(16).padStart(2, '0')).join('');
}
import { count, desc, gte, lt } from 'drizzle-orm';

const L = '/api/logs-atividade';

async function newCurso(token: string, regiao = 'SP') {
  const res = await api('POST', '/api/cursos', { token, regiao, body: { nome: uniq('Curso') } });
  expect(res.status).toBe(201);
  return res;
}

describe('the entry of a write', () => {
  it('is written with the actor, the request id, the region and dados', async () => {
    const admin = await makeAdmin();
    const res = await newCurso(admin.token, 'MG');
    const [entry, ...rest] = await entriesOf(res.body.id);
    expect(rest).toHaveLength(0);
    expect(LogEntrySchema.parse(entry)).toMatchObject({
      acao: 'cursos.create',
      entidade: 'cursos',
      entidade_id: res.body.id,
      regiao: 'MG',
      ator_id: admin.id,
      ator_role: 'SUPERADMIN',
      request_id: res.headers.get('x-request-id'),
      dados: { nome: { depois: res.body.nome } },
      hash_anterior: null,
      hash: null,
    });
  });

  it('records antes and depois of an update, read in SQL in the same batch', async () => {
    const admin = await makeAdmin();
    const { body } = await newCurso(admin.token);
    const novo = uniq('Renomeado');
    expect((await api('PUT', `/api/cursos/${body.id}`, { token: admin.token, body: { nome: novo } })).status).toBe(200);
    const [upd] = await entriesOf(body.id, 'cursos.update');
    expect(upd!.dados).toEqual({ nome: { antes: body.nome, depois: novo } });
  });

  it('records the row as it was on delete, and nothing for a 404 or a refused delete', async () => {
    const admin = await makeAdmin();
    const { body } = await newCurso(admin.token);
    expect((await api('DELETE', `/api/cursos/${body.id}`, { token: admin.token })).status).toBe(204);
    const [del] = await entriesOf(body.id, 'cursos.delete');
    expect(del!.dados.nome).toEqual({ antes: body.nome });

    const missing = crypto.randomUUID();
    expectError(
      await api('PUT', `/api/cursos/${missing}`, { token: admin.token, body: { nome: 'x' } }),
      404,
      'NOT_FOUND',
    );
    expectError(await api('DELETE', `/api/cursos/${missing}`, { token: admin.token }), 404, 'NOT_FOUND');
    expect(await entriesOf(missing)).toEqual([]);
    // Another region's row is a 404 too, and leaves no entry.
    const mg = await newCurso(admin.token, 'MG');
    expectError(
      await api('DELETE', `/api/cursos/${mg.body.id}`, { token: admin.token, regiao: 'SP' }),
      404,
      'NOT_FOUND',
    );
    expect((await entriesOf(mg.body.id)).map((e) => e.acao)).toEqual(['cursos.create']);
  });

  it('is absent when the write failed (D1 fails the batch at either statement)', async () => {
    const admin = await makeAdmin();
    for (const statement of [0, 1]) {
      const nome = uniq('Falha');
      const failing = failingD1(env.DB, {
        batch: (s) => s.some((q) => q.startsWith('insert into "cursos"')),
        statement,
      });
      const log = vi.spyOn(console, 'error').mockImplementation(() => {});
      const res = await createApp().request(
        '/api/cursos',
        {
          method: 'POST',
          headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ nome }),
        },
        { ...env, DB: failing.db },
      );
      log.mockRestore();
      expect(res.status).toBe(500);
      expect(failing.injected).toBe(1);
      const entries = await logEntries({ ator_id: admin.id });
      expect(entries.filter((e) => e.dados.nome?.depois === nome)).toEqual([]);
    }
    // A duplicate name (409) leaves none either.
    const { body } = await newCurso(admin.token);
    const before = (await logEntries({ ator_id: admin.id })).length;
    expectError(await api('POST', '/api/cursos', { token: admin.token, body: { nome: body.nome } }), 409, 'CONFLICT');
    expect(await logEntries({ ator_id: admin.id })).toHaveLength(before);
  });
});

describe('GET /api/logs-atividade', () => {
  it('filters by entidade, entidade_id, ator_id, acao, de and ate', async () => {
    const admin = await makeAdmin();
    const other = await makeAdmin();
    const a = await newCurso(admin.token);
    await api('PUT', `/api/cursos/${a.body.id}`, { token: other.token, body: { nome: uniq('Outro') } });
    expect((await logEntries({ ator_id: admin.id })).map((e) => e.entidade_id)).toEqual([a.body.id]);
    expect((await logEntries({ entidade_id: a.body.id })).map((e) => e.acao)).toEqual([
      'cursos.update',
      'cursos.create',
    ]);
    expect((await logEntries({ entidade_id: a.body.id, acao: 'cursos.update' })).map((e) => e.ator_id)).toEqual([
      other.id,
    ]);
    expect((await logEntries({ entidade: 'cursos', ator_id: other.id })).length).toBe(1);
    expect(await logEntries({ entidade: 'empresas', ator_id: other.id })).toEqual([]);
    const created = (await entriesOf(a.body.id, 'cursos.create'))[0]!.created_at;
    expect(await logEntries({ entidade_id: a.body.id, de: '2999-01-01' })).toEqual([]);
    expect(await logEntries({ entidade_id: a.body.id, ate: '2000-01-01' })).toEqual([]);
    expect(await logEntries({ entidade_id: a.body.id, de: created, acao: 'cursos.create' })).toHaveLength(1);
    expect(await logEntries({ entidade_id: a.body.id, ate: created, acao: 'cursos.create' })).toHaveLength(0);
    // A São Paulo day: the whole day, UTC-3.
    const spDay = new Date(Date.parse(created) - 3 * 3600_000).toISOString().slice(0, 10);
    expect(await logEntries({ entidade_id: a.body.id, de: spDay, ate: spDay })).toHaveLength(2);
  });

  it('pages newest first with X-Next-Cursor, exactly', async () => {
    const admin = await makeAdmin();
    for (let i = 0; i < 5; i++) await newCurso(admin.token);
    const all = await logEntries({ ator_id: admin.id });
    expect(all).toHaveLength(5);
    expect(all.map((e) => e.seq)).toEqual([...all.map((e) => e.seq)].sort((x, y) => y - x));
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const qs: string = `ator_id=${admin.id}&limit=2${cursor ? `&antes=${cursor}` : ''}`;
      const res = await api('GET', `${L}?${qs}`, { token: admin.token });
      expect(res.status).toBe(200);
      seen.push(...res.body.map((e: { seq: number }) => e.seq));
      cursor = res.headers.get('x-next-cursor');
    } while (cursor);
    expect(seen).toEqual(all.map((e) => e.seq));
    // An ISO instant as `antes`: entries created before it.
    const res = await api('GET', `${L}?ator_id=${admin.id}&antes=2000-01-01T00:00:00Z`, { token: admin.token });
    expect(res.body).toEqual([]);
  });

  it('shows a BUSINESS_OWNER its region and the global entries only; a SUPERADMIN everything', async () => {
    const admin = await makeAdmin();
    const owner = await makeUser({ role: 'BUSINESS_OWNER' });
    const mg = await newCurso(admin.token, 'MG');
    const sp = await newCurso(admin.token, 'SP');
    const target = await makeUser({ ativo: false });
    expect((await api('PATCH', `/api/admin/users/${target.id}/approve`, { token: admin.token })).status).toBe(200);
    const mine = async (regiao: string) =>
      (await api('GET', `${L}?ator_id=${admin.id}`, { token: owner.token, regiao })).body.map(
        (e: { entidade_id: string }) => e.entidade_id,
      );
    expect(await mine('SP')).toEqual([target.id, sp.body.id]);
    expect(await mine('MG')).toEqual([target.id, mg.body.id]);
    expect((await logEntries({ ator_id: admin.id })).map((e) => e.entidade_id)).toEqual([
      target.id,
      sp.body.id,
      mg.body.id,
    ]);
  });

  it('refuses other roles and malformed filters', async () => {
    const admin = await makeAdmin();
    for (const role of ['EVENT_OWNER', 'agenda_viewer', 'profissional', 'RESEARCHER'] as const) {
      const u = await makeUser({ role });
      expectError(await api('GET', L, { token: u.token }), 403, 'FORBIDDEN');
    }
    expectError(await api('GET', L), 401, 'UNAUTHENTICATED');
    for (const q of [
      'limit=0',
      'limit=201',
      'antes=nope!',
      'antes=MA',
      'de=2026-02-30',
      'ate=ontem',
      'entidade_id=1',
      'ator_id=x',
    ])
      expectError(await api('GET', `${L}?${q}`, { token: admin.token }), 400, 'VALIDATION_FAILED');
    const ok = await api('GET', `${L}?limit=200`, { token: admin.token });
    expect(ok.status).toBe(200);
  });
});

describe('append-only', () => {
  it('triggers refuse UPDATE and DELETE of entries and seals, whatever runs them', async () => {
    const admin = await makeAdmin();
    await newCurso(admin.token);
    await runCron();
    for (const q of [
      'update logs_atividade set acao = acao',
      'delete from logs_atividade',
      'update logs_atividade_selos set hash = hash',
      'delete from logs_atividade_selos',
    ])
      await expect(env.DB.prepare(q).run()).rejects.toThrow(/append-only/);
    const [n] = await db.select({ n: count() }).from(logsAtividade);
    expect(n!.n).toBeGreaterThan(0);
  });
});

describe('the hash chain', () => {
  it('is sealed by the scheduled job in seq order, keyed; GET shows the hashes; verificacao passes', async () => {
    const admin = await makeAdmin();
    const { body } = await newCurso(admin.token);
    await runCron(new Date('2026-11-23T12:00:00Z'));
    const all = await logEntries();
    expect(all.every((e) => e.hash && e.hash_anterior)).toBe(true);
    const chain = [...all].reverse();
    // The first entry chains on the genesis value; each next on its predecessor's hash.
    const [first] = await db.select().from(logsAtividadeSelos).orderBy(logsAtividadeSelos.seq).limit(1);
    expect(first!.hashAnterior).toBe(GENESIS);
    for (let i = 1; i < chain.length; i++) expect(chain[i]!.hash_anterior).toBe(chain[i - 1]!.hash);
    // hash = HMAC-SHA256 under LOG_CHAIN_SECRET (version 1) of hash_anterior + canonical JSON,
    // recomputable outside the API with the key; no longer the unkeyed SHA-256.
    const [row] = await db
      .select()
      .from(logsAtividade)
      .where((await import('drizzle-orm')).eq(logsAtividade.entidadeId, body.id));
    const entry = (await entriesOf(body.id))[0]!;
    expect(await hmacHex(TEST_VARS.LOG_CHAIN_SECRET, entry.hash_anterior! + canonicalEntry(row!))).toBe(entry.hash);
    expect(await entryHash(entry.hash_anterior!, row!)).not.toBe(entry.hash);
    expect(canonicalEntry(row!)).toMatch(/^\{"seq":\d+,"id":"[^"]+","created_at":".*,"dados":\{"nome":\{"depois":"/);
    const versions = await env.DB.prepare('select distinct versao from logs_atividade_selos').all();
    expect(versions.results).toEqual([{ versao: 1 }]);

    const v = await api('GET', `${L}/verificacao`, { token: admin.token });
    expect(v.status).toBe(200);
    expect(VerificationSchema.parse(v.body)).toEqual({
      ok: true,
      total: all.length,
      cabeca: { seq: chain.at(-1)!.seq, hash: chain.at(-1)!.hash, versao: 1 },
      sem_chave_ate_seq: null,
    });
  });

  it('a second run seals nothing twice; two overlapping runs seal each entry once', async () => {
    const admin = await makeAdmin();
    await runCron();
    for (let i = 0; i < 30; i++) await newCurso(admin.token); // 30 entries: two insert statements of seals
    const dbx = createDb(env.DB);
    const keys = getConfig(env).LOG_CHAIN_SECRET!;
    const now = new Date();
    const [a, b] = await Promise.all([sealPending({ db: dbx, keys }, now), sealPending({ db: dbx, keys }, now)]);
    expect(a + b).toBe(30);
    expect(await sealPending({ db: dbx, keys }, now)).toBe(0);
    await runCron();
    const [seals] = await db.select({ n: count() }).from(logsAtividadeSelos);
    const [entries] = await db.select({ n: count() }).from(logsAtividade);
    expect(seals!.n).toBe(entries!.n);
    const v = await api('GET', `${L}/verificacao`, { token: admin.token });
    expect(v.body).toMatchObject({ ok: true, total: entries!.n });
  });

  it('a run seals at most its limit; the next run carries on', async () => {
    const admin = await makeAdmin();
    await runCron();
    for (let i = 0; i < 3; i++) await newCurso(admin.token);
    const dbx = createDb(env.DB);
    const keys = getConfig(env).LOG_CHAIN_SECRET!;
    expect(await sealPending({ db: dbx, keys }, new Date(), 2)).toBe(2);
    expect(await sealPending({ db: dbx, keys }, new Date(), 2)).toBe(1);
  });

  it('verificacao names the first entry changed behind the API (test-only SQL path)', async () => {
    const admin = await makeAdmin();
    const { body } = await newCurso(admin.token);
    await newCurso(admin.token);
    await runCron();
    const entry = (await entriesOf(body.id))[0]!;
    const saved = await entriesFrom(entry.seq);
    await behindTheApi(
      env.DB.prepare(`update logs_atividade set dados = '{"nome":{"depois":"forjado"}}' where seq = ?`).bind(entry.seq),
    );
    const v = await api('GET', `${L}/verificacao`, { token: admin.token });
    expect(v.status).toBe(200);
    expect(v.body).toEqual({ ok: false, quebra_em_seq: entry.seq, motivo: 'selo_invalido' });
    // Only a SUPERADMIN verifies.
    const owner = await makeUser({ role: 'BUSINESS_OWNER' });
    expectError(await api('GET', `${L}/verificacao`, { token: owner.token }), 403, 'FORBIDDEN');
    await restoreFrom(entry.seq, saved);
    expect((await api('GET', `${L}/verificacao`, { token: admin.token })).body).toMatchObject({ ok: true });
  });
});

/** The chain's seals from `seq` on, recomputed with the first, unkeyed rule (what anyone can compute). */
async function resealUnkeyed(seq: number, versao?: number) {
  const [prev] = await db
    .select({ hash: logsAtividadeSelos.hash })
    .from(logsAtividadeSelos)
    .where(lt(logsAtividadeSelos.seq, seq))
    .orderBy(desc(logsAtividadeSelos.seq))
    .limit(1);
  let hash = prev?.hash ?? GENESIS;
  const updates: D1PreparedStatement[] = [];
  for (const e of await db.select().from(logsAtividade).where(gte(logsAtividade.seq, seq)).orderBy(logsAtividade.seq)) {
    const next = await entryHash(hash, e);
    const set = versao === undefined ? '' : `, versao = ${versao}`;
    updates.push(
      env.DB.prepare(`update logs_atividade_selos set hash_anterior = ?, hash = ?${set} where seq = ?`).bind(
        hash,
        next,
        e.seq,
      ),
    );
    hash = next;
  }
  return updates;
}

/** The chain's head as the sealing run published it (its log line; test/scheduled/seal-activity-log.test.ts). */
async function lastSeal() {
  const [head] = await db
    .select({ seq: logsAtividadeSelos.seq, hash: logsAtividadeSelos.hash })
    .from(logsAtividadeSelos)
    .orderBy(desc(logsAtividadeSelos.seq))
    .limit(1);
  return head!;
}

const verify = async (token: string, head?: { seq: number; hash: string }) => {
  const res = await api('GET', `${L}/verificacao${head ? `?seq=${head.seq}&hash=${head.hash}` : ''}`, { token });
  expect(res.status).toBe(200);
  return VerificationSchema.parse(res.body);
};

describe('the chain under an attacker with D1 write access (issue 32, item 8)', () => {
  it('an entry edited and re-sealed with the unkeyed rule fails verification (the seals are keyed)', async () => {
    const admin = await makeAdmin();
    await newCurso(admin.token);
    const { body } = await newCurso(admin.token);
    await newCurso(admin.token);
    await runCron();
    const entry = (await entriesOf(body.id))[0]!;
    const saved = await entriesFrom(entry.seq);
    // Edit the entry, then recompute its seal and every later one by the SHA-256 rule, as anyone can.
    await behindTheApi(
      env.DB.prepare(`update logs_atividade set dados = '{"nome":{"depois":"forjado"}}' where seq = ?`).bind(entry.seq),
    );
    await behindTheApi(...(await resealUnkeyed(entry.seq)));
    expect(await verify(admin.token)).toEqual({ ok: false, quebra_em_seq: entry.seq, motivo: 'selo_invalido' });
    // Calling them seals of the unkeyed rule (version 0) does not help: a version never steps back.
    await behindTheApi(...(await resealUnkeyed(entry.seq, 0)));
    expect(await verify(admin.token)).toEqual({ ok: false, quebra_em_seq: entry.seq, motivo: 'versao_invalida' });
    await restoreFrom(entry.seq, saved);
    expect(await verify(admin.token)).toMatchObject({ ok: true, sem_chave_ate_seq: null });
  });

  it('a whole chain recomputed without the key passes alone, but not against a head published before', async () => {
    const admin = await makeAdmin();
    await newCurso(admin.token);
    await runCron();
    const published = await lastSeal();
    await behindTheApi(...(await resealUnkeyed(1, 0)));
    // The head the sealing run published (its log line, the daily e-mail) is another seal...
    expect(await verify(admin.token, published)).toEqual({
      ok: false,
      quebra_em_seq: published.seq,
      motivo: 'cabeca_divergente',
    });
    // ...though every seal is now of the first rule, and nothing inside D1 tells it from a log sealed before the key.
    expect(await verify(admin.token)).toMatchObject({ ok: true, sem_chave_ate_seq: published.seq });
    await restoreFrom(1, await entriesFrom(1));
    expect(await verify(admin.token, published)).toMatchObject({ ok: true, cabeca_esperada_alcancada: true });
  });

  it('a deleted middle entry is a gap, even when the seals after it are made again with the key', async () => {
    const admin = await makeAdmin();
    await newCurso(admin.token);
    const { body } = await newCurso(admin.token);
    await newCurso(admin.token);
    await runCron();
    const entry = (await entriesOf(body.id))[0]!;
    const saved = await entriesFrom(entry.seq);
    // Remove the entry and every seal from it on; the next sealing run (it has the key) seals the rest again.
    await behindTheApi(
      env.DB.prepare('delete from logs_atividade_selos where seq >= ?').bind(entry.seq),
      env.DB.prepare('delete from logs_atividade where seq = ?').bind(entry.seq),
    );
    await runCron();
    expect(await verify(admin.token)).toEqual({
      ok: false,
      quebra_em_seq: entry.seq,
      motivo: 'lacuna',
      lacuna: { de: entry.seq, ate: entry.seq },
    });
    await restoreFrom(entry.seq, saved);
    expect(await verify(admin.token)).toMatchObject({ ok: true });
  });

  it('a removed seal with its entry kept is a gap too; a seal whose entry is gone is entrada_ausente', async () => {
    const admin = await makeAdmin();
    await newCurso(admin.token);
    const { body } = await newCurso(admin.token);
    await newCurso(admin.token);
    await runCron();
    const entry = (await entriesOf(body.id))[0]!;
    const saved = await entriesFrom(entry.seq);
    await behindTheApi(env.DB.prepare('delete from logs_atividade where seq = ?').bind(entry.seq));
    expect(await verify(admin.token)).toEqual({ ok: false, quebra_em_seq: entry.seq, motivo: 'entrada_ausente' });
    await restoreFrom(entry.seq, saved);
    const seals = await env.DB.prepare('select * from logs_atividade_selos where seq = ?').bind(entry.seq).all();
    await behindTheApi(env.DB.prepare('delete from logs_atividade_selos where seq = ?').bind(entry.seq));
    expect(await verify(admin.token)).toMatchObject({ ok: false, motivo: 'lacuna', lacuna: { de: entry.seq } });
    const s0 = seals.results[0] as Record<string, unknown>;
    await behindTheApi(
      env.DB.prepare('insert into logs_atividade_selos values (?, ?, ?, ?, ?)').bind(
        s0.seq,
        s0.hash_anterior,
        s0.hash,
        s0.selado_em,
        s0.versao,
      ),
    );
    expect(await verify(admin.token)).toMatchObject({ ok: true });
  });

  it('a truncated end passes alone but is detected against a published head; new entries after it are a gap', async () => {
    const admin = await makeAdmin();
    for (let i = 0; i < 4; i++) await newCurso(admin.token);
    await runCron();
    const head = await lastSeal();
    const cut = head.seq - 1;
    const saved = await entriesFrom(cut);
    await behindTheApi(
      env.DB.prepare('delete from logs_atividade_selos where seq >= ?').bind(cut),
      env.DB.prepare('delete from logs_atividade where seq >= ?').bind(cut),
    );
    expect(await verify(admin.token, head)).toEqual({ ok: false, quebra_em_seq: cut, motivo: 'cabeca_ausente' });
    // Without the head, the shorter chain is a valid chain: the published head is what tells.
    expect(await verify(admin.token)).toMatchObject({ ok: true, cabeca: { seq: cut - 1 } });
    // A head that is another seal at a seq the chain has: cabeca_divergente.
    expect(await verify(admin.token, { seq: cut - 1, hash: head.hash })).toEqual({
      ok: false,
      quebra_em_seq: cut - 1,
      motivo: 'cabeca_divergente',
    });
    // seq is AUTOINCREMENT: the next entry does not reuse the removed seqs, so once sealed it shows the gap.
    await newCurso(admin.token);
    await runCron();
    expect(await verify(admin.token)).toEqual({
      ok: false,
      quebra_em_seq: cut,
      motivo: 'lacuna',
      lacuna: { de: cut, ate: head.seq },
    });
    await restoreFrom(cut, saved);
    expect(await verify(admin.token, head)).toMatchObject({ ok: true, cabeca_esperada_alcancada: true });
    // Upper-case hex is the same seal.
    expect(await verify(admin.token, { seq: head.seq, hash: head.hash.toUpperCase() })).toMatchObject({ ok: true });
  });

  it('refuses a malformed expected head (seq and hash go together)', async () => {
    const admin = await makeAdmin();
    for (const q of [
      'seq=1',
      `hash=${'a'.repeat(64)}`,
      `seq=0&hash=${'a'.repeat(64)}`,
      'seq=1&hash=abc',
      'seq=x&hash=1',
    ])
      expectError(await api('GET', `${L}/verificacao?${q}`, { token: admin.token }), 400, 'VALIDATION_FAILED');
  });
});

describe('the scheduled dispatcher', () => {
  it('runs every job, and a failing job fails the run without stopping the others', async () => {
    const ran: string[] = [];
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    await expect(
      runScheduled(env, new Date(), {
        bad: async () => {
          throw new Error('boom');
        },
        good: async (_env, now) => ran.push(now.toISOString()),
      }),
    ).rejects.toThrow(/bad/);
    expect(log).toHaveBeenCalledTimes(1);
    log.mockRestore();
    expect(ran).toHaveLength(1);
    expect(await runScheduled(env, new Date())).toEqual({
      'seal-activity-log': { sealed: expect.any(Number), head: expect.any(Object), emailed: expect.any(Number) },
      'requeue-pending-emails': expect.any(Array),
      'requeue-pending-whatsapp': expect.any(Array),
      'expirar-pedidos': expect.any(Number),
      'requeue-payments': expect.any(Number),
      lembretes: { lembretes: expect.any(Number), notificacoes: expect.any(Number), whatsapp: expect.any(Number) },
      'fechar-chamados': expect.any(Number),
      'enviar-pesquisas': expect.any(Number),
      'lembrar-campanhas': { campanhas: expect.any(Number), lembretes: expect.any(Number) },
      'lembrar-credenciamento': { lembretes: expect.any(Number) },
      'faltas-provaveis': { faltas: expect.any(Number), avisos: expect.any(Number) },
      'confiabilidade-noturna': {
        dia: expect.any(String),
        executado: expect.any(Boolean),
        profissionais: expect.any(Number),
      },
      'capacidade-deficit': {
        regioes: expect.any(Number),
        alertas: expect.any(Number),
        notificacoes: expect.any(Number),
      },
    });
  });

  it('makeCatalog rows (written straight to D1) have no entry: only API writes log', async () => {
    const row = await makeCatalog(cursos);
    expect(await entriesOf(row.id)).toEqual([]);
  });
});
