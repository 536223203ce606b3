import { env } from 'cloudflare:test';
import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  convites,
  emailOutbox,
  pesquisaEnvios,
  pesquisaRespostaItens,
  pesquisaRespostas,
  pesquisas,
  profissionais,
} from '../../../src/db/schema';
import { jobs, runScheduled } from '../../../src/scheduled';
import { openSecret, renderEmail } from '../../../src/services/core/mail';
import { parseCsv } from '../../../src/lib/csv';
import { getConfig } from '../../../src/env';
import {
  db,
  makeAdmin,
  makeProfissional,
  makeUser,
  uniq,
  type TestUser,
  makeEvento,
  makeFuncao,
  makeConvite,
} from '../../helpers/factories';
import { entriesOf } from '../../helpers/activity-log';
import { api, expectError, send, UNKNOWN_ID } from '../../helpers/request';

const PERGUNTAS = [
  { texto: 'Nota geral', tipo: 'nota_1_5', obrigatoria: true },
  { texto: 'Recomendaria?', tipo: 'nps_0_10', obrigatoria: true },
  { texto: 'Melhor momento', tipo: 'escolha_unica', opcoes: ['Entrada', 'Colação', 'Festa'] },
  { texto: 'O que usou', tipo: 'escolha_multipla', opcoes: ['Fotos', 'Vídeo', 'Totem'] },
  { texto: 'Comentários', tipo: 'texto' },
  { texto: 'Voltaria?', tipo: 'sim_nao' },
  { texto: 'Qualidade técnica', tipo: 'nota_1_5', criterio: 'qual_tec', obrigatoria: true },
];

/** An event of the region with a team of `aceitos` accepted professionals (two by default) and one declined. */
async function makeEvent(regiao = 'SP', dataEvento = '2027-06-10', aceitos = 2) {
  const admin = await makeAdmin();
  const { fot, tipo, ...event } = await makeEvento(regiao, admin, { dataEvento });
  const foto = await makeFuncao(regiao);
  const team = [];
  const nomes = ['Ana', 'Bruno', 'Dora', 'Edu', 'Fábio'].slice(0, aceitos);
  for (const nome of [...nomes, 'Carla']) {
    const p = await makeProfissional(regiao, { nome: `${nome} ${uniq('p')}` }, [foto.id]);
    await makeConvite(event.id, { prof: p, funcaoId: foto.id }, nome === 'Carla' ? 'recusado' : 'aceito');
    team.push(p);
  }
  return { event, fot, tipo, team: team.slice(0, aceitos), declined: team[aceitos]!, foto };
}

