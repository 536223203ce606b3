// The WhatsApp messages beside the invitation (docs/decisions.md#d30, docs/guide/whatsapp.md): the D-2/D-1
// reminders of the scheduled job, a call-sheet change, a payout paid. Each only to a professional who
// opted in, in the batch of what it accompanies, at most once.
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { eventStart } from '../../../src/lib/dates';
import type { WhatsappMessage } from '../../../src/lib/messages';
import { runScheduled } from '../../../src/scheduled';
import { lembretes } from '../../../src/scheduled/lembretes';
import { entriesOf } from '../../helpers/activity-log';
import {
  db,
  makeAdmin,
  makeConvite,
  makeEvento,
  makeFot,
  makeCatalog,
  notificationsOf,
  systemCategoryId,
} from '../../helpers/factories';
import { capturingQueue } from '../../helpers/queue';
import { api, expectError } from '../../helpers/request';
import { makeWhatsappPro, outboxOfPro, outboxRow } from '../../helpers/whatsapp';
import { getConfig } from '../../../src/env';
import { renderWhatsapp } from '../../../src/services/core/whatsapp-cloud';
import { agenda, lancamentos, tiposEventos } from '../../../src/db/schema';

const HOUR = 3600_000;
const at = (ini: Date, hoursBefore: number) => new Date(ini.getTime() - hoursBefore * HOUR);

/** The Cloud API request the consumer sends for an outbox row (services/core/whatsapp-cloud.ts). */
async function rendered(outboxId: string): Promise<any> {
  return renderWhatsapp((await outboxRow(outboxId))!, getConfig(env));
}

const bodyParams = (body: any) => (body.template.components[0].parameters as { text: string }[]).map((p) => p.text);

