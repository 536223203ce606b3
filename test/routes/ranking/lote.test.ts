import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { agendaEquipe, convites, disponibilidades, pesosRanking } from '../../../src/db/schema';
import { acceptedOn, day, eventOn } from '../../helpers/availability';
import {
  db,
  makeAdmin,
  makeConvite,
  makeEvento,
  makeFuncao,
  makePro,
  makeProfissional,
  makeUser,
  notificationsOf,
} from '../../helpers/factories';
import { keptColumnsAfterAll } from '../../helpers/kept-columns';
import { entriesOf, logEntries } from '../../helpers/activity-log';
import { api, expectError, UNKNOWN_ID } from '../../helpers/request';

keptColumnsAfterAll();

const lote = (token: string, eventId: string, body: unknown) =>
  api('POST', `/api/agenda/${eventId}/convites/lote`, { token, body });

type Item = { profissional_id: string; resultado: string; code?: string; motivo?: string; convite?: any };
const itemOf = (items: Item[], id: string) => items.find((i) => i.profissional_id === id)!;

describe('POST /api/agenda/{id}/convites/lote', () => {
  it('invites the eligible ones and refuses each of the others with its code', async () => {
    const admin = await makeAdmin();
    const f = await makeFuncao();
    const ev = await eventOn('SP', admin, day(80), { horario: '19:00', horario_fim: '23:00' });
    await db.insert(agendaEquipe).values({ agendaId: ev.id, funcaoId: f.id, quantidade: 3 });
    const ok1 = await makePro('SP', [f.id]);
    const ok2 = await makeProfissional('SP', {}, [f.id]);
    const invited = await makePro('SP', [f.id]);
    await makeConvite(ev.id, { prof: invited.prof, funcaoId: f.id }, 'pendente');
    const unavailable = await makePro('SP', [f.id]);
    await db.insert(disponibilidades).values({
      profissionalId: unavailable.prof.id,
      tipo: 'indisponivel',
      dataInicio: day(80),
      dataFim: day(80),
      origem: 'admin',
    });
    const busy = await makePro('SP', [f.id]);
    await acceptedOn((await eventOn('SP', admin, day(80), { horario: '18:00' })).id, busy.prof.id, f.id);
    const noFunction = await makeProfissional('SP', {}, [(await makeFuncao()).id]);
    const inactiveUser = await makeUser({ role: 'profissional', ativo: false });
    const inactive = await makeProfissional('SP', { usuarioId: inactiveUser.id }, [f.id]);
    const otherRegion = await makeProfissional('MG', {}, []);
    const ids = [
      ok1.prof.id,
      invited.prof.id,
      unavailable.prof.id,
      busy.prof.id,
      noFunction.id,
      inactive.id,
      otherRegion.id,
      ok2.id,
    ];

    const res = await lote(admin.token, ev.id, { funcao_id: f.id, profissional_ids: ids });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.itens.map((i: Item) => i.profissional_id)).toEqual(ids);
    expect(res.body).toMatchObject({ convidados: 2, recusados: 6 });
    const items = res.body.itens as Item[];
    expect(itemOf(items, invited.prof.id)).toMatchObject({
      resultado: 'recusado',
      code: 'CONFLICT',
      motivo: 'JA_CONVIDADO',
    });
    expect(itemOf(items, unavailable.prof.id)).toMatchObject({
      code: 'PROFESSIONAL_UNAVAILABLE',
      motivo: 'INDISPONIVEL',
    });
    expect(itemOf(items, busy.prof.id)).toMatchObject({ code: 'DOUBLE_BOOKED', motivo: 'CONFLITO_HORARIO' });
    expect(itemOf(items, noFunction.id)).toMatchObject({ code: 'VALIDATION_FAILED', motivo: 'SEM_FUNCAO' });
    expect(itemOf(items, inactive.id)).toMatchObject({ code: 'NOT_FOUND', motivo: 'INATIVO' });
    expect(itemOf(items, otherRegion.id)).toMatchObject({ resultado: 'recusado', code: 'NOT_FOUND' });
    for (const id of [ok1.prof.id, ok2.id]) {
      const item = itemOf(items, id);
      expect(item.resultado).toBe('convidado');
      expect(item.convite).toMatchObject({
        profissional_id: id,
        funcao_id: f.id,
        status: 'pendente',
        agenda_id: ev.id,
      });
      expect(item.convite.ranking_snapshot).toMatchObject({ funcao_id: f.id, pesos: { distancia: 0.2 } });
      expect(Object.keys(item.convite.ranking_snapshot.componentes)).toHaveLength(7);
    }
    // Stored: one invitation each, its snapshot, its log entry; the professional with an account notified once.
    const rows = await db.select().from(convites).where(eq(convites.agendaId, ev.id));
    expect(rows).toHaveLength(3);
    const stored = rows.find((r) => r.profissionalId === ok1.prof.id)!;
    expect(stored.rankingSnapshot).toEqual(itemOf(items, ok1.prof.id).convite.ranking_snapshot);
    expect(await entriesOf(stored.id, 'convites.create')).toHaveLength(1);
    expect(await notificationsOf(ok1.user.id, 'convite_recebido')).toHaveLength(1);
    expect(await notificationsOf(invited.user.id, 'convite_recebido')).toHaveLength(0);
    expect(await notificationsOf(busy.user.id, 'convite_recebido')).toHaveLength(0);
  });

  it('refuses every item QUOTA_FULL when the quota is filled', async () => {
    const admin = await makeAdmin();
    const f = await makeFuncao();
    const ev = await makeEvento('SP', admin, { dataEvento: day(81) });
    await db.insert(agendaEquipe).values({ agendaId: ev.id, funcaoId: f.id, quantidade: 1 });
    const member = await makePro('SP', [f.id]);
    await makeConvite(ev.id, { prof: member.prof, funcaoId: f.id }, 'aceito');
    const a = await makeProfissional('SP', {}, [f.id]);
    const res = await lote(admin.token, ev.id, { funcao_id: f.id, top_n: 5 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ convidados: 0, recusados: 1 });
    expect(res.body.itens).toEqual([
      expect.objectContaining({ profissional_id: a.id, resultado: 'recusado', code: 'QUOTA_FULL' }),
    ]);
  });

  it("top_n invites the ranking's first N", async () => {
    const admin = await makeAdmin();
    const f = await makeFuncao();
    const ev = await makeEvento('SP', admin, { dataEvento: day(82) });
    await Promise.all([1, 2, 3, 4].map(() => makeProfissional('SP', {}, [f.id])));
    const ranked = await api('GET', `/api/agenda/${ev.id}/candidatos?funcao_id=${f.id}`, { token: admin.token });
    const res = await lote(admin.token, ev.id, { funcao_id: f.id, top_n: 3 });
    expect(res.status).toBe(200);
    expect(res.body.convidados).toBe(3);
    expect(res.body.itens.map((i: Item) => i.profissional_id)).toEqual(
      ranked.body.candidatos.slice(0, 3).map((c: { profissional_id: string }) => c.profissional_id),
    );
    expect(res.body.itens.map((i: Item) => i.convite.ranking_snapshot.posicao)).toEqual([1, 2, 3]);
    // Again: the one left.
    const again = await lote(admin.token, ev.id, { funcao_id: f.id, top_n: 3 });
    expect(again.body).toMatchObject({ convidados: 1, recusados: 0 });
  });

  it('each professional is invited once when the same batch runs ten times at once', async () => {
    const admin = await makeAdmin();
    const f = await makeFuncao();
    const ev = await makeEvento('SP', admin, { dataEvento: day(83) });
    const pros = await Promise.all([1, 2, 3].map(() => makePro('SP', [f.id])));
    const body = { funcao_id: f.id, profissional_ids: pros.map((p) => p.prof.id) };
    const results = await Promise.all(Array.from({ length: 10 }, () => lote(admin.token, ev.id, body)));
    for (const r of results) expect(r.status).toBe(200);
    const invited = results.flatMap((r) => (r.body.itens as Item[]).filter((i) => i.resultado === 'convidado'));
    expect(invited.map((i) => i.profissional_id).sort()).toEqual(pros.map((p) => p.prof.id).sort());
    const rows = await db.select().from(convites).where(eq(convites.agendaId, ev.id));
    expect(rows).toHaveLength(3);
    for (const p of pros) expect(await notificationsOf(p.user.id, 'convite_recebido')).toHaveLength(1);
    for (const r of rows) expect(await entriesOf(r.id, 'convites.create')).toHaveLength(1);
    // The rest were told why.
    const refused = results.flatMap((r) => (r.body.itens as Item[]).filter((i) => i.resultado === 'recusado'));
    expect(refused).toHaveLength(27);
    // Each with the rule that stopped it: refused by the ranking, or by its guarded insert and then
    // named by the read of the writes' own batch; either way the invitation that came first.
    for (const i of refused) expect(i).toMatchObject({ code: 'CONFLICT', motivo: 'JA_CONVIDADO' });
  });

  it('the snapshot is shown to planners only', async () => {
    const admin = await makeAdmin();
    const viewer = await makeUser({ role: 'agenda_viewer' });
    const f = await makeFuncao();
    const ev = await makeEvento('SP', viewer, { dataEvento: day(84) });
    const pro = await makePro('SP', [f.id]);
    const res = await lote(viewer.token, ev.id, { funcao_id: f.id, profissional_ids: [pro.prof.id] });
    expect(res.status).toBe(200);
    const conviteId = res.body.itens[0].convite.id as string;
    // Planners: the event's list (the admin, the creator).
    for (const token of [admin.token, viewer.token]) {
      const list = await api('GET', `/api/agenda/${ev.id}/convites`, { token });
      expect(list.status).toBe(200);
      expect(list.body[0].ranking_snapshot).toMatchObject({ posicao: 1, funcao_id: f.id });
    }
    // The professional: its list and its answer carry no snapshot.
    const mine = await api('GET', '/api/convites', { token: pro.user.token });
    expect(mine.status).toBe(200);
    const own = mine.body.find((c: { id: string }) => c.id === conviteId);
    expect(own).toBeDefined();
    expect(own).not.toHaveProperty('ranking_snapshot');
    const answer = await api('PATCH', `/api/convites/${conviteId}`, {
      token: pro.user.token,
      body: { status: 'aceito' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).not.toHaveProperty('ranking_snapshot');
    // An invitation made one by one: null for planners.
    const single = await makePro('SP', [f.id]);
    const one = await api('POST', `/api/agenda/${ev.id}/convites`, {
      token: admin.token,
      body: { profissional_id: single.prof.id, funcao_id: f.id },
    });
    expect(one.status).toBe(201);
    expect(one.body).not.toHaveProperty('ranking_snapshot');
    const list = await api('GET', `/api/agenda/${ev.id}/convites`, { token: admin.token });
    expect(list.body.find((c: { id: string }) => c.id === one.body.id).ranking_snapshot).toBeNull();
  });

  it('400 for a body with neither profissional_ids nor top_n; both: the named ones; 404 for an event not planned by the caller', async () => {
    const admin = await makeAdmin();
    const f = await makeFuncao();
    const ev = await makeEvento('SP', admin, { dataEvento: day(85) });
    const neither = await lote(admin.token, ev.id, { funcao_id: f.id });
    expectError(neither, 400, 'VALIDATION_FAILED');
    expect(neither.body.error).toMatch(/profissional_ids .* top_n/);
    const named = await makeProfissional('SP', {}, [f.id]);
    await makeProfissional('SP', {}, [f.id]);
    const both = await lote(admin.token, ev.id, { funcao_id: f.id, top_n: 2, profissional_ids: [named.id] });
    expect(both.status).toBe(200);
    expect(both.body.itens.map((i: Item) => i.profissional_id)).toEqual([named.id]);
    expectError(await lote(admin.token, ev.id, { funcao_id: f.id, top_n: 21 }), 400, 'VALIDATION_FAILED');
    const viewer = await makeUser({ role: 'agenda_viewer' });
    expectError(await lote(viewer.token, ev.id, { funcao_id: f.id, top_n: 1 }), 404, 'NOT_FOUND');
    expectError(await lote(admin.token, UNKNOWN_ID, { funcao_id: f.id, top_n: 1 }), 404, 'NOT_FOUND');
    expectError(
      await lote(admin.token, ev.id, { funcao_id: (await makeFuncao('MG')).id, top_n: 1 }),
      400,
      'VALIDATION_FAILED',
    );
  });
});

describe('GET/PUT /api/ranking/pesos', () => {
  it("answers D29's defaults, stores normalised weights with a log entry, refuses all zeros", async () => {
    const admin = await makeAdmin();
    // MG's weights are this file's: start from none.
    await db.delete(pesosRanking).where(eq(pesosRanking.regiao, 'MG'));
    const get = await api('GET', '/api/ranking/pesos', { token: admin.token, regiao: 'MG' });
    expect(get.status).toBe(200);
    expect(get.body).toEqual({
      regiao: 'MG',
      padrao: true,
      updated_at: null,
      pesos: {
        distancia: 0.2,
        avaliacao: 0.2,
        confiabilidade: 0.25,
        rodizio: 0.15,
        funcao: 0.05,
        preferencia: 0.05,
        responsividade: 0.1,
      },
    });
    const body = {
      distancia: 2,
      avaliacao: 2,
      confiabilidade: 2,
      rodizio: 1,
      funcao: 1,
      preferencia: 0,
      responsividade: 0,
    };
    const put = await api('PUT', '/api/ranking/pesos', { token: admin.token, regiao: 'MG', body });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      regiao: 'MG',
      padrao: false,
      pesos: { distancia: 0.25, avaliacao: 0.25, confiabilidade: 0.25, rodizio: 0.125, funcao: 0.125, preferencia: 0 },
    });
    expect((await api('GET', '/api/ranking/pesos', { token: admin.token, regiao: 'MG' })).body).toEqual(put.body);
    // SP is untouched.
    expect((await api('GET', '/api/ranking/pesos', { token: admin.token })).body.regiao).toBe('SP');
    const entries = await logEntries({ entidade: 'pesos_ranking', acao: 'pesos_ranking.update' });
    const entry = entries.find((e) => e.regiao === 'MG');
    expect(entry?.dados).toMatchObject({ distancia: { antes: null, depois: 0.25 }, rodizio: { depois: 0.125 } });
    const zero = { ...body, distancia: 0, avaliacao: 0, confiabilidade: 0, rodizio: 0, funcao: 0 };
    expectError(
      await api('PUT', '/api/ranking/pesos', { token: admin.token, regiao: 'MG', body: zero }),
      400,
      'VALIDATION_FAILED',
    );
    expectError(
      await api('PUT', '/api/ranking/pesos', { token: admin.token, regiao: 'MG', body: { distancia: 1 } }),
      400,
      'VALIDATION_FAILED',
    );
    expectError(
      await api('PUT', '/api/ranking/pesos', { token: admin.token, regiao: 'MG', body: { ...body, funcao: -1 } }),
      400,
      'VALIDATION_FAILED',
    );
    // Ten at once: one row.
    const all = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        api('PUT', '/api/ranking/pesos', { token: admin.token, regiao: 'MG', body: { ...body, rodizio: i + 1 } }),
      ),
    );
    for (const r of all) expect(r.status).toBe(200);
    expect(await db.select().from(pesosRanking).where(eq(pesosRanking.regiao, 'MG'))).toHaveLength(1);
    await db.delete(pesosRanking).where(and(eq(pesosRanking.regiao, 'MG')));
  });
});
