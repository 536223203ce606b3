import { describe, expect, it } from 'vitest';
import { LogisticaSchema } from '../../../src/routes/operations/logistica.schemas';
import {
  makeAdmin,
  makeUser,
  type TestUser,
  makeConvite,
  makeEvento,
  makePro,
  notificationsOf,
} from '../../helpers/factories';
import { entriesOf } from '../../helpers/activity-log';
import { api, expectError, UNKNOWN_ID } from '../../helpers/request';

const sheet = {
  horario_chegada: '17:30',
  ponto_encontro: 'Portaria B',
  endereco_encontro: 'Rua das Flores, 100 - São Paulo',
  transporte: 'van',
  horario_saida_van: '16:45',
  estacionamento: 'Conveniado, pedir selo',
  traje: 'Preto social',
  retirada_equipamento: 'Escritório até 15:00',
  devolucao_equipamento: 'Dia seguinte até 12:00',
  contato_nome: 'Joana Cerimonial',
  contato_telefone: '11 98888-7777',
  prazo_credenciamento: '2027-05-01',
  observacoes: 'Levar bateria extra',
};

const put = (token: string, id: string, body: unknown, regiao = 'SP') =>
  api('PUT', `/api/agenda/${id}/logistica`, { token, regiao, body });
const get = (token: string, id: string, regiao = 'SP') => api('GET', `/api/agenda/${id}/logistica`, { token, regiao });

async function world() {
  const admin = await makeAdmin();
  const creator = await makeUser({ role: 'agenda_viewer' });
  const event = await makeEvento('SP', creator);
  const accepted = await makePro('SP');
  const pending = await makePro('SP');
  await makeConvite(event.id, accepted, 'aceito');
  await makeConvite(event.id, pending, 'pendente');
  const owner = await makeUser({ role: 'EVENT_OWNER', empresaId: event.fot.refs.empresa.id });
  return { admin, creator, event, accepted, pending, owner };
}