describe('D-2 and D-1 reminders on WhatsApp (scheduled job lembretes)', () => {
  /** One run of the job alone, with an injected clock and a capturing WhatsApp queue. */
  const runAt = (now: Date, queue: Queue<WhatsappMessage>, bindings: Partial<typeof env> = {}) =>
    runScheduled({ ...env, WHATSAPP_QUEUE: queue, ...bindings }, now, { lembretes });

  it('a consented member gets lembrete_d2 then lembrete_d1, each once over overlapping runs, enqueued once; never d7; nobody without consent', async () => {
    const admin = await makeAdmin();
    const event = await makeEvento('SP', admin, { dataEvento: '2032-03-10', horario: '20:00' });
    const ini = eventStart('2032-03-10', '20:00');
    const yes = await makeWhatsappPro();
    const no = await makeWhatsappPro({ consent: false });
    const others = await Promise.all(Array.from({ length: 3 }, () => makeWhatsappPro()));
    const convite = await makeConvite(event.id, yes, 'aceito');
    await makeConvite(event.id, no, 'aceito');
    for (const o of others) await makeConvite(event.id, o, 'aceito');
    const { queue, sent } = capturingQueue<WhatsappMessage>();

    await Promise.all([0, 1, 2].map(() => runAt(at(ini, 7 * 24 - 0.25), queue)));
    expect(await notificationsOf(yes.user.id, 'lembrete_d7')).toHaveLength(1);
    expect(await outboxOfPro(yes.prof.id, 'lembrete_d2')).toEqual([]);

    await Promise.all([0, 1, 2].map(() => runAt(at(ini, 47), queue)));
    await runAt(at(ini, 46), queue);
    const d2 = await outboxOfPro(yes.prof.id, 'lembrete_d2');
    expect(d2).toHaveLength(1);
    expect(d2[0]).toMatchObject({
      chave: `lembrete_d2:${convite.id}`,
      para: yes.m.e164,
      conviteId: convite.id,
      agendaId: event.id,
      dados: { nome: yes.prof.nome, quando: '10/03/2032 às 20:00', dia: 'em 2 dias' },
    });

    await Promise.all([0, 1, 2].map(() => runAt(at(ini, 23.75), queue)));
    for (const h of [23, 6, 1, -0.25]) await runAt(at(ini, h), queue);
    const d1 = await outboxOfPro(yes.prof.id, 'lembrete_d1');
    expect(d1).toHaveLength(1);
    expect(d1[0]!.dados).toEqual({ nome: yes.prof.nome, quando: '10/03/2032 às 20:00', dia: 'amanhã' });
    expect(await outboxOfPro(yes.prof.id, 'lembrete_d2')).toHaveLength(1);
    for (const o of others) {
      expect(await outboxOfPro(o.prof.id, 'lembrete_d2')).toHaveLength(1);
      expect(await outboxOfPro(o.prof.id, 'lembrete_d1')).toHaveLength(1);
    }
    // Without consent: the in-app reminders only.
    expect(await notificationsOf(no.user.id, 'lembrete_d1')).toHaveLength(1);
    expect(await outboxOfPro(no.prof.id, 'lembrete_d2')).toEqual([]);
    expect(await outboxOfPro(no.prof.id, 'lembrete_d1')).toEqual([]);

    // Each row of the event enqueued exactly once, by the run that wrote it.
    const mine = new Set(
      (
        await Promise.all(
          [yes, ...others].flatMap((p) => [
            outboxOfPro(p.prof.id, 'lembrete_d2'),
            outboxOfPro(p.prof.id, 'lembrete_d1'),
          ]),
        )
      ).flatMap((rows) => rows.map((r) => r.id)),
    );
    expect(mine.size).toBe(8);
    const enqueued = sent
      .flat()
      .map((m) => m.body.outboxId)
      .filter((id) => mine.has(id));
    expect(enqueued.sort()).toEqual([...mine].sort());

    // The template: name, date and time, the day in words.
    const body = await rendered(d1[0]!.id);
    expect(body.template.name).toBe('lembrete_evento');
    expect(bodyParams(body)).toEqual([yes.prof.nome, '10/03/2032 às 20:00', 'amanhã']);
  });

  it('a member who accepts on the day gets the D-1 reminder saying "hoje"', async () => {
    const event = await makeEvento('SP', null, { dataEvento: '2032-04-10', horario: '20:00' });
    const pro = await makeWhatsappPro();
    await makeConvite(event.id, pro, 'aceito');
    const { queue } = capturingQueue<WhatsappMessage>();
    await runAt(at(eventStart('2032-04-10', '20:00'), 10), queue); // 10:00 in São Paulo
    const [d1] = await outboxOfPro(pro.prof.id, 'lembrete_d1');
    expect(d1!.dados).toMatchObject({ dia: 'hoje' });
    expect(await outboxOfPro(pro.prof.id, 'lembrete_d2')).toEqual([]);
  });

  it('while the channel is off (no WHATSAPP_TOKEN) the reminders go in the app only', async () => {
    const event = await makeEvento('SP', null, { dataEvento: '2032-05-10', horario: '20:00' });
    const pro = await makeWhatsappPro();
    await makeConvite(event.id, pro, 'aceito');
    const { queue, sent } = capturingQueue<WhatsappMessage>();
    await runAt(at(eventStart('2032-05-10', '20:00'), 23), queue, { WHATSAPP_TOKEN: undefined });
    expect(await notificationsOf(pro.user.id, 'lembrete_d1')).toHaveLength(1);
    expect(await outboxOfPro(pro.prof.id, 'lembrete_d1')).toEqual([]);
    expect(sent).toEqual([]);
  });
});

