import { env } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  campanhaParticipacoes,
  campanhaRespostas,
  campanhasDisponibilidade,
  disponibilidades,
  notifications,
} from '../../../src/db/schema';
import {
  CampanhaDetalheSchema,
  CampanhaSchema,
  RespostasSchema,
  ResultadoSchema,
} from '../../../src/routes/availability/campanhas.schemas';
import { lembrarCampanhasJob } from '../../../src/scheduled/campanhas';
import { acceptedOn, day, eventOn } from '../../helpers/availability';
import { db, makeAdmin, makeFuncao, makePro, makeProfissional, makeUser, type TestUser } from '../../helpers/factories';
import { api, expectError, UNKNOWN_ID } from '../../helpers/request';
import { entriesOf, runCron } from '../../helpers/activity-log';

const P = '/api/campanhas-disponibilidade';

async function season(admin: TestUser, funcaoIds: string[], over: Record<string, unknown> = {}) {
  const res = await api('POST', P, {
    token: admin.token,
    body: { nome: 'Formaturas de dezembro', de: day(10), ate: day(16), funcao_ids: funcaoIds, prazo: day(5), ...over },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string };
}

const notesOf = (userId: string, tipo: string) =>
  db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.tipo, tipo)));

const answer = (token: string, id: string, datas: { data: string; resposta: string }[]) =>
  api('PUT', `${P}/${id}/respostas`, { token, body: { datas } });