describe('PUT/GET /api/agenda/{id}/logistica', () => {
  it('creates the sheet at versao 1, answers every field and logs it', async () => {
    const { admin, event } = await world();
    const res = await put(admin.token, event.id, sheet);
    expect(res.status).toBe(200);
    expect(LogisticaSchema.safeParse(res.body).error).toBeUndefined();
    expect(res.body).toMatchObject({ ...sheet, agenda_id: event.id, versao: 1 });
    const [entry] = await entriesOf(event.id, 'agenda_logistica.create');
    expect(entry?.dados.versao).toEqual({ depois: 1 });
    expect(entry?.dados.traje).toEqual({ depois: 'Preto social' });
  });

  it('a change bumps versao and notifies each accepted member with the changed fields; no change: same versao, nobody', async () => {
    const { admin, event, accepted, pending } = await world();
    await put(admin.token, event.id, sheet);
    const before = (await notificationsOf(accepted.user.id, 'logistica_alterada')).length;
    const changed = await put(admin.token, event.id, {
      traje: 'Branco',
      horario_chegada: '18:00',
      ponto_encontro: 'Portaria B',
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      versao: 2,
      traje: 'Branco',
      horario_chegada: '18:00',
      observacoes: sheet.observacoes,
    });
    const notes = await notificationsOf(accepted.user.id, 'logistica_alterada');
    expect(notes.length).toBe(before + 1);
    const last = notes.sort((a, b) => a.createdAt.localeCompare(b.createdAt)).at(-1)!;
    expect(last.dados).toEqual({ agenda_id: event.id, campos: ['horario_chegada', 'traje'] });
    // The pending invitee is not on the team yet.
    expect(await notificationsOf(pending.user.id, 'logistica_alterada')).toHaveLength(0);

    const same = await put(admin.token, event.id, { traje: 'Branco' });
    expect(same.body.versao).toBe(2);
    expect(same.body.updated_at).toBe(changed.body.updated_at);
    expect(await notificationsOf(accepted.user.id, 'logistica_alterada')).toHaveLength(before + 1);
    const [entry] = await entriesOf(event.id, 'agenda_logistica.update');
    expect(entry?.dados.traje).toEqual({ antes: 'Preto social', depois: 'Branco' });
    expect(entry?.dados.versao).toEqual({ antes: 1, depois: 2 });

    // null clears a field: a change.
    const cleared = await put(admin.token, event.id, { observacoes: null });
    expect(cleared.body).toMatchObject({ versao: 3, observacoes: null });
  });

  it('two concurrent PUTs with different content both land: versao 1 → 3, no lost update', async () => {
    const { admin, event } = await world();
    await put(admin.token, event.id, { traje: 'Preto' });
    const [a, b] = await Promise.all([
      put(admin.token, event.id, { estacionamento: 'Vaga 12' }),
      put(admin.token, event.id, { contato_nome: 'Carlos' }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect([a.body.versao, b.body.versao].sort()).toEqual([2, 3]);
    const final = await get(admin.token, event.id);
    expect(final.body).toMatchObject({ versao: 3, estacionamento: 'Vaga 12', contato_nome: 'Carlos', traje: 'Preto' });
  });

  it('ten concurrent creations of one sheet: one versao per real change', async () => {
    const { admin, event } = await world();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => put(admin.token, event.id, { observacoes: `nota ${i}` })),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    const final = await get(admin.token, event.id);
    expect(final.body.versao).toBe(10);
  });

  it('read: administrators, the creator, the invited team and the company EVENT_OWNER; others 404', async () => {
    const { admin, creator, event, accepted, pending, owner } = await world();
    await put(admin.token, event.id, sheet);
    for (const who of [admin, creator, accepted.user, pending.user, owner]) {
      const res = await get(who.token, event.id);
      expect(res.status).toBe(200);
      expect(res.body.traje).toBe(sheet.traje);
    }
    const otherViewer = await makeUser({ role: 'agenda_viewer' });
    const stranger = await makePro('SP');
    const otherOwner = await makeUser({ role: 'EVENT_OWNER', empresaId: null });
    for (const who of [otherViewer, stranger.user, otherOwner])
      expectError(await get(who.token, event.id), 404, 'NOT_FOUND');
    expectError(await get(admin.token, event.id, 'MG'), 404, 'NOT_FOUND');
  });

  it('write: the creator may, the team and EVENT_OWNER may not (403), another viewer 404', async () => {
    const { creator, event, accepted, owner } = await world();
    const res = await put(creator.token, event.id, { traje: 'Azul' });
    expect(res.status).toBe(200);
    expectError(await put(accepted.user.token, event.id, { traje: 'x' }), 403, 'FORBIDDEN');
    expectError(await put(owner.token, event.id, { traje: 'x' }), 403, 'FORBIDDEN');
    const other = await makeUser({ role: 'agenda_viewer' });
    expectError(await put(other.token, event.id, { traje: 'x' }), 404, 'NOT_FOUND');
  });

  it('errors: no sheet yet, unknown event, other region, invalid id, invalid body, no token, wrong role', async () => {
    const { admin, event } = await world();
    expectError(await get(admin.token, event.id), 404, 'NOT_FOUND');
    expectError(await put(admin.token, UNKNOWN_ID, sheet), 404, 'NOT_FOUND');
    expectError(await put(admin.token, event.id, sheet, 'MG'), 404, 'NOT_FOUND');
    expectError(await put(admin.token, 'nope', sheet), 400, 'INVALID_ID');
    expectError(await get(admin.token, 'nope'), 400, 'INVALID_ID');
    for (const body of [
      { horario_chegada: '25:00' },
      { transporte: 'helicoptero' },
      { prazo_credenciamento: '2027-02-30' },
      { traje: 'x'.repeat(201) },
      { observacoes: 'a\u0000b' },
      [],
    ])
      expectError(await put(admin.token, event.id, body), 400, 'VALIDATION_FAILED');
    expectError(await api('PUT', `/api/agenda/${event.id}/logistica`, { body: sheet }), 401, 'UNAUTHENTICATED');
    const researcher: TestUser = await makeUser({ role: 'RESEARCHER' });
    expectError(await get(researcher.token, event.id), 403, 'FORBIDDEN');
  });

  it("keeps D10: changing the event's date notifies the team (agenda_alterada)", async () => {
    const { admin, event, accepted } = await world();
    const res = await api('PUT', `/api/agenda/${event.id}`, {
      token: admin.token,
      body: { data_evento: '2027-06-01' },
    });
    expect(res.status).toBe(200);
    expect(await notificationsOf(accepted.user.id, 'agenda_alterada')).toHaveLength(1);
  });
});
