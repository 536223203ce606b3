import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { whatsappOutbox, whatsappStatusPendentes } from '../../../src/db/schema';
import { WA_MAX_ATTEMPTS, whatsappRetryDelaySeconds } from '../../../src/queue/whatsapp-consumer';
import { conviteToken, requeuePendingWhatsapp } from '../../../src/services/core/whatsapp';
import { env } from 'cloudflare:test';
import { capturingQueue } from '../../helpers/queue';
import { db } from '../../helpers/factories';
import { fakeWhatsapp, invitedPro, makeOutbox, outboxOf, outboxRow, runWhatsapp } from '../../helpers/whatsapp';

describe('the invitation on WhatsApp (outbox)', () => {
  it('a consented professional gets one convite_evento row, to the E.164 number, with the template fields', async () => {
    const { prof, m, convite, funcao } = await invitedPro(true);
    const rows = await outboxOf(convite.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      tipo: 'convite_evento',
      chave: `convite_evento:${convite.id}`,
      para: m.e164,
      profissionalId: prof.id,
      dados: { nome: prof.nome, quando: '10/05/2027 às 19:30', funcao: funcao.label },
    });
  });

  it('a professional without consent gets nothing', async () => {
    const { convite } = await invitedPro(false);
    expect(await outboxOf(convite.id)).toHaveLength(0);
  });
});

describe('the WhatsApp consumer (a local fake of the Cloud API)', () => {
  it('sends the invitation template with the two quick replies carrying the token; records the wamid', async () => {
    const { convite, prof } = await invitedPro(true);
    const [row] = await outboxOf(convite.id);
    // The pool's consumer (log provider) may have sent it already: send it again through the fake.
    await db.update(whatsappOutbox).set({ status: 'pendente', wamid: null }).where(eq(whatsappOutbox.id, row!.id));
    const fake = fakeWhatsapp();
    const res = await runWhatsapp([row!.id], fake.fetchImpl);
    expect(res.explicitAcks).toHaveLength(1);
    expect(fake.calls).toHaveLength(1);
    const call = fake.calls[0]!;
    expect(call.url.href).toBe(`${env.WHATSAPP_API_URL}/${env.WHATSAPP_PHONE_NUMBER_ID}/messages`);
    expect(call.headers.get('authorization')).toBe(`Bearer ${env.WHATSAPP_TOKEN}`);
    const token = await conviteToken(env.JWT_SECRET as string, convite.id, prof.id);
    expect(call.body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: row!.para.slice(1),
      type: 'template',
      template: {
        name: 'convite_evento',
        language: { code: 'pt_BR' },
        components: [
          {
            type: 'body',
            parameters: [
              { type: 'text', text: prof.nome },
              { type: 'text', text: '10/05/2027 às 19:30' },
              { type: 'text', text: row!.dados.funcao },
            ],
          },
          {
            type: 'button',
            sub_type: 'quick_reply',
            index: '0',
            parameters: [{ type: 'payload', payload: `aceitar:${token}` }],
          },
          {
            type: 'button',
            sub_type: 'quick_reply',
            index: '1',
            parameters: [{ type: 'payload', payload: `recusar:${token}` }],
          },
        ],
      },
    });
    const after = await outboxRow(row!.id);
    expect(after!.status).toBe('enviado');
    expect(after!.wamid).toMatch(/^wamid\.fake/);
  });

  it('a message delivered twice (or in parallel) is sent once', async () => {
    const row = await makeOutbox();
    const fake = fakeWhatsapp();
    await Promise.all([runWhatsapp([row.id], fake.fetchImpl), runWhatsapp([row.id], fake.fetchImpl)]);
    await runWhatsapp([row.id], fake.fetchImpl);
    expect(fake.calls).toHaveLength(1);
    expect((await outboxRow(row.id))!.status).toBe('enviado');
  });

  it('retries a 5xx (and a throttling 4xx) with backoff, then gives up into the dead-letter queue', async () => {
    const row = await makeOutbox();
    const fake = fakeWhatsapp({ answer: () => Response.json({ error: { message: 'down' } }, { status: 503 }) });
    for (let attempt = 1; attempt < WA_MAX_ATTEMPTS; attempt++) {
      const res = await runWhatsapp([row.id], fake.fetchImpl, { attempts: attempt });
      expect(res.retryMessages.map((m: { msgId: string }) => m.msgId)).toEqual(res.ids);
      expect(res.delays[res.ids[0]!]).toBe(whatsappRetryDelaySeconds(attempt));
      const r = await outboxRow(row.id);
      expect(r).toMatchObject({ status: 'pendente', tentativas: attempt });
      expect(r!.erro).toMatch(/503/);
    }
    // The last attempt: `falhou`, and the message retried past max_retries (wrangler.toml) → the DLQ.
    const last = await runWhatsapp([row.id], fake.fetchImpl, { attempts: WA_MAX_ATTEMPTS });
    expect(last.retryMessages.map((m: { msgId: string }) => m.msgId)).toEqual(last.ids);
    expect((await outboxRow(row.id))!.status).toBe('falhou');
    expect(fake.calls).toHaveLength(WA_MAX_ATTEMPTS);
    // Redelivered from anywhere, it sends nothing more.
    await runWhatsapp([row.id], fake.fetchImpl);
    expect(fake.calls).toHaveLength(WA_MAX_ATTEMPTS);

    const throttled = await makeOutbox();
    const slow = fakeWhatsapp({
      answer: () => Response.json({ error: { message: 'rate', code: 131056 } }, { status: 400 }),
    });
    const res = await runWhatsapp([throttled.id], slow.fetchImpl);
    expect(res.retryMessages).toHaveLength(1);
    expect((await outboxRow(throttled.id))!.status).toBe('pendente');
  });

  it('a refusal (other 4xx) is final: falhou, acknowledged; a message for no row is acknowledged', async () => {
    const row = await makeOutbox();
    const fake = fakeWhatsapp({
      answer: () =>
        Response.json({ error: { message: 'Template name does not exist', code: 132001 } }, { status: 404 }),
    });
    const res = await runWhatsapp([row.id, crypto.randomUUID()], fake.fetchImpl);
    expect(res.explicitAcks).toHaveLength(2);
    const r = await outboxRow(row.id);
    expect(r!.status).toBe('falhou');
    expect(r!.erro).toMatch(/404 \(code 132001\)/);
  });

  it('sends a reply as free text', async () => {
    const row = await makeOutbox({ tipo: 'resposta', dados: { texto: 'Convite aceito.' } });
    const fake = fakeWhatsapp();
    await runWhatsapp([row.id], fake.fetchImpl);
    expect(fake.calls[0]!.body).toMatchObject({ type: 'text', text: { body: 'Convite aceito.' }, to: '5511987654321' });
  });
});

