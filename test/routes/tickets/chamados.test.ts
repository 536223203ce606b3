import { env } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { agenda, chamadoMensagens, chamados, notifications, tiposEventos, users } from '../../../src/db/schema';
import { runScheduled, jobs } from '../../../src/scheduled';
import { db, makeAdmin, makeCatalog, makeFot, makeUser, type TestUser, makeRegionAdmin } from '../../helpers/factories';
import { entriesOf } from '../../helpers/activity-log';
import { api, expectError, UNKNOWN_ID } from '../../helpers/request';
import { expectPageTotal, keptCountsAfterAll } from '../../helpers/kept-columns';

const SECRET = 'NOTA-INTERNA-SECRETA';

// An administrator's page totals come from counts kept by triggers (drizzle/0032): checked after the file.
keptCountsAfterAll('chamados');

async function open(user: TestUser, body: Record<string, unknown> = {}, regiao = 'SP') {
  const res = await api('POST', '/api/chamados', {
    token: user.token,
    regiao,
    body: { assunto: 'Pagamento atrasado', categoria: 'pagamento', mensagem: 'Não recebi o PIX.', ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const notesOf = (userId: string, tipo: string) =>
  db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.tipo, tipo)));

describe('POST /api/chamados', () => {
  it('any active user opens a ticket: 201 aberto with its first message, the region admins notified, logged', async () => {
    const admin = await makeRegionAdmin('SP');
    const mgAdmin = await makeRegionAdmin('MG');
    const researcher = await makeUser({ role: 'RESEARCHER' });
    const t = await open(researcher);
    expect(t).toMatchObject({
      status: 'aberto',
      prioridade: 'normal',
      categoria: 'pagamento',
      regiao: 'SP',
      solicitante_id: researcher.id,
      responsavel_id: null,
      resolvido_em: null,
    });
    expect(t.mensagens).toEqual([
      expect.objectContaining({ corpo: 'Não recebi o PIX.', interna: false, autor_id: researcher.id }),
    ]);
    expect(await notesOf(admin.id, 'chamado_aberto')).toHaveLength(1);
    expect(await notesOf(mgAdmin.id, 'chamado_aberto')).toHaveLength(0);
    expect((await entriesOf(t.id)).map((e) => e.acao)).toEqual(['chamados.create']);
  });

  it('validates the body (400) and refuses a pending account (403)', async () => {
    const u = await makeUser({ role: 'profissional' });
    for (const body of [
      {},
      { assunto: 'x', categoria: 'outra', mensagem: 'm' },
      { assunto: ' ', categoria: 'outro', mensagem: 'm' },
      { assunto: 'x', categoria: 'outro', mensagem: 'm', agenda_id: 'nope' },
      { assunto: 'x\u0007', categoria: 'outro', mensagem: 'm' },
    ])
      expectError(await api('POST', '/api/chamados', { token: u.token, body }), 400, 'VALIDATION_FAILED');
    const pending = await makeUser({ role: 'profissional', ativo: false });
    expectError(
      await api('POST', '/api/chamados', {
        token: pending.token,
        body: { assunto: 'x', categoria: 'outro', mensagem: 'm' },
      }),
      403,
      'ACCOUNT_PENDING',
    );
  });

  it('agenda_id and fot_id must be visible to the requester (404 otherwise)', async () => {
    const admin = await makeAdmin();
    const viewer = await makeUser({ role: 'agenda_viewer' });
    const fot = await makeFot('SP');
    const tipo = await makeCatalog(tiposEventos, 'SP');
    const [own] = await db
      .insert(agenda)
      .values({ regiao: 'SP', userId: viewer.id, fotId: fot.id, tipoEventoId: tipo.id, dataEvento: '2027-01-01' })
      .returning();
    const [other] = await db
      .insert(agenda)
      .values({ regiao: 'SP', userId: admin.id, fotId: fot.id, tipoEventoId: tipo.id, dataEvento: '2027-01-01' })
      .returning();
    const t = await open(viewer, { agenda_id: own!.id, categoria: 'agenda' });
    expect(t.agenda_id).toBe(own!.id);
    const body = { assunto: 'x', categoria: 'agenda', mensagem: 'm' };
    expectError(
      await api('POST', '/api/chamados', { token: viewer.token, body: { ...body, agenda_id: other!.id } }),
      404,
      'NOT_FOUND',
    );
    // A FOT record: only administrators and its company's EVENT_OWNER see it.
    expectError(
      await api('POST', '/api/chamados', { token: viewer.token, body: { ...body, fot_id: fot.id } }),
      404,
      'NOT_FOUND',
    );
    const owner = await makeUser({ role: 'EVENT_OWNER', empresaId: fot.empresaId });
    expect((await open(owner, { fot_id: fot.id })).fot_id).toBe(fot.id);
    // Another region's event: 404.
    expectError(
      await api('POST', '/api/chamados', { token: admin.token, regiao: 'MG', body: { ...body, agenda_id: own!.id } }),
      404,
      'NOT_FOUND',
    );
  });
});

describe('reading tickets', () => {
  it("the requester sees its own; another user's ticket is 404; administrators see the region's", async () => {
    const a = await makeUser({ role: 'profissional' });
    const b = await makeUser({ role: 'profissional' });
    const admin = await makeRegionAdmin('SP');
    const ta = await open(a);
    const tb = await open(b, { categoria: 'acesso' });
    const mine = await api('GET', '/api/chamados', { token: a.token });
    expect(mine.status).toBe(200);
    expect(mine.body.map((t: any) => t.id)).toEqual([ta.id]);
    expect(mine.headers.get('X-Total-Count')).toBe('1');
    expectError(await api('GET', `/api/chamados/${tb.id}`, { token: a.token }), 404, 'NOT_FOUND');
    expect((await api('GET', `/api/chamados/${ta.id}`, { token: a.token })).body.id).toBe(ta.id);
    const all = await api('GET', '/api/chamados?categoria=acesso', { token: admin.token });
    expect(all.body.map((t: any) => t.id)).toContain(tb.id);
    expect(all.body.every((t: any) => t.categoria === 'acesso')).toBe(true);
    // Another region: not listed, 404 by id.
    expect(
      (await api('GET', '/api/chamados', { token: admin.token, regiao: 'MG' })).body.map((t: any) => t.id),
    ).not.toContain(ta.id);
    expectError(await api('GET', `/api/chamados/${ta.id}`, { token: admin.token, regiao: 'MG' }), 404, 'NOT_FOUND');
    expectError(await api('GET', `/api/chamados/${UNKNOWN_ID}`, { token: admin.token }), 404, 'NOT_FOUND');
    expectError(await api('GET', '/api/chamados/abc', { token: admin.token }), 400, 'INVALID_ID');
    expectError(await api('GET', '/api/chamados?status=nope', { token: admin.token }), 400, 'VALIDATION_FAILED');
  });

  it('filters by status and responsavel_id, and pages with X-Total-Count', async () => {
    const admin = await makeRegionAdmin('MG');
    const u = await makeUser({
      role: 'EVENT_OWNER',
      empresaId: (await makeCatalog((await import('../../../src/db/schema')).empresas, 'MG')).id,
    });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await open(u, {}, 'MG')).id);
    await api('PATCH', `/api/chamados/${ids[0]}`, {
      token: admin.token,
      regiao: 'MG',
      body: { responsavel_id: admin.id, status: 'em_andamento' },
    });
    const byResp = await api('GET', `/api/chamados?responsavel_id=${admin.id}`, { token: admin.token, regiao: 'MG' });
    expect(byResp.body.map((t: any) => t.id)).toEqual([ids[0]]);
    expect(byResp.body[0].responsavel_nome).toEqual(expect.any(String));
    const emAndamento = await api('GET', '/api/chamados?status=em_andamento', { token: u.token, regiao: 'MG' });
    expect(emAndamento.body.map((t: any) => t.id)).toEqual([ids[0]]);
    const page = await api('GET', '/api/chamados?limit=2&offset=1', { token: u.token, regiao: 'MG' });
    expect(page.body).toHaveLength(2);
    expect(page.headers.get('X-Total-Count')).toBe('3');
  });

  it("an administrator's page total, unfiltered and by status, follows opening, status changes and a requester's deletion", async () => {
    const admin = await makeRegionAdmin('MG');
    const totals = async () => {
      const out: Record<string, number> = {
        '': await expectPageTotal('/api/chamados', { token: admin.token, regiao: 'MG' }),
      };
      for (const s of ['aberto', 'em_andamento', 'resolvido'])
        out[s] = await expectPageTotal(`/api/chamados?status=${s}`, { token: admin.token, regiao: 'MG' });
      return out;
    };
    const before = await totals();
    const u = await makeUser({ role: 'profissional' });
    const [t1, t2] = [await open(u, {}, 'MG'), await open(u, {}, 'MG')];
    expect(await totals()).toEqual({ ...before, '': before['']! + 2, aberto: before.aberto! + 2 });
    for (const status of ['em_andamento', 'resolvido'])
      expect(
        (await api('PATCH', `/api/chamados/${t1.id}`, { token: admin.token, regiao: 'MG', body: { status } })).status,
      ).toBe(200);
    expect(await totals()).toEqual({
      ...before,
      '': before['']! + 2,
      aberto: before.aberto! + 1,
      resolvido: before.resolvido! + 1,
    });
    // Deleting the requester's account deletes its tickets (ON DELETE CASCADE): the counts follow.
    await db.delete(users).where(eq(users.id, u.id));
    expect(await totals()).toEqual(before);
    expect(t2.id).toEqual(expect.any(String));
  });
});

