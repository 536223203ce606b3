import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { outcomeStatements, type DayOutcome } from '../../../src/services/reliability/ledger';
import { db, makeAdmin, makeConvite, makeEvento, makePro } from '../../helpers/factories';
import { keptScore, ledgerOf } from '../../helpers/reliability';

// The event day's outcomes (decision D27, issue 38; docs/decisions.md#d28) as statements any batch joins: the check-in's
// lateness at the entry and the no-show an administrator confirms. The check-in flows put them in
// their own batches; here a bare batch stands for them.

async function world() {
  const admin = await makeAdmin();
  const event = await makeEvento('SP', admin);
  const pro = await makePro('SP');
  const convite = await makeConvite(event.id, pro, 'aceito');
  return { pro, convite };
}

async function record(conviteId: string, outcome: DayOutcome, when?: ReturnType<typeof sql>) {
  const em = new Date().toISOString();
  const s = outcomeStatements(db, { conviteId, outcome, em, when });
  await db.batch([s.ledger, s.score]);
  return em;
}

describe('outcomeStatements: the check-in and no-show side', () => {
  it.each([
    { atraso: -3, minutos: 0, credito: 1 },
    { atraso: 5, minutos: 5, credito: 1 },
    { atraso: 6, minutos: 6, credito: 0.8 },
    { atraso: 15, minutos: 15, credito: 0.8 },
    { atraso: 20, minutos: 20, credito: 0.5 },
    { atraso: 60, minutos: 60, credito: 0.5 },
    { atraso: 61, minutos: 61, credito: 0.2 },
  ])(
    'arrival $atraso min late: credit $credito, weight 1, the score refreshed',
    async ({ atraso, minutos, credito }) => {
      const { pro, convite } = await world();
      const em = await record(convite.id, { tipo: 'chegada', atrasoMin: atraso });
      const [row] = await ledgerOf(pro.prof.id);
      expect(row).toMatchObject({ tipo: 'chegada', conviteId: convite.id, minutos, credito, peso: 1, ocorridoEm: em });
      expect((await keptScore(pro.prof.id)).valor).not.toBeNull();
      expect((await keptScore(pro.prof.id)).peso).toBe(1);
    },
  );

  it('lateness as SQL (computed in the check-in statement) works the same', async () => {
    const { pro, convite } = await world();
    await record(convite.id, { tipo: 'chegada', atrasoMin: sql`(10 + 12)` });
    expect((await ledgerOf(pro.prof.id))[0]).toMatchObject({ minutos: 22, credito: 0.5 });
  });

  it('a confirmed no-show: credit 0, weight 2; once per invitation and kind; nothing when the flow did not happen', async () => {
    const { pro, convite } = await world();
    await record(convite.id, { tipo: 'falta' });
    await record(convite.id, { tipo: 'falta' });
    const rows = await ledgerOf(pro.prof.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ tipo: 'falta', credito: 0, peso: 2, minutos: null });
    expect((await keptScore(pro.prof.id)).peso).toBe(2);

    const other = await world();
    await record(other.convite.id, { tipo: 'chegada', atrasoMin: 0 }, sql`0`);
    expect(await ledgerOf(other.pro.prof.id)).toEqual([]);
    expect((await keptScore(other.pro.prof.id)).valor).toBeNull();
  });
});
