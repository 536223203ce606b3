import { describe, expect, it } from 'vitest';
import { api } from '../../helpers/request';
import { at, eventToken, fresh, MIN, personalToken, scene, START, T, useClock } from '../../helpers/checkin';
import { keptScore, ledgerOf } from '../../helpers/reliability';

// The event day's outcomes reach the reliability ledger from the check-in flows themselves (decision D27,
// docs/decisions.md#d28): the entry's lateness and the confirmed no-show, each in its flow's batch, once.

useClock();

describe('the check-in flows write the ledger', () => {
  it('an entry 20 min late by the event code: chegada 20 min, credit 0.5, once over replays', async () => {
    at(T);
    const { ev, pro } = await scene();
    at(START + 20 * MIN);
    const token = await fresh(pro.user);
    const body = { token: await eventToken(ev.id), tipo: 'entrada' };
    const first = await api('POST', '/api/presencas', { token, body });
    expect(first.status).toBe(201);
    expect(first.body.atraso_min).toBe(20);
    expect((await api('POST', '/api/presencas', { token, body })).status).toBe(200);
    const rows = await ledgerOf(pro.prof.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ tipo: 'chegada', minutos: 20, credito: 0.5, peso: 1 });
    expect((await keptScore(pro.prof.id)).peso).toBe(1);
    // A check-out moves nothing.
    expect((await api('POST', '/api/presencas', { token, body: { ...body, tipo: 'saida' } })).status).toBe(201);
    expect(await ledgerOf(pro.prof.id)).toHaveLength(1);
  });

  it("a coordinator's reading of a personal code 10 min late: chegada 10 min, credit 0.8", async () => {
    at(T);
    const { admin, ev, pro, conv } = await scene();
    at(START + 10 * MIN);
    const res = await api('POST', `/api/agenda/${ev.id}/presencas/leituras`, {
      token: await fresh(admin),
      body: { tokens: [await personalToken(conv.id)] },
    });
    expect(res.status).toBe(200);
    expect(res.body.resultados[0]).toMatchObject({ status: 'registrada' });
    expect(await ledgerOf(pro.prof.id)).toEqual([
      expect.objectContaining({ tipo: 'chegada', minutos: 10, credito: 0.8, peso: 1 }),
    ]);
  });

  it('a confirmed no-show: falta, credit 0, weight 2; 5 parallel confirmations write one row', async () => {
    at(T);
    const { admin, pro, conv } = await scene();
    at(START + 30 * MIN);
    const token = await fresh(admin);
    const all = await Promise.all(
      Array.from({ length: 5 }, () => api('POST', `/api/convites/${conv.id}/falta`, { token, body: {} })),
    );
    expect(all.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 201]);
    const rows = await ledgerOf(pro.prof.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ tipo: 'falta', credito: 0, peso: 2 });
    expect((await keptScore(pro.prof.id)).peso).toBe(2);
  });

  it('a refused check-in (no-show already confirmed) writes no chegada', async () => {
    at(T);
    const { admin, ev, pro, conv } = await scene();
    at(START + 30 * MIN);
    expect((await api('POST', `/api/convites/${conv.id}/falta`, { token: await fresh(admin), body: {} })).status).toBe(
      201,
    );
    const res = await api('POST', '/api/presencas', {
      token: await fresh(pro.user),
      body: { token: await eventToken(ev.id), tipo: 'entrada' },
    });
    expect(res.status).toBe(409);
    expect((await ledgerOf(pro.prof.id)).map((r) => r.tipo)).toEqual(['falta']);
  });
});
