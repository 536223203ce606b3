import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { eventStart } from '../../src/lib/dates';
import { runScheduled } from '../../src/scheduled';
import { lembretes } from '../../src/scheduled/lembretes';
import { makeAdmin, makeConvite, makeEvento, makePro } from '../helpers/factories';
import { keptScore, ledgerOf } from '../helpers/reliability';

// A presence not confirmed by D16's deadline (12 hours before the start) enters the reliability
// ledger in the reminders job's own batch (docs/decisions.md#d28), once.

const HOUR = 3600_000;
const before = (ini: Date, hours: number) => new Date(ini.getTime() - hours * HOUR);
const run = (now: Date) => runScheduled(env, now, { lembretes });

/** Each test uses its own month, so the events of one test are never due in another's runs. */
async function world(dataEvento: string) {
  const admin = await makeAdmin();
  const event = await makeEvento('SP', admin, { dataEvento, horario: '20:00' });
  const ini = eventStart(dataEvento, '20:00');
  const accepted = (hoursBeforeStart: number, over: { confirmadoEm?: string } = {}) =>
    makePro('SP').then(async (pro) => ({
      pro,
      convite: await makeConvite(event.id, pro, 'aceito', {
        respondidoEm: before(ini, hoursBeforeStart).toISOString(),
        ...over,
      }),
    }));
  return { event, ini, accepted };
}

describe('missed confirmation (scheduled job lembretes)', () => {
  it('recorded once when the 12-hour deadline passes unconfirmed, at the deadline; the score refreshed', async () => {
    const { ini, accepted, event } = await world('2032-03-10');
    const { pro, convite } = await accepted(72);
    await run(before(ini, 13)); // not yet due
    expect(await ledgerOf(pro.prof.id)).toEqual([]);
    await run(before(ini, 11.9));
    const rows = await ledgerOf(pro.prof.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      tipo: 'sem_confirmacao',
      conviteId: convite.id,
      agendaId: event.id,
      credito: 0.5,
      peso: 0.5,
      minutos: null,
      ocorridoEm: before(ini, 12).toISOString(),
    });
    // m is this row alone (0.5): 100 × (3·0.5 + 0.25·d) / (3 + 0.5·d), d ≈ 1
    expect((await keptScore(pro.prof.id)).valor!).toBeCloseTo(50, 0);
    expect((await keptScore(pro.prof.id)).peso).toBe(0.5);
    // later runs, overlapping runs: still one
    await Promise.all([run(before(ini, 11)), run(before(ini, 11)), run(before(ini, 2))]);
    expect(await ledgerOf(pro.prof.id)).toHaveLength(1);
  });

  it('nothing for the confirmed, for one accepted less than a day before, after the start, or for pending ones', async () => {
    const { ini, accepted, event } = await world('2032-04-10');
    const confirmed = await accepted(72, { confirmadoEm: before(ini, 30).toISOString() });
    const lateJoiner = await accepted(20);
    const pending = await makePro('SP');
    await makeConvite(event.id, pending, 'pendente');
    await run(before(ini, 6));
    await run(new Date(ini.getTime() + HOUR)); // started: nothing new either
    for (const p of [confirmed.pro, lateJoiner.pro, pending]) expect(await ledgerOf(p.prof.id)).toEqual([]);

    const { ini: ini2, accepted: accepted2 } = await world('2032-05-10');
    const missedOnlyAfterStart = await accepted2(72);
    await run(new Date(ini2.getTime() + HOUR));
    expect(await ledgerOf(missedOnlyAfterStart.pro.prof.id)).toEqual([]);
  });
});