async function makePesquisa(user: TestUser, body: Record<string, unknown> = {}, regiao = 'SP') {
  const res = await api('POST', '/api/pesquisas', {
    token: user.token,
    regiao,
    body: { titulo: 'Satisfação', publico: 'cliente', status: 'ativa', perguntas: PERGUNTAS, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** The plain tokens of the survey e-mails to these addresses (as the e-mail consumer would open them). */
async function tokensFor(emails: string[]) {
  const rows = await db
    .select()
    .from(emailOutbox)
    .where(and(inArray(emailOutbox.para, emails), eq(emailOutbox.tipo, 'pesquisa')));
  return Promise.all(rows.map(async (r) => (await openSecret(env.JWT_SECRET, r.segredo!))!));
}

async function sendTo(user: TestUser, pesquisaId: string, agendaId: string | undefined, n: number) {
  const emails = Array.from({ length: n }, () => `${uniq('cli')}@example.com`);
  const res = await api('POST', `/api/pesquisas/${pesquisaId}/envios`, {
    token: user.token,
    body: { agenda_id: agendaId, destinatarios: emails.map((email) => ({ email, nome: 'Cliente' })) },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return tokensFor(emails);
}

/** A full valid answer set for PERGUNTAS. */
function answers(
  p: any,
  team: { id: string }[],
  over: Partial<Record<number, unknown>> = {},
  criterio = [4, 5],
): any[] {
  const q = p.perguntas;
  const base = [
    { pergunta_id: q[0].id, valor: over[0] ?? 5 },
    { pergunta_id: q[1].id, valor: over[1] ?? 10 },
    { pergunta_id: q[2].id, valor: over[2] ?? 'Festa' },
    { pergunta_id: q[3].id, valor: over[3] ?? ['Fotos', 'Totem'] },
    { pergunta_id: q[4].id, valor: over[4] ?? 'Tudo ótimo' },
    { pergunta_id: q[5].id, valor: over[5] ?? true },
    ...team.map((t, i) => ({ pergunta_id: q[6].id, profissional_id: t.id, valor: criterio[i] })),
  ];
  return base;
}

const answer = (token: string, respostas: unknown) =>
  api('POST', `/p/pesquisas/${token}/respostas`, { body: { respostas } });

describe('survey CRUD', () => {
  it('a RESEARCHER creates, reads, lists, changes and deletes a survey; every write is logged', async () => {
    const researcher = await makeUser({ role: 'RESEARCHER' });
    const p = await makePesquisa(researcher, { status: 'rascunho' });
    expect(p).toMatchObject({
      titulo: 'Satisfação',
      publico: 'cliente',
      anonima: false,
      status: 'rascunho',
      respostas: 0,
      regiao: 'SP',
    });
    expect(p.perguntas.map((q: any) => [q.ordem, q.tipo, q.criterio])).toEqual(
      PERGUNTAS.map((q, i) => [i + 1, q.tipo, q.criterio ?? null]),
    );
    expect(p.perguntas[2].opcoes).toEqual(['Entrada', 'Colação', 'Festa']);
    expect((await api('GET', `/api/pesquisas/${p.id}`, { token: researcher.token })).body.id).toBe(p.id);
    const list = await api('GET', '/api/pesquisas?status=rascunho&limit=1', { token: researcher.token });
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    expect(Number(list.headers.get('X-Total-Count'))).toBeGreaterThanOrEqual(1);
    const upd = await api('PUT', `/api/pesquisas/${p.id}`, {
      token: researcher.token,
      body: { titulo: 'Nova', perguntas: [{ texto: 'Só uma', tipo: 'sim_nao' }] },
    });
    expect(upd.status).toBe(200);
    expect(upd.body.perguntas).toHaveLength(1);
    expect(upd.body.titulo).toBe('Nova');
    expect((await api('DELETE', `/api/pesquisas/${p.id}`, { token: researcher.token })).status).toBe(204);
    expectError(await api('GET', `/api/pesquisas/${p.id}`, { token: researcher.token }), 404, 'NOT_FOUND');
    expect((await entriesOf(p.id)).map((e) => e.acao)).toEqual([
      'pesquisas.delete',
      'pesquisas.update',
      'pesquisas.create',
    ]);
  });

  it('validates questions per kind, and refuses other roles, regions, ids and event types', async () => {
    const admin = await makeAdmin();
    const bad = [
      { texto: 'x', tipo: 'nota_1_5', opcoes: ['a', 'b'] },
      { texto: 'x', tipo: 'escolha_unica' },
      { texto: 'x', tipo: 'escolha_multipla', opcoes: ['a', 'a'] },
      { texto: 'x', tipo: 'nps_0_10', criterio: 'qual_tec' },
      { texto: 'x', tipo: 'nota_1_5', criterio: 'beleza' },
      { texto: '', tipo: 'texto' },
      { texto: 'x', tipo: 'desenho' },
    ];
    for (const q of bad)
      expectError(
        await api('POST', '/api/pesquisas', {
          token: admin.token,
          body: { titulo: 't', publico: 'cliente', perguntas: [q] },
        }),
        400,
        'VALIDATION_FAILED',
      );
    expectError(
      await api('POST', '/api/pesquisas', { token: admin.token, body: { titulo: 't', publico: 'todos' } }),
      400,
      'VALIDATION_FAILED',
    );
    const titulo = uniq('Sem tipo');
    expectError(
      await api('POST', '/api/pesquisas', {
        token: admin.token,
        body: {
          titulo,
          publico: 'cliente',
          tipo_evento_id: UNKNOWN_ID,
          perguntas: [{ texto: 'Nota', tipo: 'nota_1_5' }],
        },
      }),
      404,
      'NOT_FOUND',
    );
    // Nothing written: neither the survey nor its questions (the check is a condition of the insert).
    expect(await db.select().from(pesquisas).where(eq(pesquisas.titulo, titulo))).toEqual([]);
    const pro = await makeUser({ role: 'profissional' });
    expectError(await api('GET', '/api/pesquisas', { token: pro.token }), 403, 'FORBIDDEN');
    const p = await makePesquisa(admin);
    expectError(await api('GET', `/api/pesquisas/${p.id}`, { token: admin.token, regiao: 'MG' }), 404, 'NOT_FOUND');
    expectError(
      await api('PUT', `/api/pesquisas/${p.id}`, { token: admin.token, regiao: 'MG', body: { titulo: 'x' } }),
      404,
      'NOT_FOUND',
    );
    expectError(await api('DELETE', `/api/pesquisas/${p.id}`, { token: admin.token, regiao: 'MG' }), 404, 'NOT_FOUND');
    expectError(await api('GET', '/api/pesquisas/nope', { token: admin.token }), 400, 'INVALID_ID');
    expectError(await api('PUT', `/api/pesquisas/${p.id}`, { token: admin.token, body: {} }), 400, 'VALIDATION_FAILED');
    expectError(
      await api('PUT', `/api/pesquisas/${UNKNOWN_ID}`, { token: admin.token, body: { titulo: 'x' } }),
      404,
      'NOT_FOUND',
    );
    expectError(await api('DELETE', `/api/pesquisas/${UNKNOWN_ID}`, { token: admin.token }), 404, 'NOT_FOUND');
  });

  it('questions, publico and anonima are frozen once a response exists (409), the rest still changes; no delete', async () => {
    const admin = await makeAdmin();
    const { event, team } = await makeEvent();
    const p = await makePesquisa(admin);
    const [token] = await sendTo(admin, p.id, event.id, 1);
    expect((await answer(token!, answers(p, team))).status).toBe(201);
    for (const body of [{ perguntas: [] }, { anonima: true }, { publico: 'formando' }])
      expectError(await api('PUT', `/api/pesquisas/${p.id}`, { token: admin.token, body }), 409, 'INVALID_STATE');
    const closed = await api('PUT', `/api/pesquisas/${p.id}`, {
      token: admin.token,
      body: { status: 'encerrada', titulo: 'Fim' },
    });
    expect(closed.body).toMatchObject({ status: 'encerrada', titulo: 'Fim', respostas: 1 });
    expect(closed.body.perguntas).toHaveLength(PERGUNTAS.length);
    expectError(await api('DELETE', `/api/pesquisas/${p.id}`, { token: admin.token }), 409, 'INVALID_STATE');
  });
});

describe('freezing under concurrency', () => {
  it('a question change racing a first answer: never both (either the answer is stored with the old questions, or the change is)', async () => {
    const admin = await makeAdmin();
    const { event, team } = await makeEvent();
    for (let round = 0; round < 3; round++) {
      const p = await makePesquisa(admin);
      const [token] = await sendTo(admin, p.id, event.id, 1);
      const [put, ans] = await Promise.all([
        api('PUT', `/api/pesquisas/${p.id}`, {
          token: admin.token,
          body: { perguntas: [{ texto: 'Nova', tipo: 'texto' }] },
        }),
        answer(token!, answers(p, team)),
      ]);
      const after = (await api('GET', `/api/pesquisas/${p.id}`, { token: admin.token })).body;
      if (ans.status === 201) {
        expect(put.status).toBe(409);
        expect(after.perguntas.map((q: any) => q.id)).toEqual(p.perguntas.map((q: any) => q.id));
        expect(after.respostas).toBe(1);
      } else {
        expect([400, 404]).toContain(ans.status); // the old questions are gone: invalid ids, or gone mid-write
        expect(put.status).toBe(200);
        expect(after.perguntas).toHaveLength(1);
        expect(after.respostas).toBe(0);
      }
    }
  });
});

describe('anonima is locked once a link is sent', () => {
  it('changes freely before any link; after one, a change is 409 INVALID_STATE and writes nothing; the same value passes', async () => {
    const admin = await makeAdmin();
    const { event } = await makeEvent();
    const p = await makePesquisa(admin);
    const put = (body: Record<string, unknown>) => api('PUT', `/api/pesquisas/${p.id}`, { token: admin.token, body });
    expect((await put({ anonima: true })).body.anonima).toBe(true);
    expect((await put({ anonima: false })).body.anonima).toBe(false);
    await sendTo(admin, p.id, event.id, 1);
    const before = await entriesOf(p.id, 'pesquisas.update');
    const refused = await put({ anonima: true });
    expectError(refused, 409, 'INVALID_STATE');
    expect(refused.body.error).toBe('a pesquisa já tem links enviados: o anonimato não muda mais');
    // With other fields and the questions in the same request: nothing of it is written.
    expectError(
      await put({ anonima: true, titulo: 'Outro', perguntas: [{ texto: 'Nova', tipo: 'texto' }] }),
      409,
      'INVALID_STATE',
    );
    const after = (await api('GET', `/api/pesquisas/${p.id}`, { token: admin.token })).body;
    expect(after).toMatchObject({ anonima: false, titulo: 'Satisfação' });
    expect(after.perguntas.map((q: any) => q.id)).toEqual(p.perguntas.map((q: any) => q.id));
    expect(await entriesOf(p.id, 'pesquisas.update')).toHaveLength(before.length);
    // The value it already has (a client sending the whole object) still passes, with the rest.
    const same = await put({ anonima: false, titulo: 'Renomeada' });
    expect(same.status, JSON.stringify(same.body)).toBe(200);
    expect(same.body).toMatchObject({ anonima: false, titulo: 'Renomeada' });
  });

  it('a link sent by the scheduled job locks it too', async () => {
    const admin = await makeAdmin();
    const { event, fot, tipo } = await makeEvent('SP', '2032-03-10');
    await makeUser({ role: 'EVENT_OWNER', empresaId: fot.empresaId });
    const p = await makePesquisa(admin, { tipo_evento_id: tipo.id, anonima: true });
    const job = { 'enviar-pesquisas': jobs['enviar-pesquisas']! };
    expect(await runScheduled(env, new Date('2032-03-11T12:00:00.000Z'), job)).toEqual({ 'enviar-pesquisas': 1 });
    const [link] = await db.select().from(pesquisaEnvios).where(eq(pesquisaEnvios.pesquisaId, p.id));
    expect(link?.agendaId).toBe(event.id);
    expectError(
      await api('PUT', `/api/pesquisas/${p.id}`, { token: admin.token, body: { anonima: false } }),
      409,
      'INVALID_STATE',
    );
  });

  it('a change racing a send: either the change comes first (its log entry before the links), or it is refused', async () => {
    const admin = await makeAdmin();
    const { event } = await makeEvent();
    // The change starts 0-3 ticks after the send: both orders happen (the send's read and write
    // between the change's read and its write too).
    for (let round = 0; round < 12; round++) {
      const from = round % 2 === 0;
      const p = await makePesquisa(admin, { anonima: from });
      const emails = Array.from({ length: 3 }, () => `${uniq('cli')}@example.com`);
      const [put, sent] = await Promise.all([
        (async () => {
          for (let i = 0; i < round % 4; i++) await null;
          return api('PUT', `/api/pesquisas/${p.id}`, { token: admin.token, body: { anonima: !from } });
        })(),
        api('POST', `/api/pesquisas/${p.id}/envios`, {
          token: admin.token,
          body: { agenda_id: event.id, destinatarios: emails.map((email) => ({ email })) },
        }),
      ]);
      expect(sent.status, JSON.stringify(sent.body)).toBe(201);
      const now = (await api('GET', `/api/pesquisas/${p.id}`, { token: admin.token })).body;
      const [envio] = await entriesOf(p.id, 'pesquisas.envio');
      const updates = await entriesOf(p.id, 'pesquisas.update');
      if (put.status === 200) {
        expect(now.anonima).toBe(!from);
        expect(updates).toHaveLength(1);
        expect(updates[0]!.seq).toBeLessThan(envio!.seq); // committed before any link existed
      } else {
        expectError(put, 409, 'INVALID_STATE');
        expect(now.anonima).toBe(from);
        expect(updates).toHaveLength(0);
      }
    }
  });
});

describe('sending links', () => {
  it('one single-use link per recipient, hashed, 14 days, e-mailed through the outbox with the APP_URL link', async () => {
    const researcher = await makeUser({ role: 'RESEARCHER' });
    const { event } = await makeEvent();
    const p = await makePesquisa(researcher);
    const email = `${uniq('cli')}@example.com`;
    const res = await api('POST', `/api/pesquisas/${p.id}/envios`, {
      token: researcher.token,
      body: { agenda_id: event.id, destinatarios: [{ email, nome: 'Maria' }] },
    });
    expect(res.status).toBe(201);
    expect(res.body.enviados).toBe(1);
    const [token] = await tokensFor([email]);
    // The same address twice in one list: one link.
    const twice = `${uniq('cli')}@example.com`;
    const dup = await api('POST', `/api/pesquisas/${p.id}/envios`, {
      token: researcher.token,
      body: { agenda_id: event.id, destinatarios: [{ email: twice }, { email: twice.toUpperCase() }] },
    });
    expect(dup.body.enviados).toBe(1);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [link] = await db.select().from(pesquisaEnvios).where(eq(pesquisaEnvios.email, email));
    expect(link!.tokenHash).not.toContain(token);
    expect(new Date(link!.expiresAt).getTime() - Date.now()).toBeGreaterThan(13.9 * 86_400_000);
    const [mail] = await db.select().from(emailOutbox).where(eq(emailOutbox.para, email));
    const rendered = renderEmail(mail!, getConfig(env), token);
    expect(rendered.link).toBe(`${env.APP_URL}/pesquisa?token=${token}`);
    expect(rendered.text).toContain('Satisfação');
    expect((await entriesOf(p.id, 'pesquisas.envio')).length).toBe(2);
  });

  it('refuses a survey that is not ativa (409), a missing event for criterio questions (400), other regions and roles', async () => {
    const admin = await makeAdmin();
    const { event } = await makeEvent();
    const draft = await makePesquisa(admin, { status: 'rascunho' });
    const body = { agenda_id: event.id, destinatarios: [{ email: 'a@example.com' }] };
    expectError(
      await api('POST', `/api/pesquisas/${draft.id}/envios`, { token: admin.token, body }),
      409,
      'INVALID_STATE',
    );
    const p = await makePesquisa(admin);
    expectError(
      await api('POST', `/api/pesquisas/${p.id}/envios`, {
        token: admin.token,
        body: { destinatarios: [{ email: 'a@example.com' }] },
      }),
      400,
      'VALIDATION_FAILED',
    );
    expectError(
      await api('POST', `/api/pesquisas/${p.id}/envios`, {
        token: admin.token,
        body: { ...body, destinatarios: [{ email: 'nope' }] },
      }),
      400,
      'VALIDATION_FAILED',
    );
    expectError(
      await api('POST', `/api/pesquisas/${p.id}/envios`, {
        token: admin.token,
        body: { ...body, agenda_id: UNKNOWN_ID },
      }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await api('POST', `/api/pesquisas/${p.id}/envios`, { token: admin.token, regiao: 'MG', body }),
      404,
      'NOT_FOUND',
    );
    const owner = await makeUser({ role: 'EVENT_OWNER' });
    expectError(await api('POST', `/api/pesquisas/${p.id}/envios`, { token: owner.token, body }), 403, 'FORBIDDEN');
  });
});

describe('answering by link', () => {
  it("shows the survey and the event's accepted team; stores one answer; the link then answers 404", async () => {
    const admin = await makeAdmin();
    const { event, team, declined } = await makeEvent();
    const p = await makePesquisa(admin);
    const [token] = await sendTo(admin, p.id, event.id, 1);
    const view = await api('GET', `/p/pesquisas/${token}`);
    expect(view.status).toBe(200);
    expect(view.body.titulo).toBe('Satisfação');
    expect(view.body.perguntas).toHaveLength(PERGUNTAS.length);
    expect(view.body.equipe.map((e: any) => e.profissional_id).sort()).toEqual(team.map((t) => t.id).sort());
    expect(view.body.equipe.map((e: any) => e.profissional_id)).not.toContain(declined.id);
    expect(view.body.equipe[0]).toEqual({
      profissional_id: expect.any(String),
      nome: expect.any(String),
      funcao_nome: expect.any(String),
    });
    const res = await answer(token!, answers(p, team));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expectError(await answer(token!, answers(p, team)), 404, 'NOT_FOUND');
    expectError(await api('GET', `/p/pesquisas/${token}`), 404, 'NOT_FOUND');
    expectError(await api('GET', '/p/pesquisas/desconhecido'), 404, 'NOT_FOUND');
    // Non-anonymous: the response names its link and event.
    const [stored] = await db.select().from(pesquisaRespostas).where(eq(pesquisaRespostas.pesquisaId, p.id));
    expect(stored!.envioId).not.toBeNull();
    expect(stored!.agendaId).toBe(event.id);
  });

  it('an expired link, or one of a survey no longer ativa, answers 404', async () => {
    const admin = await makeAdmin();
    const { event, team } = await makeEvent();
    const p = await makePesquisa(admin);
    const [t1, t2] = await sendTo(admin, p.id, event.id, 2);
    const hashes = await db.select().from(pesquisaEnvios).where(eq(pesquisaEnvios.pesquisaId, p.id));
    await db
      .update(pesquisaEnvios)
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where(eq(pesquisaEnvios.id, hashes[0]!.id));
    const results = [await api('GET', `/p/pesquisas/${t1}`), await api('GET', `/p/pesquisas/${t2}`)];
    expect(results.map((r) => r.status).sort()).toEqual([200, 404]);
    await api('PUT', `/api/pesquisas/${p.id}`, { token: admin.token, body: { status: 'encerrada' } });
    for (const t of [t1, t2]) expectError(await answer(t!, answers(p, team)), 404, 'NOT_FOUND');
  });

  it('validates every answer strictly by kind, required questions and the team (400, nothing stored, link still live)', async () => {
    const admin = await makeAdmin();
    const { event, team, declined } = await makeEvent();
    const p = await makePesquisa(admin);
    const [token] = await sendTo(admin, p.id, event.id, 1);
    const q = p.perguntas;
    const ok = answers(p, team);
    const cases: unknown[] = [
      answers(p, team, { 0: 6 }),
      answers(p, team, { 0: 0 }),
      answers(p, team, { 0: 4.5 }),
      answers(p, team, { 0: '5' }),
      answers(p, team, { 1: 11 }),
      answers(p, team, { 1: -1 }),
      answers(p, team, { 2: 'Jantar' }),
      answers(p, team, { 2: ['Festa'] }),
      answers(p, team, { 3: [] }),
      answers(p, team, { 3: ['Fotos', 'Fotos'] }),
      answers(p, team, { 3: ['Drone'] }),
      answers(p, team, { 4: 7 }),
      answers(p, team, { 5: 'sim' }),
      ok.filter((a) => a.pergunta_id !== q[0].id), // required question missing
      ok.filter((a) => a.profissional_id !== team[1]!.id), // required criterio missing for one member
      [...ok, { pergunta_id: q[4].id, valor: 'de novo' }], // answered twice
      [...ok, { pergunta_id: q[6].id, profissional_id: team[0]!.id, valor: 3 }], // same member twice
      [...ok, { pergunta_id: q[6].id, profissional_id: declined.id, valor: 3 }], // not on the team
      ok.map((a) => (a.pergunta_id === q[6].id ? { ...a, profissional_id: undefined } : a)),
      [...ok.slice(0, 6).map((a, i) => (i === 0 ? { ...a, profissional_id: team[0]!.id } : a)), ...ok.slice(6)],
      [...ok, { pergunta_id: UNKNOWN_ID, valor: 1 }],
      [...ok.slice(0, 4), { pergunta_id: q[4].id, valor: 'a\u0007b' }, ...ok.slice(5)],
    ];
    for (const respostas of cases) expectError(await answer(token!, respostas), 400, 'VALIDATION_FAILED');
    expectError(await api('POST', `/p/pesquisas/${token}/respostas`, { body: {} }), 400, 'VALIDATION_FAILED');
    expectError(await answer(token!, []), 400, 'VALIDATION_FAILED');
    expect(await db.select().from(pesquisaRespostas).where(eq(pesquisaRespostas.pesquisaId, p.id))).toEqual([]);
    // Optional questions may be left out.
    expect(
      (
        await answer(
          token!,
          ok.filter((a) => a.pergunta_id !== q[4].id),
        )
      ).status,
    ).toBe(201);
  });

  it('10 parallel submissions with one link store exactly one response', async () => {
    const admin = await makeAdmin();
    const { event, team } = await makeEvent();
    const p = await makePesquisa(admin);
    const [token] = await sendTo(admin, p.id, event.id, 1);
    const results = await Promise.all(Array.from({ length: 10 }, () => answer(token!, answers(p, team))));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 404)).toHaveLength(9);
    const stored = await db.select().from(pesquisaRespostas).where(eq(pesquisaRespostas.pesquisaId, p.id));
    expect(stored).toHaveLength(1);
    const items = await db
      .select()
      .from(pesquisaRespostaItens)
      .where(eq(pesquisaRespostaItens.respostaId, stored[0]!.id));
    expect(items).toHaveLength(8);
    expect((await entriesOf(p.id, 'pesquisas.resposta')).length).toBe(1);
  });

  it('anonymous survey: no recipient is reachable from a response, nor a response from a link (database)', async () => {
    const admin = await makeAdmin();
    const { event, team } = await makeEvent();
    const p = await makePesquisa(admin, { anonima: true });
    const tokens = await sendTo(admin, p.id, event.id, 2);
    for (const t of tokens) expect((await answer(t, answers(p, team))).status).toBe(201);
    const responses = await db.select().from(pesquisaRespostas).where(eq(pesquisaRespostas.pesquisaId, p.id));
    expect(responses).toHaveLength(2);
    const links = await db.select().from(pesquisaEnvios).where(eq(pesquisaEnvios.pesquisaId, p.id));
    for (const r of responses) {
      expect(r.envioId).toBeNull();
      expect(r.agendaId).toBeNull();
      expect(r.createdAt).toMatch(/T00:00:00\.000Z$/); // the day only: no timing to match with a link
      const text = JSON.stringify(r);
      for (const l of links) {
        expect(text).not.toContain(l.id);
        expect(text).not.toContain(l.email);
      }
    }
    for (const l of links) {
      expect(l.usadoEm).toMatch(/T00:00:00\.000Z$/);
      const text = JSON.stringify(l);
      for (const r of responses) expect(text).not.toContain(r.id);
    }
    // No table row links them either: no column of the response or its items holds a link id.
    const items = await db
      .select()
      .from(pesquisaRespostaItens)
      .where(
        inArray(
          pesquisaRespostaItens.respostaId,
          responses.map((r) => r.id),
        ),
      );
    for (const l of links) expect(JSON.stringify(items)).not.toContain(l.id);
    // The log names the survey only.
    for (const e of await entriesOf(p.id, 'pesquisas.resposta')) expect(e.dados).toEqual({});
  });
});

describe('results and CSV', () => {
  it('per question n, media, distribuicao, NPS, options, texts and per professional, against hand-computed figures', async () => {
    const admin = await makeAdmin();
    const { event, team } = await makeEvent();
    const p = await makePesquisa(admin);
    // NPS answers 10, 9, 9, 8, 5, 0, 10: 4 promoters, 2 detractors of 7 → (4 - 2) / 7 = 28.57
    const nps = [10, 9, 9, 8, 5, 0, 10];
    const notas = [5, 4, 4, 3, 5, 2, 1]; // mean 24 / 7 = 3.428... → 3.43
    const tokens = await sendTo(admin, p.id, event.id, 7);
    for (let i = 0; i < 7; i++) {
      const res = await answer(
        tokens[i]!,
        answers(
          p,
          team,
          {
            0: notas[i],
            1: nps[i],
            2: i < 4 ? 'Festa' : 'Entrada',
            3: i < 2 ? ['Vídeo'] : ['Fotos', 'Vídeo'],
            5: i % 2 === 0,
          },
          [4, i < 3 ? 5 : 3],
        ),
      );
      expect(res.status).toBe(201);
    }
    const r = await api('GET', `/api/pesquisas/${p.id}/resultados`, { token: admin.token });
    expect(r.status).toBe(200);
    expect(r.body.respostas).toBe(7);
    const [nota, npsQ, unica, multipla, texto, simNao, criterio] = r.body.perguntas;
    expect(nota).toMatchObject({
      n: 7,
      media: 3.43,
      retido: false,
      distribuicao: { 1: 1, 2: 1, 3: 1, 4: 2, 5: 2 },
      nps: null,
    });
    expect(npsQ).toMatchObject({ n: 7, nps: 28.57, media: 7.29 }); // 51 / 7 = 7.2857
    expect(npsQ.distribuicao).toMatchObject({ 0: 1, 5: 1, 8: 1, 9: 2, 10: 2, 1: 0 });
    expect(unica.opcoes).toEqual([
      { opcao: 'Entrada', total: 3 },
      { opcao: 'Colação', total: 0 },
      { opcao: 'Festa', total: 4 },
    ]);
    expect(multipla.opcoes).toEqual([
      { opcao: 'Fotos', total: 5 },
      { opcao: 'Vídeo', total: 7 },
      { opcao: 'Totem', total: 0 },
    ]);
    expect(texto.textos).toHaveLength(7);
    expect(simNao.opcoes).toEqual([
      { opcao: 'sim', total: 4 },
      { opcao: 'nao', total: 3 },
    ]);
    expect(criterio.n).toBe(14);
    const byProf = Object.fromEntries(criterio.por_profissional.map((x: any) => [x.profissional_id, x]));
    expect(byProf[team[0]!.id]).toMatchObject({ n: 7, media: 4 });
    expect(byProf[team[1]!.id]).toMatchObject({ n: 7, media: 3.86 }); // (5*3 + 3*4) / 7 = 27 / 7
    expectError(
      await api('GET', `/api/pesquisas/${p.id}/resultados`, { token: admin.token, regiao: 'MG' }),
      404,
      'NOT_FOUND',
    );
    expectError(await api('GET', `/api/pesquisas/${UNKNOWN_ID}/resultados`, { token: admin.token }), 404, 'NOT_FOUND');
  });

  it('anonymous survey: figures over fewer than 3 answers are withheld', async () => {
    const admin = await makeAdmin();
    const { event, team } = await makeEvent();
    const p = await makePesquisa(admin, { anonima: true });
    const tokens = await sendTo(admin, p.id, event.id, 3);
    // Two answers: everything withheld but n.
    for (const t of tokens.slice(0, 2)) await answer(t, answers(p, team));
    let r = await api('GET', `/api/pesquisas/${p.id}/resultados`, { token: admin.token });
    for (const q of r.body.perguntas.slice(0, 6)) {
      expect(q).toMatchObject({
        n: 2,
        retido: true,
        media: null,
        distribuicao: null,
        nps: null,
        opcoes: null,
        textos: null,
      });
    }
    expect(r.body.perguntas[6].por_profissional.every((x: any) => x.retido && x.media === null)).toBe(true);
    const csv = await send('GET', `/api/pesquisas/${p.id}/respostas.csv`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    // Each question's count only: no figure, no professional.
    const rows = (await csv.text()).trim().split('\r\n').slice(1);
    expect(rows).toHaveLength(PERGUNTAS.length);
    expect(rows.every((l) => /^\d+,[^,]+,,,n,,\d+$/.test(l))).toBe(true);
    // A third answer: shown.
    await answer(tokens[2]!, answers(p, team));
    r = await api('GET', `/api/pesquisas/${p.id}/resultados`, { token: admin.token });
    expect(r.body.perguntas[0]).toMatchObject({ n: 3, retido: false, media: 5 });
    expect(r.body.perguntas[6].por_profissional.every((x: any) => !x.retido)).toBe(true);
  });

  it('respostas.csv: text/csv with a header, one line per answer, formula cells escaped', async () => {
    const admin = await makeAdmin();
    const { event, team } = await makeEvent();
    const p = await makePesquisa(admin);
    const [token] = await sendTo(admin, p.id, event.id, 1);
    await answer(token!, answers(p, team, { 4: '=HYPERLINK("http://x")' }));
    const res = await send('GET', `/api/pesquisas/${p.id}/respostas.csv`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const lines = (await res.text()).trim().split('\r\n');
    expect(lines[0]).toBe(
      'resposta_id,data,email,agenda_id,pergunta_ordem,pergunta,profissional_id,profissional,valor',
    );
    expect(lines).toHaveLength(1 + 8);
    expect(lines.some((l) => l.endsWith(`"'=HYPERLINK(""http://x"")"`))).toBe(true);
    expect(lines.some((l) => l.endsWith('"Fotos; Totem"'))).toBe(true);
    const viewer = await makeUser({ role: 'agenda_viewer' });
    expectError(await api('GET', `/api/pesquisas/${p.id}/respostas.csv`, { token: viewer.token }), 403, 'FORBIDDEN');
    expectError(
      await api('GET', `/api/pesquisas/${UNKNOWN_ID}/respostas.csv`, { token: admin.token }),
      404,
      'NOT_FOUND',
    );
  });

  it('respostas.csv of a non-anonymous survey: exactly as before (each answer with its e-mail, event and time)', async () => {
    const admin = await makeAdmin();
    const { event, team } = await makeEvent();
    const p = await makePesquisa(admin);
    const tokens = await sendTo(admin, p.id, event.id, 2);
    const sets = [answers(p, team, { 4: '=1+1' }, [4, 5]), answers(p, team, { 0: 2, 3: ['Vídeo'], 5: false }, [3, 1])];
    for (const [i, t] of tokens.entries()) expect((await answer(t, sets[i])).status).toBe(201);
    const res = await send('GET', `/api/pesquisas/${p.id}/respostas.csv`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    // The expected file, built from what was sent and the stored rows (ids, times, addresses).
    const stored = (await db.select().from(pesquisaRespostas).where(eq(pesquisaRespostas.pesquisaId, p.id))).sort(
      (x, y) => (x.createdAt < y.createdAt ? -1 : x.createdAt > y.createdAt ? 1 : x.id < y.id ? -1 : 1),
    );
    const links = await db.select().from(pesquisaEnvios).where(eq(pesquisaEnvios.pesquisaId, p.id));
    const textos = await db
      .select()
      .from(pesquisaRespostaItens)
      .where(
        inArray(
          pesquisaRespostaItens.respostaId,
          stored.map((r) => r.id),
        ),
      );
    const byId = new Map(p.perguntas.map((q: any) => [q.id, q]));
    const nomes = new Map(team.map((t) => [t.id, t.nome]));
    const cell = (v: string) => (v.startsWith('=') ? `'${v}` : v.includes(';') ? `"${v}"` : v);
    const expected = ['resposta_id,data,email,agenda_id,pergunta_ordem,pergunta,profissional_id,profissional,valor'];
    for (const r of stored) {
      const texto = textos.find((x) => x.respostaId === r.id && x.texto !== null)!.texto;
      const set = sets.find((a) => a.some((x: any) => x.valor === texto))!;
      const email = links.find((l) => l.id === r.envioId)!.email;
      const items = [...set].sort((x: any, y: any) => {
        const d = (byId.get(x.pergunta_id) as any).ordem - (byId.get(y.pergunta_id) as any).ordem;
        return d || (x.profissional_id < y.profissional_id ? -1 : 1);
      });
      for (const it of items) {
        const q: any = byId.get(it.pergunta_id);
        const valor =
          typeof it.valor === 'boolean'
            ? it.valor
              ? 'sim'
              : 'nao'
            : Array.isArray(it.valor)
              ? it.valor.join('; ')
              : String(it.valor);
        expected.push(
          [
            r.id,
            r.createdAt,
            email,
            event.id,
            q.ordem,
            q.texto,
            it.profissional_id ?? '',
            nomes.get(it.profissional_id) ?? '',
            cell(valor),
          ].join(','),
        );
      }
    }
    expect(res.status).toBe(200);
    // Decoded keeping the BOM (res.text() drops it), so the bytes are compared too.
    const body = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(await res.arrayBuffer());
    expect(body).toBe(`\uFEFF${expected.join('\r\n')}\r\n`);
    expect(stored.every((r) => !r.createdAt.endsWith('T00:00:00.000Z'))).toBe(true); // exact times there
  });

  it('anonymous respostas.csv: figures only; no line ties an answer to its event, team, time or other answers; a professional below the minimum has no line', async () => {
    const admin = await makeAdmin();
    const a = await makeEvent('SP', '2027-06-10', 2);
    const b = await makeEvent('SP', '2027-06-11', 3);
    const p = await makePesquisa(admin, { anonima: true });
    // Event A (team of 2): three responses; event B (team of 3): one. Texts sent in no sorted order.
    const textosA = ['Zebra no cenário', 'Adorei as fotos', 'Mais ou menos'];
    const textoB = 'Faltou o totem';
    const tokensA = await sendTo(admin, p.id, a.event.id, 3);
    const [tokenB] = await sendTo(admin, p.id, b.event.id, 1);
    for (const [i, t] of tokensA.entries())
      expect((await answer(t, answers(p, a.team, { 0: 3 + i, 4: textosA[i] }, [5, 3 + i]))).status).toBe(201);
    expect((await answer(tokenB!, answers(p, b.team, { 0: 1, 4: textoB }, [1, 2, 1]))).status).toBe(201);

    const res = await send('GET', `/api/pesquisas/${p.id}/respostas.csv`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    const { header, rows } = parseCsv(text);
    const cells = rows.map((r) => r.cells);
    expect(header).toEqual([
      'pergunta_ordem',
      'pergunta',
      'profissional_id',
      'profissional',
      'medida',
      'categoria',
      'valor',
    ]);
    // Nothing names a response, a link, a recipient, an event or a day.
    const stored = await db.select().from(pesquisaRespostas).where(eq(pesquisaRespostas.pesquisaId, p.id));
    const links = await db.select().from(pesquisaEnvios).where(eq(pesquisaEnvios.pesquisaId, p.id));
    expect(stored).toHaveLength(4);
    for (const secret of [...stored.map((r) => r.id), ...links.flatMap((l) => [l.id, l.email]), a.event.id, b.event.id])
      expect(text).not.toContain(secret);
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    // Event B's team was rated by one answer each (below the minimum): no trace of them.
    for (const m of b.team) {
      expect(text).not.toContain(m.id);
      expect(text).not.toContain(m.nome);
    }
    // Each line is one figure (a count, a mean, an option's count...) or one text, never an answer's row.
    expect(new Set(cells.map((c) => c[4]))).toEqual(new Set(['n', 'media', 'nps', 'distribuicao', 'opcao', 'texto']));
    // The texts: alone on their lines (the question and the text), sorted, not in the order they came.
    const textLines = cells.filter((c) => c[4] === 'texto');
    expect(textLines).toEqual(
      [...textosA, textoB]
        .sort((x, y) => x.localeCompare(y, 'pt-BR'))
        .map((t) => ['5', 'Comentários', '', '', 'texto', '', t]),
    );
    // Per question, the figures of /resultados.
    expect(cells.filter((c) => c[0] === '1')).toEqual([
      ['1', 'Nota geral', '', '', 'n', '', '4'],
      ['1', 'Nota geral', '', '', 'media', '', '3.25'], // (3 + 4 + 5 + 1) / 4
      ...[1, 0, 1, 1, 1].map((n, v) => ['1', 'Nota geral', '', '', 'distribuicao', String(v + 1), String(n)]),
    ]);
    expect(cells.filter((c) => c[0] === '6')).toEqual([
      ['6', 'Voltaria?', '', '', 'n', '', '4'],
      ['6', 'Voltaria?', '', '', 'opcao', 'sim', '4'],
      ['6', 'Voltaria?', '', '', 'opcao', 'nao', '0'],
    ]);
    // The criterio question: event A's professionals as aggregates of their 3 answers; no figure over
    // the whole question (with theirs it would give away event B's ratings).
    const [ana, bruno] = a.team;
    expect(cells.filter((c) => c[0] === '7')).toEqual([
      ['7', 'Qualidade técnica', '', '', 'n', '', '9'],
      ['7', 'Qualidade técnica', ana!.id, ana!.nome, 'n', '', '3'],
      ['7', 'Qualidade técnica', ana!.id, ana!.nome, 'media', '', '5'],
      ['7', 'Qualidade técnica', bruno!.id, bruno!.nome, 'n', '', '3'],
      ['7', 'Qualidade técnica', bruno!.id, bruno!.nome, 'media', '', '4'], // (3 + 4 + 5) / 3
    ]);
    const r = await api('GET', `/api/pesquisas/${p.id}/resultados`, { token: admin.token });
    expect(r.body.perguntas[0].media).toBe(3.25);
    expect(r.body.perguntas[1].nps).toBe(100);
    expect(cells.find((c) => c[0] === '2' && c[4] === 'nps')![6]).toBe('100');
  });
});

describe('anonymous results: no single answer can be worked out', () => {
  /** What anyone reading /resultados could compute: the withheld ratings' sum, from the figures over all ratings minus the shown ones. */
  const withheldSum = (q: any) =>
    q.media === null
      ? null
      : Math.round(
          q.n * q.media -
            q.por_profissional.filter((x: any) => !x.retido).reduce((t: number, x: any) => t + x.n * x.media, 0),
        );
  const csvOf = async (admin: TestUser, id: string) =>
    parseCsv(
      await (
        await send('GET', `/api/pesquisas/${id}/respostas.csv`, { headers: { authorization: `Bearer ${admin.token}` } })
      ).text(),
    ).rows.map((r) => r.cells);

  it("a withheld professional's rating cannot be derived from the question's figures next to the others' (resultados and CSV)", async () => {
    const admin = await makeAdmin();
    const a = await makeEvent('SP', '2027-06-10', 2);
    const b = await makeEvent('SP', '2027-06-11', 1);
    const p = await makePesquisa(admin, { anonima: true });
    // Event A: three responses (Ana 5, 5, 5; Bruno 3, 4, 5). Event B: one response rating Dora 2.
    for (const [i, t] of (await sendTo(admin, p.id, a.event.id, 3)).entries())
      expect((await answer(t, answers(p, a.team, {}, [5, 3 + i]))).status).toBe(201);
    const tokensB = await sendTo(admin, p.id, b.event.id, 3);
    expect((await answer(tokensB[0]!, answers(p, b.team, {}, [2]))).status).toBe(201);

    let r = await api('GET', `/api/pesquisas/${p.id}/resultados`, { token: admin.token });
    let q = r.body.perguntas[6];
    const [dora] = b.team;
    const byProf = () => Object.fromEntries(q.por_profissional.map((x: any) => [x.profissional_id, x]));
    expect(byProf()[a.team[0]!.id]).toMatchObject({ n: 3, retido: false, media: 5 });
    expect(byProf()[a.team[1]!.id]).toMatchObject({ n: 3, retido: false, media: 4 });
    expect(byProf()[dora!.id]).toMatchObject({ n: 1, retido: true, media: null });
    // The old answer: media 29 / 7 = 4.14 and distribuicao {2: 1, ...}, so 7 * 4.14 - 15 - 12 = 2 was Dora's.
    expect(withheldSum(q)).toBeNull();
    expect(q).toMatchObject({ n: 7, retido: true, media: null, distribuicao: null });
    // The other questions (four responses) are shown as before.
    expect(r.body.perguntas[0]).toMatchObject({ n: 4, retido: false, media: 5 });
    // The CSV follows: the question's count and the shown professionals, nothing over all ratings.
    let rows = (await csvOf(admin, p.id)).filter((c) => c[0] === '7');
    expect(rows.filter((c) => c[2] === '').map((c) => c[4])).toEqual(['n']);
    expect(rows.some((c) => c[2] === dora!.id)).toBe(false);

    // Two more responses for event B: Dora (2, 3, 4) is shown, and so are the figures over all ratings.
    for (const [i, t] of tokensB.slice(1).entries())
      expect((await answer(t, answers(p, b.team, {}, [3 + i]))).status).toBe(201);
    r = await api('GET', `/api/pesquisas/${p.id}/resultados`, { token: admin.token });
    q = r.body.perguntas[6];
    expect(byProf()[dora!.id]).toMatchObject({ n: 3, retido: false, media: 3 });
    expect(q).toMatchObject({ n: 9, retido: false, media: 4, distribuicao: { 1: 0, 2: 1, 3: 2, 4: 2, 5: 4 } }); // 36 / 9
    rows = (await csvOf(admin, p.id)).filter((c) => c[0] === '7' && c[2] === '');
    expect(rows.map((c) => [c[4], c[5], c[6]])).toEqual([
      ['n', '', '9'],
      ['media', '', '4'],
      ...[0, 1, 2, 2, 4].map((n, v) => ['distribuicao', String(v + 1), String(n)]),
    ]);
  });

  it('one response rating a team of three shows none of the ratings: the minimum counts responses, not ratings', async () => {
    const admin = await makeAdmin();
    const { event, team } = await makeEvent('SP', '2027-06-10', 3);
    const p = await makePesquisa(admin, { anonima: true });
    const [token] = await sendTo(admin, p.id, event.id, 1);
    expect((await answer(token!, answers(p, team, {}, [1, 2, 1]))).status).toBe(201);
    const r = await api('GET', `/api/pesquisas/${p.id}/resultados`, { token: admin.token });
    const q = r.body.perguntas[6];
    // Three ratings, one client: the old answer showed media 1.33 and distribuicao {1: 2, 2: 1}.
    expect(q).toMatchObject({ n: 3, retido: true, media: null, distribuicao: null });
    expect(q.por_profissional).toHaveLength(3);
    for (const x of q.por_profissional) expect(x).toMatchObject({ n: 1, retido: true, media: null });
    const rows = (await csvOf(admin, p.id)).filter((c) => c[0] === '7');
    expect(rows).toEqual([['7', 'Qualidade técnica', '', '', 'n', '', '3']]);
  });

  it('a survey that is not anonymous shows every figure, however few the responses', async () => {
    const admin = await makeAdmin();
    const { event, team } = await makeEvent('SP', '2027-06-10', 3);
    const p = await makePesquisa(admin);
    const [token] = await sendTo(admin, p.id, event.id, 1);
    expect((await answer(token!, answers(p, team, {}, [1, 2, 1]))).status).toBe(201);
    const r = await api('GET', `/api/pesquisas/${p.id}/resultados`, { token: admin.token });
    const q = r.body.perguntas[6];
    expect(q).toMatchObject({ n: 3, retido: false, media: 1.33, distribuicao: { 1: 2, 2: 1, 3: 0, 4: 0, 5: 0 } });
    expect(q.por_profissional.every((x: any) => !x.retido && x.media !== null)).toBe(true);
  });

  it("respostas.csv writes numbers as they are (a negative NPS is -33.33, not '-33.33); text cells stay formula-escaped", async () => {
    const admin = await makeAdmin();
    const { event, team } = await makeEvent();
    const p = await makePesquisa(admin, { anonima: true });
    const tokens = await sendTo(admin, p.id, event.id, 3);
    // NPS 0, 5, 10: one promoter, two detractors of 3 → -33.33. Texts that a spreadsheet would run.
    const textos = ['-1+1', '=SUM(A1)', '+55 11'];
    for (const [i, t] of tokens.entries())
      expect((await answer(t, answers(p, team, { 1: [0, 5, 10][i], 4: textos[i] }))).status).toBe(201);
    const r = await api('GET', `/api/pesquisas/${p.id}/resultados`, { token: admin.token });
    expect(r.body.perguntas[1].nps).toBe(-33.33);
    const res = await send('GET', `/api/pesquisas/${p.id}/respostas.csv`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    const lines = (await res.text()).split('\r\n');
    expect(lines).toContain('2,Recomendaria?,,,nps,,-33.33');
    for (const t of textos) expect(lines).toContain(`5,Comentários,,,texto,,'${t}`);
  });
});

describe('scheduled job enviar-pesquisas', () => {
  it("the day after an event of the survey's type, one link to each EVENT_OWNER of its company, once whatever the runs", async () => {
    const admin = await makeAdmin();
    const { event, tipo, fot } = await makeEvent('SP', '2031-05-10');
    const owners = [
      await makeUser({ role: 'EVENT_OWNER', empresaId: fot.empresaId }),
      await makeUser({ role: 'EVENT_OWNER', empresaId: fot.empresaId }),
    ];
    await makeUser({ role: 'EVENT_OWNER', empresaId: fot.empresaId, ativo: false });
    const p = await makePesquisa(admin, { tipo_evento_id: tipo.id });
    await makePesquisa(admin, { tipo_evento_id: tipo.id, publico: 'formando' }); // not a client survey
    const job = { 'enviar-pesquisas': jobs['enviar-pesquisas']! };
    // The event's own day (São Paulo): nothing yet.
    expect(await runScheduled(env, new Date('2031-05-10T23:00:00.000Z'), job)).toEqual({ 'enviar-pesquisas': 0 });
    const nextDay = new Date('2031-05-11T12:00:00.000Z');
    const runs = await Promise.all([runScheduled(env, nextDay, job), runScheduled(env, nextDay, job)]);
    expect(runs.reduce((a, r) => a + (r['enviar-pesquisas'] as number), 0)).toBe(2);
    expect(await runScheduled(env, nextDay, job)).toEqual({ 'enviar-pesquisas': 0 });
    const links = await db.select().from(pesquisaEnvios).where(eq(pesquisaEnvios.agendaId, event.id));
    expect(links.map((l) => l.usuarioId).sort()).toEqual(owners.map((o) => o.id).sort());
    expect(links.every((l) => l.pesquisaId === p.id)).toBe(true);
    const mails = await db
      .select()
      .from(emailOutbox)
      .where(
        and(
          inArray(
            emailOutbox.para,
            owners.map((o) => o.email),
          ),
          eq(emailOutbox.tipo, 'pesquisa'),
        ),
      );
    expect(mails).toHaveLength(2);
    expect((await entriesOf(p.id, 'pesquisas.envio_automatico')).length).toBe(2);
    // A closed survey sends nothing more.
    await db.update(pesquisas).set({ status: 'encerrada' }).where(eq(pesquisas.id, p.id));
  });
});

describe('client ratings (avaliacao_clientes)', () => {
  it('Bayesian means per criterion against hand-computed figures, on the list, by id and at /api/me/avaliacoes', async () => {
    // Region MG only: no other test of this file answers there, so the region means are these answers'.
    const admin = await makeAdmin();
    const { event, team, foto } = await makeEvent('MG');
    const a = team[0]!;
    const b = team[1]!;
    const bUser = await makeUser({ role: 'profissional' });
    await db.update(profissionais).set({ usuarioId: bUser.id }).where(eq(profissionais.id, b.id));
    const c = await makeProfissional('MG', {}, [foto.id]);
    await db.insert(convites).values({ agendaId: event.id, profissionalId: c.id, funcaoId: foto.id, status: 'aceito' });
    const criterios = [
      { texto: 'Qualidade técnica', tipo: 'nota_1_5', criterio: 'qual_tec' },
      { texto: 'Simpatia', tipo: 'nota_1_5', criterio: 'educacao_simpatia' },
    ];
    const p = await makePesquisa(admin, { perguntas: criterios }, 'MG');
    const peers = await makePesquisa(admin, { perguntas: criterios, publico: 'profissional' }, 'MG');
    const send = async (id: string, n: number) => {
      const emails = Array.from({ length: n }, () => `${uniq('mg')}@example.com`);
      const res = await api('POST', `/api/pesquisas/${id}/envios`, {
        token: admin.token,
        regiao: 'MG',
        body: { agenda_id: event.id, destinatarios: emails.map((email) => ({ email })) },
      });
      expect(res.status).toBe(201);
      return tokensFor(emails);
    };
    const [t1, t2] = await send(p.id, 2);
    const [q0, q1] = p.perguntas;
    const r = (qid: string, pid: string, valor: number) => ({ pergunta_id: qid, profissional_id: pid, valor });
    expect(
      (await answer(t1!, [r(q0.id, a.id, 5), r(q0.id, b.id, 3), r(q1.id, a.id, 5), r(q1.id, b.id, 3)])).status,
    ).toBe(201);
    expect((await answer(t2!, [r(q0.id, a.id, 5), r(q0.id, b.id, 2), r(q1.id, a.id, 5)])).status).toBe(201);
    // A colleague's rating (publico profissional) is not a client rating: ignored.
    const [tp] = await send(peers.id, 1);
    expect((await answer(tp!, [r(peers.perguntas[0].id, a.id, 1)])).status).toBe(201);

    // qual_tec: m = (5 + 3 + 5 + 2) / 4 = 3.75; educacao_simpatia: m = (5 + 3 + 5) / 3 = 13/3.
    // A: qual (5*3.75 + 10) / 7 = 4.107 → 4.11; educ (5*13/3 + 10) / 7 = 4.524 → 4.52.
    // B: qual (5*3.75 + 5) / 7 = 3.393 → 3.39; educ (5*13/3 + 3) / 6 = 4.111 → 4.11; media (3.39 + 4.11) / 2 = 3.75.
    const expectedB = {
      qual_tec: 3.39,
      educacao_simpatia: 4.11,
      desempenho_evento: null,
      disp_horario: null,
      media: 3.75,
      respostas: 2,
    };
    const list = await api('GET', '/api/profissionais', { token: admin.token, regiao: 'MG' });
    expect(list.status).toBe(200);
    const byId = Object.fromEntries(list.body.map((x: any) => [x.id, x.avaliacao_clientes]));
    expect(byId[a.id]).toMatchObject({
      qual_tec: 4.11,
      educacao_simpatia: 4.52,
      desempenho_evento: null,
      respostas: 2,
    });
    expect(byId[a.id].media).toBe(4.32); // (4.11 + 4.52) / 2 = 4.315, half up
    expect(byId[b.id]).toEqual(expectedB);
    expect(byId[c.id]).toEqual({
      qual_tec: null,
      educacao_simpatia: null,
      desempenho_evento: null,
      disp_horario: null,
      media: null,
      respostas: 0,
    });
    // Paged: the same figures for the page's professionals.
    const paged = await api('GET', '/api/profissionais?limit=500', { token: admin.token, regiao: 'MG' });
    expect(paged.body.find((x: any) => x.id === b.id).avaliacao_clientes).toEqual(expectedB);
    const one = await api('GET', `/api/profissionais/${b.id}`, { token: admin.token, regiao: 'MG' });
    expect(one.body.avaliacao_clientes).toEqual(expectedB);
    // The administrators' own ratings (D8) are untouched.
    expect(one.body.qual_tec).toBeNull();
    const mine = await api('GET', '/api/me/avaliacoes', { token: bUser.token });
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual({
      profissional_id: b.id,
      nome: expect.any(String),
      regiao: 'MG',
      avaliacao_clientes: expectedB,
    });
  });

  it('GET /api/me/avaliacoes: 404 without a profile, 403 for other roles', async () => {
    const pro = await makeUser({ role: 'profissional' });
    expectError(await api('GET', '/api/me/avaliacoes', { token: pro.token }), 404, 'NOT_FOUND');
    const researcher = await makeUser({ role: 'RESEARCHER' });
    expectError(await api('GET', '/api/me/avaliacoes', { token: researcher.token }), 403, 'FORBIDDEN');
  });
});
