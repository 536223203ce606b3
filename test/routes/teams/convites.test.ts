import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { convites, notifications } from '../../../src/db/schema';
import { AgendaSchema } from '../../../src/routes/agenda/agenda.schemas';
import { ConviteSchema } from '../../../src/routes/teams/convites.schemas';
import {
  db,
  makeAdmin,
  makeProfissional,
  makeUser,
  uniq,
  type TestUser,
  makeEvento,
  makeFuncao,
  makePro,
  notificationsOf,
} from '../../helpers/factories';
import { api, expectError } from '../../helpers/request';
import { keptColumnsAfterAll } from '../../helpers/kept-columns';

// Every team row these tests touched keeps its event's region, date and accepted count (triggers).
keptColumnsAfterAll();

async function setup(quota = 1, regiao = 'SP') {
  const admin = await makeAdmin();
  const foto = await makeFuncao(regiao, uniq('Fotógrafo'));
  const event = await makeEvento(regiao, admin);
  await api('PUT', `/api/agenda/${event.id}/equipe`, {
    token: admin.token,
    regiao,
    body: [{ funcao_id: foto.id, quantidade: quota }],
  });
  return { admin, foto, event };
}

async function invite(admin: TestUser, eventId: string, profId: string, funcaoId: string, regiao = 'SP') {
  return api('POST', `/api/agenda/${eventId}/convites`, {
    token: admin.token,
    regiao,
    body: { profissional_id: profId, funcao_id: funcaoId },
  });
}

describe('PUT /api/agenda/{id}/equipe', () => {
  it('sets the quota per function; missing counts and status follow from it', async () => {
    const admin = await makeAdmin();
    const foto = await makeFuncao('SP', uniq('Fotógrafo'));
    const cine = await makeFuncao('SP', uniq('Cinegrafista'));
    const event = await makeEvento('SP', admin);
    const res = await api('PUT', `/api/agenda/${event.id}/equipe`, {
      token: admin.token,
      body: [
        { funcao_id: foto.id, quantidade: 2 },
        { funcao_id: cine.id, quantidade: 1 },
      ],
    });
    expect(res.status).toBe(200);
    expect(AgendaSchema.safeParse(res.body).error).toBeUndefined();
    expect(res.body).toMatchObject({
      foto_faltante: 2,
      cine_faltante: 1,
      recep_faltante: 0,
      status_profissionais: 'pendente',
    });
    expect(res.body.equipe).toEqual(
      expect.arrayContaining([
        {
          funcao_id: foto.id,
          funcao_nome: foto.label,
          quantidade: 2,
          publicar: false,
          requer_aprovacao: false,
          aceitos: 0,
          pendentes: 0,
          lista_espera: 0,
          faltantes: 2,
        },
        {
          funcao_id: cine.id,
          funcao_nome: cine.label,
          quantidade: 1,
          publicar: false,
          requer_aprovacao: false,
          aceitos: 0,
          pendentes: 0,
          lista_espera: 0,
          faltantes: 1,
        },
      ]),
    );
    const replaced = await api('PUT', `/api/agenda/${event.id}/equipe`, {
      token: admin.token,
      body: [{ funcao_id: cine.id, quantidade: 0 }],
    });
    expect(replaced.body.equipe).toHaveLength(1);
    expect(replaced.body.equipe[0]).toMatchObject({ funcao_id: cine.id, quantidade: 0 });
    expect(replaced.body.status_profissionais).toBe('completo');
    // an empty team takes every function away
    const emptied = await api('PUT', `/api/agenda/${event.id}/equipe`, { token: admin.token, body: [] });
    expect(emptied.status).toBe(200);
    expect(emptied.body.equipe).toEqual([]);
  });

  it('validates the body and the functions of the region', async () => {
    const admin = await makeAdmin();
    const f = await makeFuncao();
    const mg = await makeFuncao('MG');
    const event = await makeEvento('SP', admin);
    const put = (body: unknown) => api('PUT', `/api/agenda/${event.id}/equipe`, { token: admin.token, body });
    expectError(await put([{ funcao_id: f.id, quantidade: -1 }]), 400, 'VALIDATION_FAILED');
    expectError(
      await put([
        { funcao_id: f.id, quantidade: 1 },
        { funcao_id: f.id, quantidade: 2 },
      ]),
      400,
      'VALIDATION_FAILED',
    );
    expectError(await put({ funcao_id: f.id }), 400, 'VALIDATION_FAILED');
    expectError(await put([{ funcao_id: mg.id, quantidade: 1 }]), 404, 'NOT_FOUND');
    expectError(
      await api('PUT', `/api/agenda/${crypto.randomUUID()}/equipe`, { token: admin.token, body: [] }),
      404,
      'NOT_FOUND',
    );
  });

  it('is for administrators and the agenda_viewer who created the event', async () => {
    const viewer = await makeUser({ role: 'agenda_viewer' });
    const other = await makeUser({ role: 'agenda_viewer' });
    const event = await makeEvento('SP', viewer);
    expect((await api('PUT', `/api/agenda/${event.id}/equipe`, { token: viewer.token, body: [] })).status).toBe(200);
    expectError(await api('PUT', `/api/agenda/${event.id}/equipe`, { token: other.token, body: [] }), 404, 'NOT_FOUND');
    const prof = await makeUser({ role: 'profissional' });
    expectError(await api('PUT', `/api/agenda/${event.id}/equipe`, { token: prof.token, body: [] }), 403, 'FORBIDDEN');
  });
});

