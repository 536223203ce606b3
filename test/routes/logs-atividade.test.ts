// The activity log itself (docs/decisions.md#d15): the writer's guarantees, the list with its filters
// and cursor, the append-only triggers, the sealing job (through scheduled()) and the verification.
import { env } from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import { createApp } from '../../src/app';
import { cursos, logsAtividade, logsAtividadeSelos } from '../../src/db/schema';
import { LogEntrySchema, VerificationSchema } from '../../src/routes/logs-atividade/logs-atividade.schemas';
import { runScheduled } from '../../src/scheduled';
import { canonicalEntry, entryHash, GENESIS, sealPending } from '../../src/services/activity-log';
import { createDb } from '../../src/db/client';
import { entriesOf, logEntries, runCron } from '../helpers/activity-log';
import { failingD1 } from '../helpers/failing-d1';
import { db, makeAdmin, makeCatalog, makeUser, uniq } from '../helpers/factories';
import { api, expectError } from '../helpers/request';
import { count } from 'drizzle-orm';

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
  it('is sealed by the scheduled job in seq order; GET shows the hashes; verificacao passes', async () => {
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
    // hash = SHA-256(hash_anterior + canonical JSON), recomputable outside the API.
    const [row] = await db
      .select()
      .from(logsAtividade)
      .where((await import('drizzle-orm')).eq(logsAtividade.entidadeId, body.id));
    const entry = (await entriesOf(body.id))[0]!;
    expect(await entryHash(entry.hash_anterior!, row!)).toBe(entry.hash);
    expect(canonicalEntry(row!)).toMatch(/^\{"seq":\d+,"id":"[^"]+","created_at":".*,"dados":\{"nome":\{"depois":"/);

    const v = await api('GET', `${L}/verificacao`, { token: admin.token });
    expect(v.status).toBe(200);
    expect(VerificationSchema.parse(v.body)).toEqual({ ok: true, total: all.length });
  });

  it('a second run seals nothing twice; two overlapping runs seal each entry once', async () => {
    const admin = await makeAdmin();
    await runCron();
    for (let i = 0; i < 30; i++) await newCurso(admin.token); // 30 entries: two insert statements of seals
    const dbx = createDb(env.DB);
    const now = new Date();
    const [a, b] = await Promise.all([sealPending(dbx, now), sealPending(dbx, now)]);
    expect(a + b).toBe(30);
    expect(await sealPending(dbx, now)).toBe(0);
    await runCron();
    const [seals] = await db.select({ n: count() }).from(logsAtividadeSelos);
    const [entries] = await db.select({ n: count() }).from(logsAtividade);
    expect(seals!.n).toBe(entries!.n);
    const v = await api('GET', `${L}/verificacao`, { token: admin.token });
    expect(v.body).toEqual({ ok: true, total: entries!.n });
  });

  it('a run seals at most its limit; the next run carries on', async () => {
    const admin = await makeAdmin();
    await runCron();
    for (let i = 0; i < 3; i++) await newCurso(admin.token);
    const dbx = createDb(env.DB);
    expect(await sealPending(dbx, new Date(), 2)).toBe(2);
    expect(await sealPending(dbx, new Date(), 2)).toBe(1);
  });

  it('verificacao names the first entry changed behind the API (test-only SQL path)', async () => {
    const admin = await makeAdmin();
    const { body } = await newCurso(admin.token);
    await newCurso(admin.token);
    await runCron();
    const entry = (await entriesOf(body.id))[0]!;
    // Tamper: lift the trigger, edit the entry, put the trigger back.
    await env.DB.prepare('drop trigger logs_atividade_no_update').run();
    await env.DB.prepare(`update logs_atividade set dados = '{"nome":{"depois":"forjado"}}' where seq = ?`)
      .bind(entry.seq)
      .run();
    await env.DB.prepare(
      `create trigger logs_atividade_no_update before update on logs_atividade begin select raise(abort, 'logs_atividade is append-only: UPDATE refused'); end`,
    ).run();
    const v = await api('GET', `${L}/verificacao`, { token: admin.token });
    expect(v.status).toBe(200);
    expect(v.body).toEqual({ ok: false, quebra_em_seq: entry.seq });
    // Only a SUPERADMIN verifies.
    const owner = await makeUser({ role: 'BUSINESS_OWNER' });
    expectError(await api('GET', `${L}/verificacao`, { token: owner.token }), 403, 'FORBIDDEN');
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
      'seal-activity-log': { sealed: expect.any(Number) },
      'requeue-pending-emails': expect.any(Array),
      'expirar-pedidos': expect.any(Number),
      'requeue-payments': expect.any(Number),
      lembretes: { lembretes: expect.any(Number), notificacoes: expect.any(Number) },
      'fechar-chamados': expect.any(Number),
      'enviar-pesquisas': expect.any(Number),
    });
  });

  it('makeCatalog rows (written straight to D1) have no entry: only API writes log', async () => {
    const row = await makeCatalog(cursos);
    expect(await entriesOf(row.id)).toEqual([]);
  });
});