describe('requeue-pending-whatsapp (scheduled)', () => {
  it('re-enqueues a pending row whose message was lost, once', async () => {
    const old = new Date(Date.now() - 3600_000).toISOString();
    const row = await makeOutbox({ disponivelEm: old });
    const { queue, sent } = capturingQueue<{ outboxId: string }>();
    const ids = await requeuePendingWhatsapp({ ...env, WHATSAPP_QUEUE: queue } as never, new Date());
    expect(ids).toContain(row.id);
    expect(sent.flat().map((m) => m.body.outboxId)).toContain(row.id);
    const again = await requeuePendingWhatsapp({ ...env, WHATSAPP_QUEUE: queue } as never, new Date());
    expect(again).not.toContain(row.id);
  });

  it('a send whose consumer died past the lease is sent again, at most WA_MAX_ATTEMPTS times in all: then falhou', async () => {
    const old = new Date(Date.now() - 3600_000).toISOString();
    const retried = await makeOutbox({ status: 'enviando', tentativas: WA_MAX_ATTEMPTS - 1, updatedAt: old });
    const spent = await makeOutbox({ status: 'enviando', tentativas: WA_MAX_ATTEMPTS, updatedAt: old });
    const { queue, sent } = capturingQueue<{ outboxId: string }>();
    const ids = await requeuePendingWhatsapp({ ...env, WHATSAPP_QUEUE: queue } as never, new Date());
    expect(ids).toContain(retried.id);
    expect(ids).not.toContain(spent.id);
    expect(sent.flat().map((m) => m.body.outboxId)).not.toContain(spent.id);
    expect(await outboxRow(retried.id)).toMatchObject({ status: 'pendente', tentativas: WA_MAX_ATTEMPTS - 1 });
    const given = await outboxRow(spent.id);
    expect(given).toMatchObject({ status: 'falhou', tentativas: WA_MAX_ATTEMPTS });
    expect(given!.erro).toMatch(/pode ter chegado/);
    // The last claim sends it once more; a consumer dying again leaves it given up, never sent a 7th time.
    const fake = fakeWhatsapp();
    await runWhatsapp([retried.id], fake.fetchImpl);
    expect(fake.calls).toHaveLength(1);
    await db
      .update(whatsappOutbox)
      .set({ status: 'enviando', updatedAt: old })
      .where(eq(whatsappOutbox.id, retried.id));
    expect(await requeuePendingWhatsapp({ ...env, WHATSAPP_QUEUE: queue } as never, new Date())).not.toContain(
      retried.id,
    );
    expect((await outboxRow(retried.id))!.status).toBe('falhou');
  });

  it('a status kept for a wamid no row ever took is dropped after a day', async () => {
    const wamid = `wamid.${crypto.randomUUID()}`;
    const day = 24 * 3600_000;
    await db.insert(whatsappStatusPendentes).values({
      wamid,
      status: 'delivered',
      em: new Date().toISOString(),
      createdAt: new Date(Date.now() - day + 60_000).toISOString(),
    });
    const kept = () => db.select().from(whatsappStatusPendentes).where(eq(whatsappStatusPendentes.wamid, wamid));
    await requeuePendingWhatsapp(env as never, new Date());
    expect(await kept()).toHaveLength(1);
    await requeuePendingWhatsapp(env as never, new Date(Date.now() + 120_000));
    expect(await kept()).toEqual([]);
  });
});