describe('POST and GET /api/agenda/{id}/convites', () => {
  it('invites a professional who holds the function, and notifies them', async () => {
    const { admin, foto, event } = await setup(2);
    const { user, prof } = await makePro('SP', [foto.id]);
    const res = await invite(admin, event.id, prof.id, foto.id);
    expect(res.status).toBe(201);
    expect(ConviteSchema.safeParse(res.body).error).toBeUndefined();
    expect(res.body).toMatchObject({
      agenda_id: event.id,
      profissional_id: prof.id,
      funcao_id: foto.id,
      status: 'pendente',
      convidado_por: admin.id,
    });
    expect(await notificationsOf(user.id, 'convite_recebido')).toHaveLength(1);
    const list = await api('GET', `/api/agenda/${event.id}/convites`, { token: admin.token });
    expect(list.body.map((c: { id: string }) => c.id)).toEqual([res.body.id]);
    const view = await api('GET', `/api/agenda/${event.id}`, { token: admin.token });
    expect(view.body.equipe[0]).toMatchObject({ quantidade: 2, aceitos: 0, pendentes: 1, faltantes: 2 });
  });

  it('refuses: a function not held (400), twice the same professional (409), unknown or other-region ids (404)', async () => {
    const { admin, foto, event } = await setup(2);
    const other = await makeFuncao();
    const { prof } = await makePro('SP', [foto.id]);
    expectError(await invite(admin, event.id, prof.id, other.id), 400, 'VALIDATION_FAILED');
    expect((await invite(admin, event.id, prof.id, foto.id)).status).toBe(201);
    const again = await invite(admin, event.id, prof.id, foto.id);
    expectError(again, 409, 'CONFLICT');
    expect(again.body.error).toContain('já foi convidado');
    const mgPro = await makePro('MG', []);
    expectError(await invite(admin, event.id, mgPro.prof.id, foto.id), 404, 'NOT_FOUND');
    expectError(await invite(admin, crypto.randomUUID(), prof.id, foto.id), 404, 'NOT_FOUND');
    expectError(await invite(admin, event.id, 'x', foto.id), 400, 'VALIDATION_FAILED');
  });

  it('the creator agenda_viewer invites on its own events only', async () => {
    const viewer = await makeUser({ role: 'agenda_viewer' });
    const stranger = await makeUser({ role: 'agenda_viewer' });
    const foto = await makeFuncao();
    const event = await makeEvento('SP', viewer);
    const { prof } = await makePro('SP', [foto.id]);
    expectError(await invite(stranger, event.id, prof.id, foto.id), 404, 'NOT_FOUND');
    expect((await invite(viewer, event.id, prof.id, foto.id)).status).toBe(201);
    expectError(await api('GET', `/api/agenda/${event.id}/convites`, { token: stranger.token }), 404, 'NOT_FOUND');
  });
});

describe('inviting the profile of a pending account', () => {
  it('is 404 until an administrator approves the account', async () => {
    const { admin, foto, event } = await setup(2);
    const pending = await makeUser({ role: 'profissional', ativo: false });
    const prof = await makeProfissional('SP', { usuarioId: pending.id }, [foto.id]);
    expectError(await invite(admin, event.id, prof.id, foto.id), 404, 'NOT_FOUND');
    expect(await db.select().from(convites).where(eq(convites.profissionalId, prof.id))).toEqual([]);
    expect((await api('PATCH', `/api/admin/users/${pending.id}/approve`, { token: admin.token })).status).toBe(200);
    expect((await invite(admin, event.id, prof.id, foto.id)).status).toBe(201);
  });
});

