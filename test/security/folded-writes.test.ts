// Folded writes (db/authored.ts, middleware/folded.ts authorizedWrite): POST /api/cursos (every
// catalog's create), POST /api/cadastro-fot, POST /api/financeiro/lancamentos and
// PATCH /api/convites/{id} check their author inside the write's own batch.
// A refused author gets exactly the answer it got before (401/403, same codes) and NOTHING is
// written: no row, no activity-log entry.
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { count, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import type { PushMessage } from '../../src/lib/messages';
import {
  agenda,
  agendaEquipe,
  cadastroFot,
  convites,
  funcoes,
  tiposEventos,
  cursos,
  empresas,
  lancamentos,
  logsAtividade,
  notifications,
  refreshTokens,
  users,
} from '../../src/db/schema';
import {
  db,
  makeAdmin,
  makeCatalog,
  makeFot,
  makeFotRefs,
  makeProfissional,
  makeUser,
  nextFot,
  systemCategoryId,
  tokenFor,
  uniq,
} from '../helpers/factories';
import { capturingQueue } from '../helpers/queue';
import { api, authHeaders, expectError, UNKNOWN_ID } from '../helpers/request';
import { keptColumnsAfterAll } from '../helpers/kept-columns';

// Every team row these tests touched keeps its event's region, date and accepted count (triggers).
keptColumnsAfterAll();

const setUser = (id: string, set: Partial<typeof users.$inferInsert>) =>
  db.update(users).set(set).where(eq(users.id, id));
const logCount = async () => (await db.select({ n: count() }).from(logsAtividade))[0]!.n;
const cursosNamed = (nome: string) => db.select().from(cursos).where(eq(cursos.label, nome));

async function fotBody(regiao = 'SP', over: Record<string, unknown> = {}) {
  const r = await makeFotRefs(regiao);
  return { fot: nextFot(), empresa_id: r.empresa.id, curso_id: r.curso.id, ano_formatura_id: r.ano.id, ...over };
}
const fotsNumbered = (fot: number) => db.select().from(cadastroFot).where(eq(cadastroFot.fot, fot));

/**
 * The D1 binding with `change` run right after its `n`-th batch: a race between a proven write's
 * first batch and what follows it (middleware/folded.ts). No sessions: the app then batches on it.
 */
function afterBatch(n: number, change: () => Promise<unknown>): D1Database {
  let batches = 0;
  return new Proxy(env.DB, {
    get(t, p) {
      if (p === 'withSession') return undefined;
      if (p !== 'batch') return (Reflect.get(t, p) as Function).bind(t);
      return async (stmts: D1PreparedStatement[]) => {
        const out = await t.batch(stmts);
        if (++batches === n) await change();
        return out;
      };
    },
  });
}

/** The ways an author is refused after its token was signed, with today's answers. */
const refusals: [string, (id: string, token: string) => Promise<unknown>, number, string][] = [
  ['deleted', (id) => db.delete(users).where(eq(users.id, id)), 401, 'UNAUTHENTICATED'],
  [
    'session ended',
    (id) => db.update(refreshTokens).set({ revokedAt: new Date().toISOString() }).where(eq(refreshTokens.userId, id)),
    401,
    'UNAUTHENTICATED',
  ],
  ['pending again', (id) => setUser(id, { ativo: false }), 403, 'ACCOUNT_PENDING'],
  ['demoted to agenda_viewer', (id) => setUser(id, { role: 'agenda_viewer' }), 403, 'FORBIDDEN'],
];

describe('POST /api/cursos: the author check folded into the insert', () => {
  it('an admitted administrator creates in one round trip, with its log entry', async () => {
    const admin = await makeAdmin();
    const nome = uniq('Curso');
    const before = await logCount();
    const res = await api('POST', '/api/cursos', { token: admin.token, body: { nome }, countQueries: true });
    expect(res.status).toBe(201);
    expect(res.roundTrips).toBe(1);
    expect(res.statements).toBe(2); // the insert and its log entry: the returned row proves the author, no user read
    expect(await cursosNamed(nome)).toHaveLength(1);
    expect(await logCount()).toBe(before + 1);
    const [entry] = await db.select().from(logsAtividade).where(eq(logsAtividade.entidadeId, res.body.id));
    expect(entry).toMatchObject({ acao: 'cursos.create', atorId: admin.id, atorRole: 'SUPERADMIN' });
  });

  it.each(refusals)('an author %s is answered as before and nothing is written', async (_, change, status, code) => {
    const admin = await makeAdmin();
    await change(admin.id, admin.token);
    const nome = uniq('Curso');
    const before = await logCount();
    const res = await api('POST', '/api/cursos', { token: admin.token, body: { nome }, countQueries: true });
    expectError(res, status, code);
    expect(res.roundTrips).toBe(2); // the guarded batch wrote nothing, then the stored user answers
    expect(await cursosNamed(nome)).toHaveLength(0);
    expect(await logCount()).toBe(before);
  });

  it('a refused author sending a duplicate name gets its 401/403, not the 409', async () => {
    const admin = await makeAdmin();
    const nome = uniq('Curso');
    expect((await api('POST', '/api/cursos', { token: admin.token, body: { nome } })).status).toBe(201);
    const other = await makeAdmin();
    await setUser(other.id, { role: 'PROFISSIONAL' as never });
    expectError(await api('POST', '/api/cursos', { token: other.token, body: { nome } }), 403, 'FORBIDDEN');
    expectError(await api('POST', '/api/cursos', { token: admin.token, body: { nome } }), 409, 'CONFLICT');
  });

  it('an administrator whose role changed but still may write is written once, as its stored role', async () => {
    const owner = await makeUser({ role: 'BUSINESS_OWNER' });
    await setUser(owner.id, { role: 'SUPERADMIN' });
    const nome = uniq('Curso');
    const before = await logCount();
    const res = await api('POST', '/api/cursos', { token: owner.token, body: { nome }, countQueries: true });
    expect(res.status).toBe(201);
    // The guarded batch wrote nothing, the stored user is read, and the write runs again for it.
    expect(res.roundTrips).toBe(3);
    expect(await cursosNamed(nome)).toHaveLength(1);
    expect(await logCount()).toBe(before + 1);
    const [entry] = await db.select().from(logsAtividade).where(eq(logsAtividade.entidadeId, res.body.id));
    expect(entry?.atorRole).toBe('SUPERADMIN');
  });

  it('a token whose role fails the rule is read at once and refused as before, in one round trip', async () => {
    const viewer = await makeUser({ role: 'agenda_viewer' });
    const res = await api('POST', '/api/cursos', {
      token: viewer.token,
      body: { nome: uniq('C') },
      countQueries: true,
    });
    expectError(res, 403, 'FORBIDDEN');
    expect(res.roundTrips).toBe(1);
  });

  it('ten parallel creates of one name: one row, one log entry, nine 409', async () => {
    const admin = await makeAdmin();
    const nome = uniq('Curso');
    const before = await logCount();
    const all = await Promise.all(
      Array.from({ length: 10 }, () => api('POST', '/api/cursos', { token: admin.token, body: { nome } })),
    );
    expect(all.filter((r) => r.status === 201)).toHaveLength(1);
    expect(all.filter((r) => r.status === 409)).toHaveLength(9);
    expect(await cursosNamed(nome)).toHaveLength(1);
    expect(await logCount()).toBe(before + 1);
  });

  it('an author approved between the refused write and the user read is written once (201, not a 500)', async () => {
    const admin = await makeAdmin();
    await setUser(admin.id, { ativo: false });
    const nome = uniq('Curso');
    const before = await logCount();
    const DB = afterBatch(1, () => setUser(admin.id, { ativo: true }));
    const res = await api('POST', '/api/cursos', { token: admin.token, body: { nome }, bindings: { DB } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ nome });
    expect(await cursosNamed(nome)).toHaveLength(1);
    expect(await logCount()).toBe(before + 1);
  });

  it('an author deactivated between the two batches is refused, nothing written', async () => {
    const admin = await makeAdmin();
    await setUser(admin.id, { role: 'agenda_viewer' });
    const nome = uniq('Curso');
    // Its token still says SUPERADMIN: the first batch writes nothing, the user turns pending before the second.
    const DB = afterBatch(1, () => setUser(admin.id, { role: 'SUPERADMIN', ativo: false }));
    expectError(
      await api('POST', '/api/cursos', { token: admin.token, body: { nome }, bindings: { DB } }),
      403,
      'ACCOUNT_PENDING',
    );
    expect(await cursosNamed(nome)).toHaveLength(0);
  });

  it('an unknown token subject is 401 and writes nothing', async () => {
    const token = await tokenFor(UNKNOWN_ID, 'SUPERADMIN');
    const nome = uniq('Curso');
    expectError(await api('POST', '/api/cursos', { token, body: { nome } }), 401, 'UNAUTHENTICATED');
    expect(await cursosNamed(nome)).toHaveLength(0);
  });
});

describe('POST /api/cadastro-fot: author and references checked in the insert', () => {
  it('creates in one round trip (no reference read before it), with its log entry', async () => {
    const admin = await makeAdmin();
    const body = await fotBody('SP');
    const before = await logCount();
    const res = await api('POST', '/api/cadastro-fot', { token: admin.token, body, countQueries: true });
    expect(res.status).toBe(201);
    expect(res.roundTrips).toBe(1);
    expect(res.statements).toBe(3); // the insert, its log entry, the read-back (which proves the author)
    expect(res.body).toMatchObject({ fot: body.fot, empresa_id: body.empresa_id });
    expect(await fotsNumbered(body.fot)).toHaveLength(1);
    expect(await logCount()).toBe(before + 1);
  });

  it.each(refusals)('an author %s is answered as before and nothing is written', async (_, change, status, code) => {
    const admin = await makeAdmin();
    await change(admin.id, admin.token);
    const body = await fotBody('SP');
    const before = await logCount();
    expectError(await api('POST', '/api/cadastro-fot', { token: admin.token, body }), status, code);
    expect(await fotsNumbered(body.fot)).toHaveLength(0);
    expect(await logCount()).toBe(before);
  });

  it('a reference missing in the region is 404 naming the field, nothing written', async () => {
    const admin = await makeAdmin();
    const mg = await makeFotRefs('MG');
    for (const [field, value] of [
      ['empresa_id', UNKNOWN_ID],
      ['curso_id', mg.curso.id],
      ['ano_formatura_id', mg.ano.id],
    ] as const) {
      const body = await fotBody('SP', { [field]: value });
      const before = await logCount();
      const res = await api('POST', '/api/cadastro-fot', { token: admin.token, body });
      expectError(res, 404, 'NOT_FOUND');
      expect(res.body.error).toContain(field);
      expect(await fotsNumbered(body.fot)).toHaveLength(0);
      expect(await logCount()).toBe(before);
    }
  });

  /** A FOT create whose company does not exist until just after the write's `n`-th batch. */
  async function createWithCompanyAfterBatch(n: number) {
    const admin = await makeAdmin();
    const empresaId = crypto.randomUUID();
    const body = await fotBody('SP', { empresa_id: empresaId });
    const DB = afterBatch(n, () => makeCatalog(empresas, 'SP', uniq('Empresa'), empresaId));
    return { body, res: await api('POST', '/api/cadastro-fot', { token: admin.token, body, bindings: { DB } }) };
  }

  it('a reference that appears between the refused write and its explanation is 409, nothing written', async () => {
    // Created after the second batch (the user row and the insert again), before the refusal is explained.
    const { body, res } = await createWithCompanyAfterBatch(2);
    expectError(res, 409, 'CONFLICT');
    expect(await fotsNumbered(body.fot)).toHaveLength(0);
  });

  it('a reference that appears between the two batches is written once, as the second batch found it', async () => {
    const { body, res } = await createWithCompanyAfterBatch(1);
    expect(res.status).toBe(201);
    expect(await fotsNumbered(body.fot)).toHaveLength(1);
  });

  it('a refused author with a missing reference gets the authentication answer first', async () => {
    const admin = await makeAdmin();
    await setUser(admin.id, { ativo: false });
    const body = await fotBody('SP', { empresa_id: UNKNOWN_ID });
    expectError(await api('POST', '/api/cadastro-fot', { token: admin.token, body }), 403, 'ACCOUNT_PENDING');
  });

  it('an EVENT_OWNER token promoted to BUSINESS_OWNER writes once, as the stored user', async () => {
    const owner = await makeUser({ role: 'BUSINESS_OWNER' });
    await setUser(owner.id, { role: 'SUPERADMIN' });
    const body = await fotBody('SP');
    const res = await api('POST', '/api/cadastro-fot', { token: owner.token, body, countQueries: true });
    expect(res.status).toBe(201);
    expect(res.roundTrips).toBe(3); // the guarded batch wrote nothing, the stored user, the write again
    expect(await fotsNumbered(body.fot)).toHaveLength(1);
  });

  it('five parallel creates of one FOT number: one row, four 400 DUPLICATE_FOT', async () => {
    const admin = await makeAdmin();
    const body = await fotBody('SP');
    const all = await Promise.all(
      Array.from({ length: 5 }, () => api('POST', '/api/cadastro-fot', { token: admin.token, body })),
    );
    expect(all.filter((r) => r.status === 201)).toHaveLength(1);
    expect(all.filter((r) => r.status === 400 && r.body.code === 'DUPLICATE_FOT')).toHaveLength(4);
    expect(await fotsNumbered(body.fot)).toHaveLength(1);
  });
});

describe('POST /auth/login: the attempt reservation and the account read in one round trip', () => {
  const login = (email: string, senha: string) =>
    api('POST', '/auth/login', {
      body: { email, senha },
      headers: { 'cf-connecting-ip': uniq('ip') },
      countQueries: true,
    });

  it('a right password costs 2 round trips (reserve + account, then the session batch)', async () => {
    const user = await makeUser();
    const res = await login(user.email, user.password);
    expect(res.status).toBe(200);
    expect(res.roundTrips).toBe(2);
  });

  it('a wrong password and an unknown e-mail cost the same 2 and answer the same', async () => {
    const user = await makeUser();
    const wrong = await login(user.email, 'errada-123');
    const unknown = await login(`${uniq('n')}@example.com`, 'errada-123');
    expectError(wrong, 401, 'INVALID_CREDENTIALS');
    expectError(unknown, 401, 'INVALID_CREDENTIALS');
    expect([wrong.roundTrips, unknown.roundTrips]).toEqual([2, 2]);
  });
});

describe('POST /api/financeiro/lancamentos: the author check and the references folded into the insert', () => {
  const categoria = (regiao = 'SP') => systemCategoryId(regiao, 'logistica');
  const body = async (over: Record<string, unknown> = {}) => ({
    tipo: 'despesa',
    categoria_id: await categoria(),
    descricao: uniq('Van'),
    valor: 120.5,
    vencimento: '2031-02-10',
    ...over,
  });
  const entriesDescribed = (descricao: string) =>
    db.select().from(lancamentos).where(eq(lancamentos.descricao, descricao));

  it('an admitted administrator creates in one round trip, with its log entry', async () => {
    const admin = await makeAdmin();
    const b = await body();
    const res = await api('POST', '/api/financeiro/lancamentos', { token: admin.token, body: b, countQueries: true });
    expect(res.status).toBe(201);
    expect(res.roundTrips).toBe(1);
    expect(res.statements).toBe(3); // the insert, its log entry, the read-back (which proves the author)
    expect(await entriesDescribed(b.descricao)).toHaveLength(1);
    const [entry] = await db.select().from(logsAtividade).where(eq(logsAtividade.entidadeId, res.body.id));
    expect(entry).toMatchObject({ acao: 'lancamentos.create', atorId: admin.id });
  });

  it.each(refusals)('an author %s is answered as before and nothing is written', async (_, change, status, code) => {
    const admin = await makeAdmin();
    await change(admin.id, admin.token);
    const b = await body({ fot_id: UNKNOWN_ID });
    const before = await logCount();
    // Its unknown reference would be 404 for an admitted author: the refusal comes first.
    expectError(await api('POST', '/api/financeiro/lancamentos', { token: admin.token, body: b }), status, code);
    expect(await entriesDescribed(b.descricao)).toHaveLength(0);
    expect(await logCount()).toBe(before);
  });

  it('a reference of another region, a category of the other tipo, an event of another FOT: nothing written', async () => {
    const admin = await makeAdmin();
    const cases: [Record<string, unknown>, number, string][] = [
      [{ categoria_id: await categoria('MG') }, 404, 'NOT_FOUND'],
      [{ tipo: 'receita' }, 400, 'VALIDATION_FAILED'],
      [{ profissional_id: UNKNOWN_ID }, 404, 'NOT_FOUND'],
    ];
    for (const [over, status, code] of cases) {
      const b = await body(over);
      const res = await api('POST', '/api/financeiro/lancamentos', { token: admin.token, body: b, countQueries: true });
      expectError(res, status, code);
      // The refusal is explained on its own path: the user, then the references and rules.
      expect(res.roundTrips).toBe(3);
      expect(await entriesDescribed(b.descricao)).toHaveLength(0);
    }
  });
});

describe('PATCH /api/convites/{id}: the caller check, the answer, its notifications and its read-back in one batch', () => {
  /** An invitation of a professional to an event created by `creator`, sent by `inviter` (quota 1). */
  async function invitation(o: { status?: 'pendente' | 'solicitado' | 'espera'; origem?: 'candidatura' } = {}) {
    const creator = await makeAdmin();
    const inviter = await makeAdmin();
    const fot = await makeFot('SP');
    const tipo = await makeCatalog(tiposEventos, 'SP');
    const funcao = await makeCatalog(funcoes, 'SP');
    const [ev] = await db
      .insert(agenda)
      .values({ regiao: 'SP', userId: creator.id, fotId: fot.id, tipoEventoId: tipo.id, dataEvento: '2031-03-03' })
      .returning();
    await db.insert(agendaEquipe).values({ agendaId: ev!.id, funcaoId: funcao.id, quantidade: 1 });
    const user = await makeUser({ role: 'profissional' });
    const p = await makeProfissional('SP', { usuarioId: user.id }, [funcao.id]);
    const [inv] = await db
      .insert(convites)
      .values({ agendaId: ev!.id, profissionalId: p.id, funcaoId: funcao.id, convidadoPor: inviter.id, ...o })
      .returning();
    return { user, inv: inv!, creator, inviter, funcao, event: ev! };
  }
  const statusOf = async (id: string) => (await db.select().from(convites).where(eq(convites.id, id)))[0]!.status;
  const notesAbout = (conviteId: string) =>
    db
      .select()
      .from(notifications)
      .where(sql`json_extract(${notifications.dados}, '$.convite_id') = ${conviteId}`);
  const entriesOf = (id: string) => db.select().from(logsAtividade).where(eq(logsAtividade.entidadeId, id));
  const patch = (token: string, id: string, status: string) =>
    api('PATCH', `/api/convites/${id}`, { token, body: { status }, countQueries: true });

  it('an acceptance costs 1 round trip: accepted, logged, the inviter and the creator notified', async () => {
    const { user, inv, creator, inviter } = await invitation();
    const res = await patch(user.token, inv.id, 'aceito');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: inv.id, status: 'aceito', respondido_em: expect.any(String) });
    expect(res.roundTrips).toBe(1);
    expect(await statusOf(inv.id)).toBe('aceito');
    expect((await entriesOf(inv.id)).map((e) => [e.acao, e.atorId])).toEqual([['convites.accept', user.id]]);
    expect((await notesAbout(inv.id)).map((n) => n.userId).sort()).toEqual([creator.id, inviter.id].sort());
  });

  it('its push messages are the notifications written, enqueued once after the batch', async () => {
    const { user, inv, creator, inviter } = await invitation();
    const { queue, sent } = capturingQueue<PushMessage>();
    const ctx = createExecutionContext();
    const res = await createApp().request(
      `/api/convites/${inv.id}`,
      {
        method: 'PATCH',
        headers: authHeaders(user.token, { 'content-type': 'application/json' }),
        body: JSON.stringify({ status: 'aceito' }),
      },
      { ...env, PUSH_QUEUE: queue },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(200);
    const rows = await notesAbout(inv.id);
    expect(rows).toHaveLength(2);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.map((m) => m.body).sort((a, b) => a.userId.localeCompare(b.userId))).toEqual(
      rows
        .map((n) => ({
          userId: n.userId,
          notificationId: n.id,
          titulo: n.titulo,
          mensagem: n.mensagem,
          dados: n.dados,
        }))
        .sort((a, b) => a.userId.localeCompare(b.userId)),
    );
    expect(rows.map((n) => n.userId).sort()).toEqual([creator.id, inviter.id].sort());
  });

  it('a decline costs 1 round trip, and promotes the waiting list in it', async () => {
    const { user, inv, funcao, event } = await invitation();
    expect((await patch(user.token, inv.id, 'aceito')).status).toBe(200);
    const waiter = await makeUser({ role: 'profissional' });
    const wp = await makeProfissional('SP', { usuarioId: waiter.id }, [funcao.id]);
    const [w] = await db
      .insert(convites)
      .values({
        agendaId: event.id,
        profissionalId: wp.id,
        funcaoId: funcao.id,
        status: 'espera',
        origem: 'candidatura',
      })
      .returning();
    const res = await patch(user.token, inv.id, 'recusado');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('recusado');
    expect(res.roundTrips).toBe(1);
    expect(await statusOf(w!.id)).toBe('aceito');
    expect((await notesAbout(w!.id)).map((n) => [n.userId, n.tipo])).toEqual([[waiter.id, 'convite_promovido']]);
  });

  it('an administrator decides an application in 1 round trip', async () => {
    const { user, inv, creator } = await invitation({ status: 'solicitado', origem: 'candidatura' });
    const res = await patch(creator.token, inv.id, 'aceito');
    expect(res.status).toBe(200);
    expect(res.roundTrips).toBe(1);
    expect((await notesAbout(inv.id)).map((n) => [n.userId, n.tipo])).toEqual([[user.id, 'candidatura_aprovada']]);
    expect((await entriesOf(inv.id)).map((e) => [e.acao, e.atorId])).toEqual([['convites.approve', creator.id]]);
  });

  it('a refusal by the rule (quota full) costs two more round trips (the user, the reason), on that path only', async () => {
    const { user, inv, funcao, event } = await invitation();
    const other = await makeUser({ role: 'profissional' });
    const op = await makeProfissional('SP', { usuarioId: other.id }, [funcao.id]);
    await db
      .insert(convites)
      .values({ agendaId: event.id, profissionalId: op.id, funcaoId: funcao.id, status: 'aceito' });
    const res = await patch(user.token, inv.id, 'aceito');
    expectError(res, 409, 'QUOTA_FULL');
    expect(res.roundTrips).toBe(3);
    expect(await statusOf(inv.id)).toBe('pendente');
    expect(await notesAbout(inv.id)).toEqual([]);
  });

  it.each(refusals)(
    'a professional %s is answered as before and nothing is written: no status, no notification, no log entry',
    async (_, change, status, code) => {
      for (const answer of ['aceito', 'recusado']) {
        const { user, inv } = await invitation();
        await change(user.id, user.token);
        const before = await logCount();
        expectError(await patch(user.token, inv.id, answer), status, code);
        expect(await statusOf(inv.id)).toBe('pendente');
        expect(await notesAbout(inv.id)).toEqual([]);
        expect(await logCount()).toBe(before);
      }
    },
  );

  it.each(refusals)(
    'an administrator %s deciding is answered as before and nothing is written',
    async (_, change, status, code) => {
      const { inv, creator } = await invitation({ status: 'solicitado', origem: 'candidatura' });
      await change(creator.id, creator.token);
      const before = await logCount();
      expectError(await patch(creator.token, inv.id, 'aceito'), status, code);
      expect(await statusOf(inv.id)).toBe('solicitado');
      expect(await notesAbout(inv.id)).toEqual([]);
      expect(await logCount()).toBe(before);
    },
  );

  it('a professional promoted to administrator is answered as the stored user (it decides applications only)', async () => {
    const { user, inv } = await invitation();
    await setUser(user.id, { role: 'SUPERADMIN' });
    const before = await logCount();
    const res = await patch(user.token, inv.id, 'aceito');
    expectError(res, 409, 'INVALID_STATE');
    expect(res.body.error).toBe('só uma candidatura em "solicitado" é decidida pelo administrador (está "pendente")');
    expect(await statusOf(inv.id)).toBe('pendente');
    expect(await logCount()).toBe(before);
  });
});