describe('the season poll', () => {
  it('creates and notifies every active holder of its functions in the region, in the same batch', async () => {
    const admin = await makeAdmin();
    const foto = await makeFuncao();
    const cine = await makeFuncao();
    const other = await makeFuncao();
    const a = await makePro('SP', [foto.id]);
    const b = await makePro('SP', [cine.id, foto.id]);
    const c = await makePro('SP', [other.id]);
    const inactive = await makeUser({ role: 'profissional', ativo: false });
    await makeProfissional('SP', { usuarioId: inactive.id }, [foto.id]);
    const res = await api('POST', P, {
      token: admin.token,
      body: { nome: 'Dezembro', de: day(10), ate: day(40), funcao_ids: [foto.id, cine.id], prazo: day(5) },
    });
    expect(res.status).toBe(201);
    expect(CampanhaSchema.safeParse(res.body).error).toBeUndefined();
    expect(res.body).toMatchObject({ nome: 'Dezembro', prazo: day(5), encerrada_em: null, lembrete_em: null });
    expect(res.body.funcao_ids).toEqual([foto.id, cine.id].sort());
    expect(await notesOf(a.user.id, 'campanha_disponibilidade')).toHaveLength(1);
    const [note] = await notesOf(b.user.id, 'campanha_disponibilidade');
    expect(note!.dados).toEqual({ campanha_id: res.body.id });
    expect(await notesOf(c.user.id, 'campanha_disponibilidade')).toHaveLength(0);
    expect(await notesOf(inactive.id, 'campanha_disponibilidade')).toHaveLength(0);
    expect(await entriesOf(res.body.id, 'campanhas_disponibilidade.create')).toHaveLength(1);
    // who sees it: administrators; holders of its functions; not the others
    expect((await api('GET', P, { token: admin.token })).body.map((x: { id: string }) => x.id)).toContain(res.body.id);
    expect((await api('GET', P, { token: a.user.token })).body.map((x: { id: string }) => x.id)).toContain(res.body.id);
    expect((await api('GET', P, { token: c.user.token })).body.map((x: { id: string }) => x.id)).not.toContain(
      res.body.id,
    );
    expectError(await api('GET', `${P}/${res.body.id}`, { token: c.user.token }), 404, 'NOT_FOUND');
    expectError(await api('GET', `${P}/${res.body.id}`, { token: admin.token, regiao: 'MG' }), 404, 'NOT_FOUND');
  });

  it('validates the body and the functions of the region', async () => {
    const admin = await makeAdmin();
    const f = await makeFuncao();
    const mg = await makeFuncao('MG');
    const base = { nome: 'X', de: day(10), ate: day(20), funcao_ids: [f.id], prazo: day(5) };
    for (const over of [
      { ate: day(9) },
      { ate: day(131) },
      { prazo: day(21) },
      { funcao_ids: [] },
      { funcao_ids: [f.id, f.id] },
      { nome: ' ' },
      { prazo: day(-1) },
    ])
      expectError(await api('POST', P, { token: admin.token, body: { ...base, ...over } }), 400, 'VALIDATION_FAILED');
    expectError(await api('POST', P, { token: admin.token, body: { ...base, funcao_ids: [mg.id] } }), 404, 'NOT_FOUND');
  });

  it('answers replace the previous one; a nao becomes a declaration (origem campanha); the result counts the silent', async () => {
    const admin = await makeAdmin();
    const foto = await makeFuncao();
    const cine = await makeFuncao();
    const a = await makePro('SP', [foto.id]);
    const b = await makePro('SP', [foto.id, cine.id]);
    await makePro('SP', [foto.id]); // silent
    const camp = await season(admin, [foto.id, cine.id]);

    const first = await answer(a.user.token, camp.id, [
      { data: day(10), resposta: 'nao' },
      { data: day(11), resposta: 'nao' },
      { data: day(12), resposta: 'sim' },
    ]);
    expect(first.status).toBe(200);
    expect(RespostasSchema.safeParse(first.body).error).toBeUndefined();
    let decls = await db.select().from(disponibilidades).where(eq(disponibilidades.profissionalId, a.prof.id));
    expect(decls.map((d) => [d.dataInicio, d.dataFim, d.tipo, d.origem, d.campanhaId]).sort()).toEqual([
      [day(10), day(10), 'indisponivel', 'campanha', camp.id],
      [day(11), day(11), 'indisponivel', 'campanha', camp.id],
    ]);
    // replaced whole: day 11 is now talvez, day 13 nao
    const second = await answer(a.user.token, camp.id, [
      { data: day(11), resposta: 'talvez' },
      { data: day(13), resposta: 'nao' },
    ]);
    expect(second.status).toBe(200);
    decls = await db.select().from(disponibilidades).where(eq(disponibilidades.profissionalId, a.prof.id));
    expect(decls.map((d) => d.dataInicio)).toEqual([day(13)]);
    const mine = await api('GET', `${P}/${camp.id}`, { token: a.user.token });
    expect(CampanhaDetalheSchema.safeParse(mine.body).error).toBeUndefined();
    expect(mine.body.minhas_respostas).toEqual([
      { data: day(11), resposta: 'talvez' },
      { data: day(13), resposta: 'nao' },
    ]);
    expect(await answer(b.user.token, camp.id, [{ data: day(13), resposta: 'sim' }])).toMatchObject({ status: 200 });

    const res = await api('GET', `${P}/${camp.id}/resultado`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(ResultadoSchema.safeParse(res.body).error).toBeUndefined();
    expect(res.body.linhas).toHaveLength(7 * 2);
    const row = (data: string, f: string) =>
      res.body.linhas.find((l: { data: string; funcao_id: string }) => l.data === data && l.funcao_id === f);
    expect(row(day(13), foto.id)).toMatchObject({ titulares: 3, sim: 1, talvez: 0, nao: 1, sem_resposta: 1 });
    expect(row(day(13), cine.id)).toMatchObject({ titulares: 1, sim: 1, nao: 0, sem_resposta: 0 });
    expect(row(day(11), foto.id)).toMatchObject({ titulares: 3, talvez: 1, sem_resposta: 2 });
    expect(row(day(16), foto.id)).toMatchObject({ titulares: 3, sim: 0, sem_resposta: 3 });
    // a planner (agenda_viewer) reads it; another region does not find it
    const viewer = await makeUser({ role: 'agenda_viewer' });
    expect((await api('GET', `${P}/${camp.id}/resultado`, { token: viewer.token })).status).toBe(200);
    expectError(await api('GET', `${P}/${camp.id}/resultado`, { token: admin.token, regiao: 'MG' }), 404, 'NOT_FOUND');
    expectError(await api('GET', `${P}/${UNKNOWN_ID}/resultado`, { token: admin.token }), 404, 'NOT_FOUND');
  });

  it('refuses dates outside the poll, non-holders, a nao over an accepted invitation (HAS_ASSIGNMENT), and after the close', async () => {
    const admin = await makeAdmin();
    const f = await makeFuncao();
    const a = await makePro('SP', [f.id]);
    const outsider = await makePro('SP', [(await makeFuncao()).id]);
    const camp = await season(admin, [f.id]);
    expectError(await answer(a.user.token, camp.id, [{ data: day(9), resposta: 'sim' }]), 400, 'VALIDATION_FAILED');
    expectError(
      await answer(a.user.token, camp.id, [
        { data: day(10), resposta: 'sim' },
        { data: day(10), resposta: 'nao' },
      ]),
      400,
      'VALIDATION_FAILED',
    );
    expectError(await answer(outsider.user.token, camp.id, [{ data: day(10), resposta: 'sim' }]), 404, 'NOT_FOUND');
    const ev = await eventOn('SP', admin, day(12), { horario: '20:00' });
    await acceptedOn(ev.id, a.prof.id, f.id);
    const clash = await answer(a.user.token, camp.id, [
      { data: day(10), resposta: 'sim' },
      { data: day(12), resposta: 'nao' },
    ]);
    expectError(clash, 409, 'HAS_ASSIGNMENT');
    expect(clash.body.error).toContain(ev.id);
    expect(await db.select().from(campanhaRespostas).where(eq(campanhaRespostas.campanhaId, camp.id))).toEqual([]);
    expect((await answer(a.user.token, camp.id, [{ data: day(12), resposta: 'sim' }])).status).toBe(200);

    const closed = await api('POST', `${P}/${camp.id}/encerrar`, { token: admin.token });
    expect(closed.status).toBe(200);
    expect(closed.body.encerrada_em).not.toBeNull();
    expectError(await answer(a.user.token, camp.id, [{ data: day(10), resposta: 'nao' }]), 409, 'INVALID_STATE');
    // the answer before the close stands
    expect(await db.select().from(campanhaRespostas).where(eq(campanhaRespostas.campanhaId, camp.id))).toHaveLength(1);
    expect((await api('POST', `${P}/${camp.id}/encerrar`, { token: admin.token })).body.encerrada_em).toBe(
      closed.body.encerrada_em,
    );
    // past its prazo: closed too
    await db
      .update(campanhasDisponibilidade)
      .set({ prazo: day(-1) })
      .where(eq(campanhasDisponibilidade.id, camp.id));
    await db
      .update(campanhasDisponibilidade)
      .set({ encerradaEm: null })
      .where(eq(campanhasDisponibilidade.id, camp.id));
    expectError(await answer(a.user.token, camp.id, [{ data: day(10), resposta: 'nao' }]), 409, 'INVALID_STATE');
  });

  it('answers racing the close: each is wholly in (before it) or wholly out, never half', async () => {
    const admin = await makeAdmin();
    const f = await makeFuncao();
    const pros = await Promise.all(Array.from({ length: 8 }, () => makePro('SP', [f.id])));
    const camp = await season(admin, [f.id]);
    const datas = [
      { data: day(10), resposta: 'nao' },
      { data: day(11), resposta: 'sim' },
      { data: day(12), resposta: 'nao' },
    ];
    const [closed, ...answers] = await Promise.all([
      api('POST', `${P}/${camp.id}/encerrar`, { token: admin.token }),
      ...pros.map((p) => answer(p.user.token, camp.id, datas)),
    ]);
    expect(closed!.status).toBe(200);
    for (const [i, res] of answers.entries()) {
      const pid = pros[i]!.prof.id;
      const rows = await db
        .select()
        .from(campanhaRespostas)
        .where(and(eq(campanhaRespostas.campanhaId, camp.id), eq(campanhaRespostas.profissionalId, pid)));
      const decls = await db.select().from(disponibilidades).where(eq(disponibilidades.profissionalId, pid));
      const part = await db
        .select()
        .from(campanhaParticipacoes)
        .where(and(eq(campanhaParticipacoes.campanhaId, camp.id), eq(campanhaParticipacoes.profissionalId, pid)));
      if (res.status === 200) {
        expect([rows.length, decls.length, part.length]).toEqual([3, 2, 1]);
        expect(part[0]!.respondidoEm <= closed!.body.encerrada_em).toBe(true);
      } else {
        expectError(res, 409, 'INVALID_STATE');
        expect([rows.length, decls.length, part.length]).toEqual([0, 0, 0]);
      }
    }
  });

  it('one answer racing itself: N parallel replacements leave exactly one answer', async () => {
    const admin = await makeAdmin();
    const f = await makeFuncao();
    const a = await makePro('SP', [f.id]);
    const camp = await season(admin, [f.id]);
    const all = await Promise.all(
      [10, 11, 12, 13, 14].map((d) => answer(a.user.token, camp.id, [{ data: day(d), resposta: 'nao' }])),
    );
    for (const r of all) expect(r.status).toBe(200);
    expect(await db.select().from(campanhaRespostas).where(eq(campanhaRespostas.campanhaId, camp.id))).toHaveLength(1);
    expect(await db.select().from(disponibilidades).where(eq(disponibilidades.campanhaId, camp.id))).toHaveLength(1);
  });

  it('reminds the silent two days before prazo, exactly once over three runs (the cron dispatcher)', async () => {
    const admin = await makeAdmin();
    const f = await makeFuncao();
    const silent = await makePro('SP', [f.id]);
    const answered = await makePro('SP', [f.id]);
    const camp = await season(admin, [f.id], { prazo: day(5) });
    // a poll whose deadline is inside two days of its creation is not reminded
    const late = await season(admin, [f.id], { prazo: day(1) });
    expect((await answer(answered.user.token, camp.id, [{ data: day(10), resposta: 'sim' }])).status).toBe(200);

    // three days before prazo: not yet
    await lembrarCampanhasJob(env, new Date(Date.now() + 2 * 86_400_000));
    expect(await notesOf(silent.user.id, 'campanha_lembrete')).toHaveLength(0);
    const due = new Date(Date.now() + 3 * 86_400_000);
    await runCron(due);
    await runCron(due);
    await Promise.all([lembrarCampanhasJob(env, due), lembrarCampanhasJob(env, due)]);
    const notes = await notesOf(silent.user.id, 'campanha_lembrete');
    expect(notes.map((n) => n.dados)).toEqual([{ campanha_id: camp.id }]);
    expect(await notesOf(answered.user.id, 'campanha_lembrete')).toHaveLength(0);
    const [row] = await db.select().from(campanhasDisponibilidade).where(eq(campanhasDisponibilidade.id, camp.id));
    expect(row!.lembreteEm).not.toBeNull();
    const [lateRow] = await db.select().from(campanhasDisponibilidade).where(eq(campanhasDisponibilidade.id, late.id));
    expect(lateRow!.lembreteEm).toBeNull();
  });
});