describe('PATCH /api/convites/{id}', () => {
  it('accepting fills the team: counts, status and the inviter is notified', async () => {
    const { admin, foto, event } = await setup(1);
    const { user, prof } = await makePro('SP', [foto.id]);
    const conv = (await invite(admin, event.id, prof.id, foto.id)).body;
    const res = await api('PATCH', `/api/convites/${conv.id}`, { token: user.token, body: { status: 'aceito' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'aceito', respondido_em: expect.any(String) });
    const view = await api('GET', `/api/agenda/${event.id}`, { token: admin.token });
    expect(view.body).toMatchObject({ status_profissionais: 'completo' });
    expect(view.body.equipe[0]).toMatchObject({ aceitos: 1, pendentes: 0, faltantes: 0 });
    expect(await notificationsOf(admin.id, 'convite_respondido')).toHaveLength(1);
    expect(
      (await api('PATCH', `/api/convites/${conv.id}`, { token: user.token, body: { status: 'aceito' } })).status,
    ).toBe(200);
  });

  it('the answer notifies the inviter and the event creator (never the professional), with these exact texts', async () => {
    const { admin, foto, event } = await setup(1);
    const inviter = await makeAdmin();
    const { user, prof } = await makePro('SP', [foto.id]);
    const conv = (await invite(inviter, event.id, prof.id, foto.id)).body;
    const texts = async (tipo: string) =>
      (await db.select().from(notifications).where(eq(notifications.tipo, tipo)))
        .filter((n) => n.dados.convite_id === conv.id)
        .map((n) => ({ userId: n.userId, titulo: n.titulo, mensagem: n.mensagem, dados: n.dados }))
        .sort((a, b) => a.userId.localeCompare(b.userId));
    const sent = (titulo: string, verb: string, status: string) =>
      [admin.id, inviter.id].sort().map((userId) => ({
        userId,
        titulo,
        mensagem: `Um profissional ${verb} o convite para o evento de 2027-05-10.`,
        dados: { convite_id: conv.id, agenda_id: event.id, status },
      }));
    expect(
      (await api('PATCH', `/api/convites/${conv.id}`, { token: user.token, body: { status: 'aceito' } })).status,
    ).toBe(200);
    expect(await texts('convite_respondido')).toEqual(sent('Convite aceito', 'aceitou', 'aceito'));
    expect(
      (await api('PATCH', `/api/convites/${conv.id}`, { token: user.token, body: { status: 'recusado' } })).status,
    ).toBe(200);
    expect((await texts('convite_respondido')).filter((n) => n.titulo === 'Convite recusado')).toEqual(
      sent('Convite recusado', 'recusou', 'recusado'),
    );
    // The inviter who created the event is told once; the professional never about its own answer.
    const solo = await makePro('SP', [foto.id]);
    const other = (await invite(admin, event.id, solo.prof.id, foto.id)).body;
    expect(
      (await api('PATCH', `/api/convites/${other.id}`, { token: solo.user.token, body: { status: 'recusado' } }))
        .status,
    ).toBe(200);
    const once = (await db.select().from(notifications).where(eq(notifications.tipo, 'convite_respondido'))).filter(
      (n) => n.dados.convite_id === other.id,
    );
    expect(once.map((n) => n.userId)).toEqual([admin.id]);
  });

  it('answers 409 QUOTA_FULL when the place is taken, and notifies nobody', async () => {
    const { admin, foto, event } = await setup(1);
    const a = await makePro('SP', [foto.id]);
    const b = await makePro('SP', [foto.id]);
    const ca = (await invite(admin, event.id, a.prof.id, foto.id)).body;
    const cb = (await invite(admin, event.id, b.prof.id, foto.id)).body;
    expect(
      (await api('PATCH', `/api/convites/${ca.id}`, { token: a.user.token, body: { status: 'aceito' } })).status,
    ).toBe(200);
    const before = (await notificationsOf(admin.id, 'convite_respondido')).length;
    expectError(
      await api('PATCH', `/api/convites/${cb.id}`, { token: b.user.token, body: { status: 'aceito' } }),
      409,
      'QUOTA_FULL',
    );
    expect(await notificationsOf(admin.id, 'convite_respondido')).toHaveLength(before);
    // declining frees the place; then the other professional gets it
    expect(
      (await api('PATCH', `/api/convites/${ca.id}`, { token: a.user.token, body: { status: 'recusado' } })).status,
    ).toBe(200);
    expect(
      (await api('PATCH', `/api/convites/${cb.id}`, { token: b.user.token, body: { status: 'aceito' } })).status,
    ).toBe(200);
  });

  it('a decline frees nothing it did not hold: another professional still accepts the open place', async () => {
    const { admin, foto, event } = await setup(1);
    const a = await makePro('SP', [foto.id]);
    const b = await makePro('SP', [foto.id]);
    const ca = (await invite(admin, event.id, a.prof.id, foto.id)).body;
    const cb = (await invite(admin, event.id, b.prof.id, foto.id)).body;
    expect(
      (await api('PATCH', `/api/convites/${ca.id}`, { token: a.user.token, body: { status: 'recusado' } })).body.status,
    ).toBe('recusado');
    expect(
      (await api('PATCH', `/api/convites/${cb.id}`, { token: b.user.token, body: { status: 'aceito' } })).status,
    ).toBe(200);
    expectError(
      await api('PATCH', `/api/convites/${ca.id}`, { token: a.user.token, body: { status: 'aceito' } }),
      409,
      'QUOTA_FULL',
    );
  });

  it('answers 409 DOUBLE_BOOKED when already accepted on another event that date', async () => {
    const { admin, foto, event } = await setup(2);
    const second = await makeEvento('SP', admin, { dataEvento: event.dataEvento });
    const otherDay = await makeEvento('SP', admin, { dataEvento: '2027-05-11' });
    const { user, prof } = await makePro('SP', [foto.id]);
    const c1 = (await invite(admin, event.id, prof.id, foto.id)).body;
    const c2 = (await invite(admin, second.id, prof.id, foto.id)).body;
    const c3 = (await invite(admin, otherDay.id, prof.id, foto.id)).body;
    expect(
      (await api('PATCH', `/api/convites/${c1.id}`, { token: user.token, body: { status: 'aceito' } })).status,
    ).toBe(200);
    expectError(
      await api('PATCH', `/api/convites/${c2.id}`, { token: user.token, body: { status: 'aceito' } }),
      409,
      'DOUBLE_BOOKED',
    );
    expect(
      (await api('PATCH', `/api/convites/${c3.id}`, { token: user.token, body: { status: 'aceito' } })).status,
    ).toBe(200);
  });

  it('only the invited professional answers; bad bodies and ids are refused', async () => {
    const { admin, foto, event } = await setup(1);
    const a = await makePro('SP', [foto.id]);
    const b = await makePro('SP', [foto.id]);
    const ca = (await invite(admin, event.id, a.prof.id, foto.id)).body;
    expectError(
      await api('PATCH', `/api/convites/${ca.id}`, { token: b.user.token, body: { status: 'aceito' } }),
      404,
      'NOT_FOUND',
    );
    // an administrator decides applications only (solicitado): an invitation is not its to answer
    expectError(
      await api('PATCH', `/api/convites/${ca.id}`, { token: admin.token, body: { status: 'aceito' } }),
      409,
      'INVALID_STATE',
    );
    const viewer = await makeUser({ role: 'agenda_viewer' });
    expectError(
      await api('PATCH', `/api/convites/${ca.id}`, { token: viewer.token, body: { status: 'aceito' } }),
      403,
      'FORBIDDEN',
    );
    expectError(
      await api('PATCH', `/api/convites/${ca.id}`, { token: a.user.token, body: { status: 'talvez' } }),
      400,
      'VALIDATION_FAILED',
    );
    expectError(
      await api('PATCH', '/api/convites/nope', { token: a.user.token, body: { status: 'aceito' } }),
      400,
      'INVALID_ID',
    );
    expectError(
      await api('PATCH', `/api/convites/${crypto.randomUUID()}`, { token: a.user.token, body: { status: 'aceito' } }),
      404,
      'NOT_FOUND',
    );
  });

  it('of 20 professionals racing for the last place exactly one gets it (5 rounds)', async () => {
    for (let round = 0; round < 5; round++) {
      const { admin, foto, event } = await setup(1, 'MG');
      const pros = await Promise.all(Array.from({ length: 20 }, () => makePro('MG', [foto.id])));
      const invites = [];
      for (const p of pros)
        invites.push({ ...p, conv: (await invite(admin, event.id, p.prof.id, foto.id, 'MG')).body });
      const results = await Promise.all(
        invites.map((i) =>
          api('PATCH', `/api/convites/${i.conv.id}`, { token: i.user.token, body: { status: 'aceito' } }),
        ),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      for (const r of results.filter((r) => r.status !== 200)) expectError(r, 409, 'QUOTA_FULL');
      const accepted = await db
        .select()
        .from(convites)
        .where(and(eq(convites.agendaId, event.id), eq(convites.status, 'aceito')));
      expect(accepted).toHaveLength(1);
    }
  }, 60_000);
});

describe('GET /api/convites and what professionals see', () => {
  it("lists the caller's own invitations, filters by status, and refuses other roles", async () => {
    const { admin, foto, event } = await setup(3);
    const a = await makePro('SP', [foto.id]);
    const b = await makePro('SP', [foto.id]);
    const ca = (await invite(admin, event.id, a.prof.id, foto.id)).body;
    await invite(admin, event.id, b.prof.id, foto.id);
    const mine = await api('GET', '/api/convites', { token: a.user.token });
    expect(mine.body.map((c: { id: string }) => c.id)).toEqual([ca.id]);
    expect(mine.body[0].evento).toMatchObject({ data_evento: event.dataEvento, regiao: 'SP' });
    expect((await api('GET', '/api/convites?status=aceito', { token: a.user.token })).body).toEqual([]);
    expectError(await api('GET', '/api/convites?status=x', { token: a.user.token }), 400, 'VALIDATION_FAILED');
    expectError(await api('GET', '/api/convites', { token: admin.token }), 403, 'FORBIDDEN');
  });

  it('a professional reads the events it is invited to or accepted, not others, nor declined ones', async () => {
    const { admin, foto, event } = await setup(2);
    const uninvited = await makeEvento('SP', admin);
    const { user, prof } = await makePro('SP', [foto.id]);
    const conv = (await invite(admin, event.id, prof.id, foto.id)).body;
    expect((await api('GET', `/api/agenda/${event.id}`, { token: user.token })).status).toBe(200);
    expectError(await api('GET', `/api/agenda/${uninvited.id}`, { token: user.token }), 404, 'NOT_FOUND');
    const list = await api('GET', '/api/agenda', { token: user.token });
    expect(list.body.map((e: { id: string }) => e.id)).toEqual([event.id]);
    await api('PATCH', `/api/convites/${conv.id}`, { token: user.token, body: { status: 'aceito' } });
    expect((await api('GET', `/api/agenda/${event.id}`, { token: user.token })).status).toBe(200);
    expectError(
      await api('PUT', `/api/agenda/${event.id}`, { token: user.token, body: { horario: '10:00' } }),
      403,
      'FORBIDDEN',
    );
    await api('PATCH', `/api/convites/${conv.id}`, { token: user.token, body: { status: 'recusado' } });
    expectError(await api('GET', `/api/agenda/${event.id}`, { token: user.token }), 404, 'NOT_FOUND');
  });
});

describe('DELETE /api/convites/{id}', () => {
  it('an administrator cancels: the place is freed and the professional notified', async () => {
    const { admin, foto, event } = await setup(1);
    const a = await makePro('SP', [foto.id]);
    const b = await makePro('SP', [foto.id]);
    const ca = (await invite(admin, event.id, a.prof.id, foto.id)).body;
    const cb = (await invite(admin, event.id, b.prof.id, foto.id)).body;
    await api('PATCH', `/api/convites/${ca.id}`, { token: a.user.token, body: { status: 'aceito' } });
    expectError(await api('DELETE', `/api/convites/${ca.id}`, { token: admin.token, regiao: 'MG' }), 404, 'NOT_FOUND');
    expectError(await api('DELETE', `/api/convites/${ca.id}`, { token: a.user.token }), 403, 'FORBIDDEN');
    const res = await api('DELETE', `/api/convites/${ca.id}`, { token: admin.token });
    expect(res.status).toBe(204);
    expect(await notificationsOf(a.user.id, 'convite_cancelado')).toHaveLength(1);
    expect(
      (await api('PATCH', `/api/convites/${cb.id}`, { token: b.user.token, body: { status: 'aceito' } })).status,
    ).toBe(200);
    expectError(await api('DELETE', `/api/convites/${ca.id}`, { token: admin.token }), 404, 'NOT_FOUND');
  });
});