describe('PATCH /api/chamados/{id}', () => {
  it('an administrator assigns to a region administrator, sets status and priority; the people concerned are told', async () => {
    const admin = await makeRegionAdmin('SP');
    const other = await makeRegionAdmin('SP');
    const u = await makeUser({ role: 'profissional' });
    const t = await open(u);
    const res = await api('PATCH', `/api/chamados/${t.id}`, {
      token: admin.token,
      body: { responsavel_id: other.id, status: 'em_andamento', prioridade: 'alta' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ responsavel_id: other.id, status: 'em_andamento', prioridade: 'alta' });
    expect(await notesOf(other.id, 'chamado_atribuido')).toHaveLength(1);
    expect(await notesOf(u.id, 'chamado_atualizado')).toHaveLength(1);
    const resolved = await api('PATCH', `/api/chamados/${t.id}`, { token: admin.token, body: { status: 'resolvido' } });
    expect(resolved.body.resolvido_em).toEqual(expect.any(String));
    expect((await entriesOf(t.id, 'chamados.update')).length).toBe(2);
  });

  it('refuses a responsavel that is not an administrator of the region (400), bodies, roles, ids, regions', async () => {
    const admin = await makeRegionAdmin('SP');
    const mgAdmin = await makeRegionAdmin('MG');
    const pro = await makeUser({ role: 'profissional' });
    const t = await open(pro);
    for (const responsavel_id of [mgAdmin.id, pro.id, UNKNOWN_ID])
      expectError(
        await api('PATCH', `/api/chamados/${t.id}`, { token: admin.token, body: { responsavel_id } }),
        400,
        'VALIDATION_FAILED',
      );
    expectError(
      await api('PATCH', `/api/chamados/${t.id}`, { token: admin.token, body: {} }),
      400,
      'VALIDATION_FAILED',
    );
    expectError(
      await api('PATCH', `/api/chamados/${t.id}`, { token: admin.token, body: { status: 'perdido' } }),
      400,
      'VALIDATION_FAILED',
    );
    expectError(
      await api('PATCH', `/api/chamados/${t.id}`, { token: pro.token, body: { status: 'fechado' } }),
      403,
      'FORBIDDEN',
    );
    expectError(
      await api('PATCH', `/api/chamados/${t.id}`, {
        token: mgAdmin.token,
        regiao: 'MG',
        body: { status: 'resolvido' },
      }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await api('PATCH', `/api/chamados/${UNKNOWN_ID}`, { token: admin.token, body: { status: 'resolvido' } }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await api('PATCH', '/api/chamados/x', { token: admin.token, body: { status: 'resolvido' } }),
      400,
      'INVALID_ID',
    );
    // Unassigning is allowed.
    expect(
      (await api('PATCH', `/api/chamados/${t.id}`, { token: admin.token, body: { responsavel_id: null } })).status,
    ).toBe(200);
  });

  it('a closed ticket cannot change (409 INVALID_STATE)', async () => {
    const admin = await makeRegionAdmin('SP');
    const t = await open(await makeUser({ role: 'profissional' }));
    expect(
      (await api('PATCH', `/api/chamados/${t.id}`, { token: admin.token, body: { status: 'fechado' } })).status,
    ).toBe(200);
    expectError(
      await api('PATCH', `/api/chamados/${t.id}`, { token: admin.token, body: { status: 'aberto' } }),
      409,
      'INVALID_STATE',
    );
  });
});

describe('messages', () => {
  it('the requester and an administrator talk; each message notifies the other side; internal notes never reach the requester', async () => {
    const admin = await makeRegionAdmin('SP');
    const second = await makeRegionAdmin('SP');
    const u = await makeUser({ role: 'profissional' });
    const t = await open(u);
    // Unassigned: a requester's message goes to the region's administrators.
    const r1 = await api('POST', `/api/chamados/${t.id}/mensagens`, {
      token: u.token,
      body: { corpo: 'Alguma novidade?' },
    });
    expect(r1.status).toBe(201);
    expect(await notesOf(second.id, 'chamado_mensagem')).toHaveLength(1);
    await api('PATCH', `/api/chamados/${t.id}`, { token: admin.token, body: { responsavel_id: admin.id } });
    const note = await api('POST', `/api/chamados/${t.id}/mensagens`, {
      token: second.token,
      body: { corpo: SECRET, interna: true },
    });
    expect(note.status).toBe(201);
    expect(note.body.mensagens.some((m: any) => m.corpo === SECRET && m.interna)).toBe(true);
    // The internal note told the responsible, never the requester.
    expect((await notesOf(admin.id, 'chamado_mensagem')).length).toBeGreaterThan(0);
    const reply = await api('POST', `/api/chamados/${t.id}/mensagens`, {
      token: admin.token,
      body: { corpo: 'Estamos vendo.' },
    });
    expect(reply.status).toBe(201);
    const toRequester = await notesOf(u.id, 'chamado_mensagem');
    expect(toRequester).toHaveLength(1);
    // Assigned: the requester's message goes to the responsible only.
    const before = (await notesOf(second.id, 'chamado_mensagem')).length;
    await api('POST', `/api/chamados/${t.id}/mensagens`, { token: u.token, body: { corpo: 'Obrigado' } });
    expect((await notesOf(second.id, 'chamado_mensagem')).length).toBe(before);

    // Every answer to the requester, over every ticket route, and its notifications: no internal note.
    const seen = [
      await api('GET', `/api/chamados/${t.id}`, { token: u.token }),
      await api('GET', '/api/chamados', { token: u.token }),
      await api('POST', `/api/chamados/${t.id}/mensagens`, { token: u.token, body: { corpo: 'Mais uma' } }),
      await api('GET', '/api/v1/notifications', { token: u.token }),
    ];
    for (const res of seen) {
      expect(res.status).toBeLessThan(300);
      expect(JSON.stringify(res.body)).not.toContain(SECRET);
      expect(JSON.stringify(res.body)).not.toContain('"interna":true');
    }
    const asRequester = seen[0]!.body;
    expect(asRequester.mensagens.map((m: any) => m.corpo)).toEqual([
      'Não recebi o PIX.',
      'Alguma novidade?',
      'Estamos vendo.',
      'Obrigado',
    ]);
    const asAdmin = await api('GET', `/api/chamados/${t.id}`, { token: admin.token });
    expect(asAdmin.body.mensagens.map((m: any) => m.corpo)).toContain(SECRET);
    // Also the requester's own admin-created ticket view stays clean after the internal note: the message row exists.
    expect(await db.select().from(chamadoMensagens).where(eq(chamadoMensagens.interna, true))).not.toHaveLength(0);
    expect((await entriesOf(t.id, 'chamados.mensagem')).length).toBe(5);
  });

  it("a requester's message on aguardando_solicitante or resolvido reopens the ticket", async () => {
    const admin = await makeRegionAdmin('SP');
    const u = await makeUser({ role: 'agenda_viewer' });
    for (const status of ['aguardando_solicitante', 'resolvido'] as const) {
      const t = await open(u);
      await api('PATCH', `/api/chamados/${t.id}`, { token: admin.token, body: { status } });
      // An administrator's message does not reopen it.
      const adm = await api('POST', `/api/chamados/${t.id}/mensagens`, { token: admin.token, body: { corpo: 'ok' } });
      expect(adm.body.status).toBe(status);
      const res = await api('POST', `/api/chamados/${t.id}/mensagens`, {
        token: u.token,
        body: { corpo: 'Ainda não' },
      });
      expect(res.body.status).toBe('aberto');
      expect(res.body.resolvido_em).toBeNull();
    }
  });

  it('refuses internal notes from non-administrators (403), closed tickets (409), others and bad input', async () => {
    const admin = await makeRegionAdmin('SP');
    const u = await makeUser({ role: 'profissional' });
    const stranger = await makeUser({ role: 'profissional' });
    const t = await open(u);
    expectError(
      await api('POST', `/api/chamados/${t.id}/mensagens`, { token: u.token, body: { corpo: 'x', interna: true } }),
      403,
      'FORBIDDEN',
    );
    expectError(
      await api('POST', `/api/chamados/${t.id}/mensagens`, { token: stranger.token, body: { corpo: 'x' } }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await api('POST', `/api/chamados/${t.id}/mensagens`, { token: u.token, body: { corpo: '' } }),
      400,
      'VALIDATION_FAILED',
    );
    expectError(
      await api('POST', `/api/chamados/${t.id}/mensagens`, { token: u.token, regiao: 'MG', body: { corpo: 'x' } }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await api('POST', '/api/chamados/1/mensagens', { token: u.token, body: { corpo: 'x' } }),
      400,
      'INVALID_ID',
    );
    await api('PATCH', `/api/chamados/${t.id}`, { token: admin.token, body: { status: 'fechado' } });
    expectError(
      await api('POST', `/api/chamados/${t.id}/mensagens`, { token: u.token, body: { corpo: 'x' } }),
      409,
      'INVALID_STATE',
    );
    expectError(
      await api('POST', `/api/chamados/${t.id}/mensagens`, { token: admin.token, body: { corpo: 'x' } }),
      409,
      'INVALID_STATE',
    );
  });

  it('parallel requester messages on a resolved ticket: every message stored, reopened once', async () => {
    const admin = await makeRegionAdmin('SP');
    const u = await makeUser({ role: 'profissional' });
    const t = await open(u);
    await api('PATCH', `/api/chamados/${t.id}`, { token: admin.token, body: { status: 'resolvido' } });
    const res = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        api('POST', `/api/chamados/${t.id}/mensagens`, { token: u.token, body: { corpo: `m${i}` } }),
      ),
    );
    expect(res.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    const [row] = await db.select().from(chamados).where(eq(chamados.id, t.id));
    expect(row!.status).toBe('aberto');
    const entries = await entriesOf(t.id, 'chamados.mensagem');
    expect(entries.filter((e) => e.dados.status?.antes === 'resolvido')).toHaveLength(1);
  });
});

describe('scheduled job fechar-chamados', () => {
  it('closes tickets resolvido for 7 days, once, whatever the number of runs', async () => {
    const u = await makeUser({ role: 'profissional' });
    const old = await open(u);
    const recent = await open(u);
    const now = new Date('2030-03-10T12:00:00.000Z');
    await db
      .update(chamados)
      .set({ status: 'resolvido', resolvidoEm: '2030-03-03T11:59:00.000Z' })
      .where(eq(chamados.id, old.id));
    await db
      .update(chamados)
      .set({ status: 'resolvido', resolvidoEm: '2030-03-04T00:00:00.000Z' })
      .where(eq(chamados.id, recent.id));
    const job = { 'fechar-chamados': jobs['fechar-chamados']! };
    const [first, second] = await Promise.all([runScheduled(env, now, job), runScheduled(env, now, job)]);
    expect((first['fechar-chamados'] as number) + (second['fechar-chamados'] as number)).toBeGreaterThanOrEqual(1);
    const rows = await db.select().from(chamados).where(eq(chamados.solicitanteId, u.id));
    expect(rows.find((r) => r.id === old.id)!.status).toBe('fechado');
    expect(rows.find((r) => r.id === recent.id)!.status).toBe('resolvido');
    expect(await runScheduled(env, now, job)).toEqual({ 'fechar-chamados': 0 });
    expect((await entriesOf(old.id, 'chamados.fechar_automatico')).length).toBe(1);
    expect(await entriesOf(recent.id, 'chamados.fechar_automatico')).toEqual([]);
  });
});