describe('call-sheet changes on WhatsApp (PUT /api/agenda/{id}/logistica)', () => {
  async function world(dataEvento = '2027-05-10') {
    const admin = await makeAdmin();
    const event = await makeEvento('SP', admin, { dataEvento, horario: '19:30' });
    const yes = await makeWhatsappPro();
    const no = await makeWhatsappPro({ consent: false });
    const pending = await makeWhatsappPro();
    await makeConvite(event.id, yes, 'aceito');
    await makeConvite(event.id, no, 'aceito');
    await makeConvite(event.id, pending, 'pendente');
    const put = (body: unknown) => api('PUT', `/api/agenda/${event.id}/logistica`, { token: admin.token, body });
    return { admin, event, yes, no, pending, put };
  }

  it('each version that changes something: one message per consented accepted member, with the notification; no change, nothing', async () => {
    const { event, yes, no, pending, put } = await world();
    expect((await put({ traje: 'Preto' })).status).toBe(200);
    let rows = await outboxOfPro(yes.prof.id, 'logistica_alterada');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      chave: `logistica_alterada:${event.id}:1:${yes.prof.id}`,
      para: yes.m.e164,
      agendaId: event.id,
      conviteId: null,
      dados: { nome: yes.prof.nome, quando: '10/05/2027 às 19:30' },
    });
    expect(await notificationsOf(yes.user.id, 'logistica_alterada')).toHaveLength(1);

    expect((await put({ traje: 'Preto' })).body.versao).toBe(1); // nothing changes
    expect(await outboxOfPro(yes.prof.id, 'logistica_alterada')).toHaveLength(1);
    expect((await put({ traje: 'Branco' })).body.versao).toBe(2);
    rows = await outboxOfPro(yes.prof.id, 'logistica_alterada');
    expect(rows.map((r) => r.chave).sort()).toEqual([
      `logistica_alterada:${event.id}:1:${yes.prof.id}`,
      `logistica_alterada:${event.id}:2:${yes.prof.id}`,
    ]);
    // Not consented, or not on the team (pending): the notification at most, never WhatsApp.
    expect(await notificationsOf(no.user.id, 'logistica_alterada')).toHaveLength(2);
    expect(await outboxOfPro(no.prof.id, 'logistica_alterada')).toEqual([]);
    expect(await outboxOfPro(pending.prof.id, 'logistica_alterada')).toEqual([]);

    const body = await rendered(rows[0]!.id);
    expect(body.template.name).toBe('logistica_alterada');
    expect(bodyParams(body)).toEqual([yes.prof.nome, '10/05/2027 às 19:30']);
  });

  it('ten parallel identical changes: one version, one message per member', async () => {
    const { yes, put } = await world();
    const answers = await Promise.all(Array.from({ length: 10 }, () => put({ observacoes: 'Levar bateria' })));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((a) => a.body.versao))).toEqual(new Set([1]));
    expect(await outboxOfPro(yes.prof.id, 'logistica_alterada')).toHaveLength(1);
    expect(await notificationsOf(yes.user.id, 'logistica_alterada')).toHaveLength(1);
  });

  it('five parallel different changes: five versions, one message each per member', async () => {
    const { yes, put } = await world();
    const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => put({ observacoes: `nota ${i}` })));
    expect(answers.map((a) => a.status)).toEqual(Array(5).fill(200));
    expect(answers.map((a) => a.body.versao).sort()).toEqual([1, 2, 3, 4, 5]);
    const rows = await outboxOfPro(yes.prof.id, 'logistica_alterada');
    expect(rows).toHaveLength(5);
    expect(new Set(rows.map((r) => r.chave)).size).toBe(5);
  });

  it('an event already past: the notification, no WhatsApp message', async () => {
    const { yes, put } = await world('2026-01-10');
    expect((await put({ traje: 'Preto' })).status).toBe(200);
    expect(await notificationsOf(yes.user.id, 'logistica_alterada')).toHaveLength(1);
    expect(await outboxOfPro(yes.prof.id, 'logistica_alterada')).toEqual([]);
  });
});

