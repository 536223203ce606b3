import { describe, expect, it } from 'vitest';
import { ConviteSchema } from '../../../src/routes/teams/convites.schemas';
import { makeAdmin, makeUser, makeConvite, makeEvento, makePro } from '../../helpers/factories';
import { entriesOf } from '../../helpers/activity-log';
import { api, expectError, UNKNOWN_ID } from '../../helpers/request';

const confirm = (token: string, id: string) => api('PATCH', `/api/convites/${id}/confirmacao`, { token });
const ciente = (token: string, id: string) => api('PATCH', `/api/convites/${id}/ciente`, { token });

async function world(status: 'aceito' | 'pendente' | 'recusado' = 'aceito') {
  const admin = await makeAdmin();
  const event = await makeEvento('SP', admin);
  const pro = await makePro('SP');
  const convite = await makeConvite(event.id, pro, status);
  return { admin, event, pro, convite };
}

describe('PATCH /api/convites/{id}/confirmacao', () => {
  it('confirms an accepted invitation once; a second call keeps the first time; logged once', async () => {
    const { pro, convite } = await world();
    const first = await confirm(pro.user.token, convite.id);
    expect(first.status).toBe(200);
    expect(ConviteSchema.safeParse(first.body).error).toBeUndefined();
    expect(first.body.confirmado_em).toEqual(expect.any(String));
    const second = await confirm(pro.user.token, convite.id);
    expect(second.status).toBe(200);
    expect(second.body.confirmado_em).toBe(first.body.confirmado_em);
    expect(await entriesOf(convite.id, 'convites.confirm')).toHaveLength(1);
  });

  it('concurrent confirmations: one time, one log entry', async () => {
    const { pro, convite } = await world();
    const results = await Promise.all(Array.from({ length: 8 }, () => confirm(pro.user.token, convite.id)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(new Set(results.map((r) => r.body.confirmado_em)).size).toBe(1);
    expect(await entriesOf(convite.id, 'convites.confirm')).toHaveLength(1);
  });

  it('the event invitation list and the own list show confirmado_em and ciente_versao', async () => {
    const { admin, event, pro, convite } = await world();
    await confirm(pro.user.token, convite.id);
    const list = await api('GET', `/api/agenda/${event.id}/convites`, { token: admin.token });
    expect(list.body[0]).toMatchObject({ id: convite.id, confirmado_em: expect.any(String), ciente_versao: null });
    const mine = await api('GET', '/api/convites', { token: pro.user.token });
    expect(mine.body.find((c: { id: string }) => c.id === convite.id).confirmado_em).toEqual(expect.any(String));
  });

  it('declining clears the confirmation', async () => {
    const { pro, convite } = await world();
    await confirm(pro.user.token, convite.id);
    const declined = await api('PATCH', `/api/convites/${convite.id}`, {
      token: pro.user.token,
      body: { status: 'recusado' },
    });
    expect(declined.body).toMatchObject({ status: 'recusado', confirmado_em: null });
  });

  it('409 INVALID_STATE when pending or declined; 404 for another professional or unknown; 400 bad id; 403 other roles', async () => {
    const pending = await world('pendente');
    expectError(await confirm(pending.pro.user.token, pending.convite.id), 409, 'INVALID_STATE');
    const declined = await world('recusado');
    expectError(await confirm(declined.pro.user.token, declined.convite.id), 409, 'INVALID_STATE');
    const other = await makePro('SP');
    expectError(await confirm(other.user.token, pending.convite.id), 404, 'NOT_FOUND');
    expectError(await confirm(other.user.token, UNKNOWN_ID), 404, 'NOT_FOUND');
    expectError(await confirm(other.user.token, 'x'), 400, 'INVALID_ID');
    expectError(await confirm(pending.admin.token, pending.convite.id), 403, 'FORBIDDEN');
    expectError(await api('PATCH', `/api/convites/${pending.convite.id}/confirmacao`), 401, 'UNAUTHENTICATED');
  });
});

describe('PATCH /api/convites/{id}/ciente', () => {
  it('sets ciente_versao to the current call-sheet versao, again after a change', async () => {
    const { admin, event, pro, convite } = await world();
    expectError(await ciente(pro.user.token, convite.id), 409, 'INVALID_STATE'); // no sheet yet
    await api('PUT', `/api/agenda/${event.id}/logistica`, { token: admin.token, body: { traje: 'Preto' } });
    const first = await ciente(pro.user.token, convite.id);
    expect(first.status).toBe(200);
    expect(first.body.ciente_versao).toBe(1);
    await api('PUT', `/api/agenda/${event.id}/logistica`, { token: admin.token, body: { traje: 'Branco' } });
    const list = await api('GET', `/api/agenda/${event.id}/convites`, { token: admin.token });
    expect(list.body[0].ciente_versao).toBe(1); // the office sees who has not read version 2
    expect((await ciente(pro.user.token, convite.id)).body.ciente_versao).toBe(2);
    expect((await ciente(pro.user.token, convite.id)).body.ciente_versao).toBe(2);
    const entries = await entriesOf(convite.id, 'convites.acknowledge');
    expect(entries).toHaveLength(2);
    expect(entries[0]!.dados.ciente_versao).toEqual({ antes: 1, depois: 2 });
  });

  it('409 when not accepted; 404 for another professional; 403 for other roles', async () => {
    const { admin, event, pro, convite } = await world('pendente');
    await api('PUT', `/api/agenda/${event.id}/logistica`, { token: admin.token, body: { traje: 'Preto' } });
    expectError(await ciente(pro.user.token, convite.id), 409, 'INVALID_STATE');
    const other = await makePro('SP');
    expectError(await ciente(other.user.token, convite.id), 404, 'NOT_FOUND');
    expectError(await ciente(other.user.token, 'x'), 400, 'INVALID_ID');
    const viewer = await makeUser({ role: 'agenda_viewer' });
    expectError(await ciente(viewer.token, convite.id), 403, 'FORBIDDEN');
  });
});
