import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { agendaMudancas } from '../../../src/db/schema';
import { nextDay } from '../../../src/lib/dates';
import { db, makeAdmin, makeConvite, makePro } from '../../helpers/factories';
import { acceptedSince, eventIn, keptScore, ledgerOf, regionSums } from '../../helpers/reliability';
import { api } from '../../helpers/request';

// The professional cancelling an accepted invitation enters the reliability ledger in the decline's
// own batch, by how early (docs/decisions.md#d28); the neutral cases write nothing.

const decline = (token: string, id: string) =>
  api('PATCH', `/api/convites/${id}`, { token, body: { status: 'recusado' } });

async function world(hoursAhead: number, acceptedHoursAgo = 48) {
  const admin = await makeAdmin();
  const event = await eventIn('SP', admin, hoursAhead);
  const pro = await makePro('SP');
  const convite = await acceptedSince(event.id, pro, acceptedHoursAgo);
  return { admin, event, pro, convite };
}

describe('the professional cancels an accepted invitation', () => {
  it.each([
    { hours: 12, credito: 0.1, peso: 1.5 },
    { hours: 0.5, credito: 0.1, peso: 1.5 },
    { hours: 30, credito: 0.3, peso: 1 },
    { hours: 71, credito: 0.3, peso: 1 },
    { hours: 73, credito: 0.6, peso: 1 },
    { hours: 6 * 24, credito: 0.6, peso: 1 },
  ])(
    '$hours h before the start: credit $credito, weight $peso; the kept score refreshed',
    async ({ hours, credito, peso }) => {
      const { pro, convite, event } = await world(hours);
      const before = (await regionSums('SP')).find((k) => k.tipo === 'cancelamento') ?? { eventos: 0, somaPesoCent: 0 };
      const res = await decline(pro.user.token, convite.id);
      expect(res.status).toBe(200);
      const rows = await ledgerOf(pro.prof.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        tipo: 'cancelamento',
        conviteId: convite.id,
        agendaId: event.id,
        dataEvento: event.dataEvento,
        regiao: 'SP',
        credito,
        peso,
        abonado: false,
      });
      expect(Math.abs(rows[0]!.minutos! - hours * 60)).toBeLessThanOrEqual(2);
      // refreshed in the same batch: R = 100 × (3m + c·w) / (3 + w), m the region's mean (the kept sums,
      // which this file's other tests also move), d = 1
      const sums = await regionSums('SP');
      const m = sums.reduce((n, k) => n + k.somaCreditoCent, 0) / sums.reduce((n, k) => n + k.somaPesoCent, 0);
      expect((await keptScore(pro.prof.id)).valor!).toBeCloseTo((100 * (3 * m + credito * peso)) / (3 + peso), 1);
      expect((await keptScore(pro.prof.id)).peso).toBe(peso);
      const cancel = sums.find((k) => k.tipo === 'cancelamento')!;
      expect(cancel.eventos - before.eventos).toBe(1);
      expect(cancel.somaPesoCent - before.somaPesoCent).toBe(peso * 100);
      // the professional's own view shows it
      const view = await api('GET', '/api/profissionais/me/confiabilidade', { token: pro.user.token });
      expect(view.body.eventos).toHaveLength(1);
    },
  );

  it('once: a repeated or parallel decline writes one row', async () => {
    const { pro, convite } = await world(20);
    const results = await Promise.all(Array.from({ length: 6 }, () => decline(pro.user.token, convite.id)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(await decline(pro.user.token, convite.id)).toMatchObject({ status: 200 });
    expect(await ledgerOf(pro.prof.id)).toHaveLength(1);
  });

  it('accepted again and cancelled again: still one row per invitation (the unique key)', async () => {
    const { pro, convite } = await world(20);
    await decline(pro.user.token, convite.id);
    const again = await api('PATCH', `/api/convites/${convite.id}`, {
      token: pro.user.token,
      body: { status: 'aceito' },
    });
    expect(again.status).toBe(200);
    expect((await decline(pro.user.token, convite.id)).status).toBe(200);
    expect(await ledgerOf(pro.prof.id)).toHaveLength(1);
  });
});

describe('neutral cases write nothing', () => {
  it('7 days or more ahead', async () => {
    const { pro, convite } = await world(7 * 24 + 1);
    expect((await decline(pro.user.token, convite.id)).status).toBe(200);
    expect(await ledgerOf(pro.prof.id)).toEqual([]);
    expect((await keptScore(pro.prof.id)).valor).toBeNull();
  });

  it('within 10 minutes of accepting', async () => {
    const admin = await makeAdmin();
    const event = await eventIn('SP', admin, 5);
    const pro = await makePro('SP');
    const convite = await makeConvite(event.id, pro, 'pendente');
    const accepted = await api('PATCH', `/api/convites/${convite.id}`, {
      token: pro.user.token,
      body: { status: 'aceito' },
    });
    expect(accepted.status).toBe(200);
    expect((await decline(pro.user.token, convite.id)).status).toBe(200);
    expect(await ledgerOf(pro.prof.id)).toEqual([]);
    // 11 minutes after accepting it counts
    const late = await world(5, 11 / 60);
    await decline(late.pro.user.token, late.convite.id);
    expect(await ledgerOf(late.pro.prof.id)).toHaveLength(1);
  });

  it.each([
    { campo: 'horario', valor: '23:59' },
    { campo: 'local_evento', valor: 'Outro salão' },
    { campo: 'data_evento', valor: 'the next day' },
  ])('after the office changed the event’s $campo since the acceptance', async ({ campo, valor }) => {
    const { admin, event, pro, convite } = await world(20);
    // the next day: still within 7 days, so only the change makes it neutral
    const novo = campo === 'data_evento' ? nextDay(event.dataEvento) : valor;
    const put = await api('PUT', `/api/agenda/${event.id}`, { token: admin.token, body: { [campo]: novo } });
    expect(put.status).toBe(200);
    expect((await decline(pro.user.token, convite.id)).status).toBe(200);
    expect(await ledgerOf(pro.prof.id)).toEqual([]);
  });

  it('a change that is not date, time or place, or one made before the acceptance, still counts', async () => {
    const { admin, event, pro, convite } = await world(20);
    await api('PUT', `/api/agenda/${event.id}`, { token: admin.token, body: { observacoes_evento: 'traje preto' } });
    await decline(pro.user.token, convite.id);
    expect(await ledgerOf(pro.prof.id)).toHaveLength(1);

    // changed an hour ago, accepted 11 minutes ago: the professional accepted the new terms
    const before = await makePro('SP');
    const event2 = await eventIn('SP', admin, 30);
    await api('PUT', `/api/agenda/${event2.id}`, { token: admin.token, body: { local_evento: 'Salão novo' } });
    await db
      .update(agendaMudancas)
      .set({ mudouEm: new Date(Date.now() - 3_600_000).toISOString() })
      .where(eq(agendaMudancas.agendaId, event2.id));
    const convite2 = await acceptedSince(event2.id, before, 11 / 60);
    await decline(before.user.token, convite2.id);
    expect(await ledgerOf(before.prof.id)).toHaveLength(1);
  });

  it('the office’s own cancellation, declining a pending invitation, withdrawing an application', async () => {
    const { admin, pro, convite } = await world(10);
    const del = await api('DELETE', `/api/convites/${convite.id}`, { token: admin.token });
    expect(del.status).toBe(204);
    expect(await ledgerOf(pro.prof.id)).toEqual([]);

    const pending = await world(10);
    const pendingConvite = await makeConvite((await eventIn('SP', admin, 11)).id, pending.pro, 'pendente');
    await decline(pending.pro.user.token, pendingConvite.id);
    const applied = await makeConvite((await eventIn('SP', admin, 12)).id, pending.pro, 'pendente', {
      status: 'solicitado',
      origem: 'candidatura',
    });
    await decline(pending.pro.user.token, applied.id);
    expect(await ledgerOf(pending.pro.prof.id)).toEqual([]);
  });
});
