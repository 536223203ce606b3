import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { PushMessage } from '../../src/lib/messages';
import { runScheduled } from '../../src/scheduled';
import { lembretes } from '../../src/scheduled/lembretes';
import { eventStart } from '../../src/lib/dates';
import { makeAdmin, makeConvite, makeEvento, makePro, notificationsOf } from '../helpers/factories';
import { countingD1 } from '../helpers/queries';

const HOUR = 3600_000;
const at = (ini: Date, hoursBefore: number) => new Date(ini.getTime() - hoursBefore * HOUR);

/** One run of the job with an injected clock (and optionally a recording push queue / counting D1). */
async function run(now: Date, bindings: Partial<typeof env> = {}) {
  return runScheduled({ ...env, ...bindings }, now, { lembretes });
}

function recordingQueue() {
  const sent: PushMessage[] = [];
  const queue = {
    sendBatch: async (msgs: { body: PushMessage }[]) => void sent.push(...msgs.map((m) => m.body)),
  } as unknown as Queue<PushMessage>;
  return { queue, sent };
}

/** Each test uses its own month, so the events of one test are never due in another's runs. */
async function world(dataEvento: string, horario: string | null = '20:00') {
  const admin = await makeAdmin();
  const event = await makeEvento('SP', admin, { dataEvento, horario });
  const pro = await makePro('SP');
  return { admin, event, pro, ini: eventStart(dataEvento, horario) };
}

const tiposOf = async (userId: string) => (await notificationsOf(userId)).map((n) => n.tipo).sort();