describe('payout paid on WhatsApp (POST /api/financeiro/repasses/{id}/pagar)', () => {
  const f = '/api/financeiro';

  /** A `previsto` fee of the professional for an event on `date` (as acceptance writes it). */
  async function fee(profissionalId: string, date: string, valorCentavos: number) {
    const fot = await makeFot('SP');
    const tipo = await makeCatalog(tiposEventos, 'SP');
    const [ev] = await db
      .insert(agenda)
      .values({ regiao: 'SP', fotId: fot.id, tipoEventoId: tipo.id, dataEvento: date })
      .returning();
    await db.insert(lancamentos).values({
      regiao: 'SP',
      tipo: 'despesa',
      categoriaId: await systemCategoryId('SP', 'cache_profissional'),
      descricao: 'Cachê',
      valorCentavos,
      vencimento: date,
      agendaId: ev!.id,
      fotId: fot.id,
      profissionalId,
      origem: 'cache',
    });
  }

  const pix = () => ({ contaPix: `${crypto.randomUUID()}@example.com`, tipoChavePix: 'email' as const });

  /** An approved batch of the professionals' fees in [de, ate]. */
  async function approved(admin: { token: string }, ids: string[], de: string, ate: string) {
    const b = await api('POST', `${f}/repasses`, { token: admin.token, body: { de, ate, profissional_ids: ids } });
    expect(b.status).toBe(201);
    expect((await api('POST', `${f}/repasses/${b.body.id}/aprovar`, { token: admin.token })).status).toBe(200);
    return b.body.id as string;
  }

  it('each consented professional of the batch gets its net amount once, when the batch is paid', async () => {
    const admin = await makeAdmin();
    const yes = await makeWhatsappPro({ over: { ...pix(), regimeFiscal: 'mei' } });
    const no = await makeWhatsappPro({ consent: false, over: pix() });
    await fee(yes.prof.id, '2041-03-05', 123_456);
    await fee(yes.prof.id, '2041-03-06', 1_000);
    await fee(no.prof.id, '2041-03-05', 50_000);
    const id = await approved(admin, [yes.prof.id, no.prof.id], '2041-03-01', '2041-03-28');
    // Approved is not paid: nothing yet.
    expect(await outboxOfPro(yes.prof.id, 'repasse_pago')).toEqual([]);
    expect((await api('POST', `${f}/repasses/${id}/pagar`, { token: admin.token })).status).toBe(200);
    const rows = await outboxOfPro(yes.prof.id, 'repasse_pago');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      chave: `repasse_pago:${id}:${yes.prof.id}`,
      para: yes.m.e164,
      dados: { nome: yes.prof.nome, valor: 'R$ 1.244,56' },
    });
    expect(await outboxOfPro(no.prof.id, 'repasse_pago')).toEqual([]);
    // Paying again is refused and sends nothing more.
    expectError(await api('POST', `${f}/repasses/${id}/pagar`, { token: admin.token }), 409, 'INVALID_STATE');
    expect(await outboxOfPro(yes.prof.id, 'repasse_pago')).toHaveLength(1);

    const body = await rendered(rows[0]!.id);
    expect(body.template.name).toBe('repasse_pago');
    expect(bodyParams(body)).toEqual([yes.prof.nome, 'R$ 1.244,56']);
  });

  it('small and large amounts are written as Brazilians write money', async () => {
    const admin = await makeAdmin();
    const cases: [number, string][] = [
      [5, 'R$ 0,05'],
      [99_999, 'R$ 999,99'],
      [1_234_567_890, 'R$ 12.345.678,90'],
    ];
    const pros = await Promise.all(cases.map(() => makeWhatsappPro({ over: { ...pix(), regimeFiscal: 'pj' } })));
    for (const [i, [cents]] of cases.entries()) await fee(pros[i]!.prof.id, '2041-04-05', cents);
    const id = await approved(
      admin,
      pros.map((p) => p.prof.id),
      '2041-04-01',
      '2041-04-28',
    );
    expect((await api('POST', `${f}/repasses/${id}/pagar`, { token: admin.token })).status).toBe(200);
    for (const [i, [, text]] of cases.entries())
      expect((await outboxOfPro(pros[i]!.prof.id, 'repasse_pago'))[0]!.dados.valor).toBe(text);
  });

  it('cancelling a batch sends nothing; ten parallel pagar send one message per professional', async () => {
    const admin = await makeAdmin();
    const pro = await makeWhatsappPro({ over: pix() });
    await fee(pro.prof.id, '2041-05-05', 10_000);
    const cancelled = await approved(admin, [pro.prof.id], '2041-05-01', '2041-05-28');
    expect((await api('POST', `${f}/repasses/${cancelled}/cancelar`, { token: admin.token })).status).toBe(200);
    expect(await outboxOfPro(pro.prof.id, 'repasse_pago')).toEqual([]);

    const id = await approved(admin, [pro.prof.id], '2041-05-01', '2041-05-28');
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => api('POST', `${f}/repasses/${id}/pagar`, { token: admin.token })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(await outboxOfPro(pro.prof.id, 'repasse_pago')).toHaveLength(1);
    expect(await entriesOf(id, 'repasses.pagar')).toHaveLength(1);
  });
});