describe('scheduled job lembretes', () => {
  it('sends each kind at its moment, São Paulo time, and none twice', async () => {
    const { admin, event, pro, ini } = await world('2031-03-10');
    expect(ini.toISOString()).toBe('2031-03-10T23:00:00.000Z'); // 20:00 in São Paulo is 23:00 UTC
    const convite = await makeConvite(event.id, pro, 'aceito');
    await run(at(ini, 7 * 24 + 1));
    expect(await tiposOf(pro.user.id)).toEqual([]);
    await run(at(ini, 7 * 24 - 0.25));
    expect(await tiposOf(pro.user.id)).toEqual(['lembrete_d7']);
    await run(at(ini, 6 * 24));
    await run(at(ini, 3 * 24));
    expect(await tiposOf(pro.user.id)).toEqual(['lembrete_d7']);
    await run(at(ini, 47));
    expect(await tiposOf(pro.user.id)).toEqual(['lembrete_d2', 'lembrete_d7']);
    await run(at(ini, 23.75));
    expect(await tiposOf(pro.user.id)).toEqual(['confirmacao_pendente', 'lembrete_d1', 'lembrete_d2', 'lembrete_d7']);
    expect((await notificationsOf(admin.id, 'equipe_nao_confirmada')).length).toBe(0);
    await run(at(ini, 11.75));
    const teamNotes = (await notificationsOf(admin.id, 'equipe_nao_confirmada')).filter(
      (n) => n.dados.agenda_id === event.id,
    );
    expect(teamNotes).toHaveLength(1);
    expect(teamNotes[0]!.dados).toEqual({ agenda_id: event.id, regiao: 'SP', nao_confirmados: 1 });
    expect(teamNotes[0]!.mensagem).toContain('10/03/2031 às 20:00');
    // Three more runs, one after the start: nothing new.
    for (const h of [6, 1, -0.25]) await run(at(ini, h));
    expect(await tiposOf(pro.user.id)).toEqual(['confirmacao_pendente', 'lembrete_d1', 'lembrete_d2', 'lembrete_d7']);
    expect(
      (await notificationsOf(admin.id, 'equipe_nao_confirmada')).filter((n) => n.dados.agenda_id === event.id),
    ).toHaveLength(1);
    const d1 = (await notificationsOf(pro.user.id, 'lembrete_d1'))[0]!;
    expect(d1.dados).toEqual({ agenda_id: event.id, convite_id: convite.id });
    expect(d1.mensagem).toBe('Lembrete: você está na equipe do evento de 10/03/2031 às 20:00.');
  });

  it('an invitation accepted 21 hours before gets lembrete_d1 and confirmacao_pendente only, never a late d7 or d2', async () => {
    const { pro, event, ini } = await world('2031-04-10');
    await makeConvite(event.id, pro, 'aceito');
    await run(at(ini, 21));
    await run(at(ini, 20));
    expect(await tiposOf(pro.user.id)).toEqual(['confirmacao_pendente', 'lembrete_d1']);
  });

  it('a confirmed member gets the reminders but no confirmacao_pendente, and the admins nothing', async () => {
    const { admin, pro, event, ini } = await world('2031-05-10');
    await makeConvite(event.id, pro, 'aceito', { confirmadoEm: new Date().toISOString() });
    await run(at(ini, 23));
    await run(at(ini, 11));
    expect(await tiposOf(pro.user.id)).toEqual(['lembrete_d1']);
    expect(
      (await notificationsOf(admin.id, 'equipe_nao_confirmada')).filter((n) => n.dados.agenda_id === event.id),
    ).toEqual([]);
  });

  it('none for pending or declined invitations, deleted events, or events already started', async () => {
    const { event, pro, ini } = await world('2031-06-10');
    const declined = await makePro('SP');
    await makeConvite(event.id, pro, 'pendente');
    await makeConvite(event.id, declined, 'recusado');
    const past = await world('2031-06-01');
    await makeConvite(past.event.id, past.pro, 'aceito');
    const gone = await world('2031-06-11');
    await makeConvite(gone.event.id, gone.pro, 'aceito');
    await env.DB.prepare('delete from agenda where id = ?').bind(gone.event.id).run();
    for (const h of [7 * 24 - 1, 47, 23, 11, 1]) await run(at(ini, h));
    // past.event started on 2031-06-01 20:00, before every run: nothing, even though never reminded.
    expect(await tiposOf(pro.user.id)).toEqual([]);
    expect(await tiposOf(declined.user.id)).toEqual([]);
    expect(await tiposOf(past.pro.user.id)).toEqual([]);
    expect(await tiposOf(gone.pro.user.id)).toEqual([]);
  });

  it('an all-day event (no horario) counts from 00:00 in São Paulo', async () => {
    const { pro, event } = await world('2031-07-10', null);
    await makeConvite(event.id, pro, 'aceito');
    await run(new Date('2031-07-09T03:30:00.000Z')); // 23:30 before, local
    expect(await tiposOf(pro.user.id)).toEqual(['confirmacao_pendente', 'lembrete_d1']);
    await run(new Date('2031-07-10T03:01:00.000Z')); // started
    expect(await tiposOf(pro.user.id)).toHaveLength(2);
  });

  it('overlapping runs notify once, and push goes through the queue once per notification', async () => {
    const { pro, event, ini } = await world('2031-08-10');
    const others = await Promise.all(Array.from({ length: 5 }, () => makePro('SP')));
    for (const p of [pro, ...others]) await makeConvite(event.id, p, 'aceito');
    const { queue, sent } = recordingQueue();
    await Promise.all([0, 1, 2].map(() => run(at(ini, 30), { PUSH_QUEUE: queue })));
    await Promise.all([0, 1, 2].map(() => run(at(ini, 29), { PUSH_QUEUE: queue })));
    for (const p of [pro, ...others]) expect(await tiposOf(p.user.id)).toEqual(['lembrete_d2']);
    const mine = sent.filter((m) => m.dados.agenda_id === event.id);
    expect(mine).toHaveLength(6);
    const [note] = await notificationsOf(pro.user.id, 'lembrete_d2');
    expect(mine.find((m) => m.userId === pro.user.id)).toEqual({
      userId: pro.user.id,
      notificationId: note!.id,
      titulo: note!.titulo,
      mensagem: note!.mensagem,
      dados: { agenda_id: event.id, convite_id: expect.any(String) },
    });
  });

  it('costs one D1 round trip whatever the number of invitations', async () => {
    const small = await world('2031-09-10');
    await makeConvite(small.event.id, small.pro, 'aceito');
    const one = countingD1(env.DB);
    await run(at(small.ini, 23), { DB: one.db });
    const big = await world('2031-10-10');
    for (const p of await Promise.all(Array.from({ length: 15 }, () => makePro('SP'))))
      await makeConvite(big.event.id, p, 'aceito');
    const many = countingD1(env.DB);
    await run(at(big.ini, 23), { DB: many.db });
    const cost = (c: { roundTrips: number; statements: number }) => ({
      roundTrips: c.roundTrips,
      statements: c.statements,
    });
    // Five, the two of the missed confirmations (D28), and the D-2/D-1 WhatsApp messages' (the channel is on in the tests).
    expect(cost(one.count)).toEqual({ roundTrips: 1, statements: 8 });
    expect(cost(many.count)).toEqual(cost(one.count));
  });
});
