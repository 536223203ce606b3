import { env } from 'cloudflare:test';
import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  convites,
  notifications,
  whatsappOutbox,
  whatsappRespostas,
  whatsappStatusPendentes,
} from '../../../src/db/schema';
import { conviteToken } from '../../../src/services/core/whatsapp';
import { entriesOf } from '../../helpers/activity-log';
import { db, makeProfissional, makeUser, uniq } from '../../helpers/factories';
import { api, expectError, send } from '../../helpers/request';
import { failingD1 } from '../../helpers/failing-d1';
import {
  buttonReply,
  deliver,
  envelope,
  invitedPro,
  makeOutbox,
  mobile,
  outboxRow,
  runWhatsapp,
  signature,
  statusOf,
} from '../../helpers/whatsapp';

const statusOfConvite = async (id: string) =>
  (await db.select({ s: convites.status }).from(convites).where(eq(convites.id, id)))[0]!.s;

/** The invitation's quick-reply token was spent (answered by its buttons). */
const spent = async (conviteId: string) =>
  (await db.select().from(whatsappRespostas).where(eq(whatsappRespostas.conviteId, conviteId))).length === 1;

/** The texts the professional was answered with (the `resposta` rows to its profile). */
const repliesTo = async (profissionalId: string) =>
  (
    await db
      .select({ dados: whatsappOutbox.dados })
      .from(whatsappOutbox)
      .where(and(eq(whatsappOutbox.profissionalId, profissionalId), eq(whatsappOutbox.tipo, 'resposta')))
  ).map((r) => String(r.dados.texto));

/** A consented professional's invitation, and a valid `aceitar`/`recusar` payload for it, from its number. */
async function invited(consent = true) {
  const x = await invitedPro(consent);
  const token = await conviteToken(env.JWT_SECRET as string, x.convite.id, x.prof.id);
  const from = x.m.e164.slice(1);
  return { ...x, token, from };
}

describe('GET /webhooks/whatsapp (the subscription handshake)', () => {
  const url = (q: Record<string, string | undefined>) =>
    `/webhooks/whatsapp?${new URLSearchParams(q as Record<string, string>)}`;
  it('answers the challenge as text when the token matches', async () => {
    const res = await send(
      'GET',
      url({
        'hub.mode': 'subscribe',
        'hub.verify_token': env.WHATSAPP_VERIFY_TOKEN as string,
        'hub.challenge': '1158201444',
      }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).toBe('1158201444');
  });
  it('403 for another token, another mode, or no challenge', async () => {
    for (const q of [
      { 'hub.mode': 'subscribe', 'hub.verify_token': 'errado', 'hub.challenge': '1' },
      { 'hub.mode': 'unsubscribe', 'hub.verify_token': env.WHATSAPP_VERIFY_TOKEN as string, 'hub.challenge': '1' },
      { 'hub.mode': 'subscribe', 'hub.verify_token': env.WHATSAPP_VERIFY_TOKEN as string },
    ]) {
      const res = await api('GET', url(q));
      expectError(res, 403, 'FORBIDDEN');
    }
  });
});

describe('POST /webhooks/whatsapp: the signature', () => {
  it('good: 200; bad, missing, malformed or over a changed body: 401 and nothing happens', async () => {
    const { convite, token, from } = await invited();
    const body = buttonReply(from, `aceitar:${token}`);
    const raw = JSON.stringify(body);
    for (const sig of [
      null,
      'sha256=' + '0'.repeat(64),
      'sha1=abc',
      await signature(raw, 'outro-segredo'),
      await signature(raw.replace('Fulano', 'Fulana')), // signed a different body
    ]) {
      const res = await deliver(raw, { sig });
      expect(res.status).toBe(401);
      expect(((await res.json()) as { code: string }).code).toBe('INVALID_SIGNATURE');
    }
    expect(await statusOfConvite(convite.id)).toBe('pendente');
    const ok = await deliver(raw);
    expect(ok.status).toBe(200);
    expect(await statusOfConvite(convite.id)).toBe('aceito');
  });

  it('a signed body that is not a delivery, or carries only other things, is acknowledged and ignored', async () => {
    for (const body of [
      'not json',
      { object: 'whatsapp_business_account', entry: 'x' },
      envelope({ messages: [{ from: '5511987654321', id: 'wamid.t', type: 'text', text: { body: 'oi' } }] }),
    ]) {
      const res = await deliver(body);
      expect(res.status).toBe(200);
    }
  });
});

describe('POST /webhooks/whatsapp: button replies', () => {
  it('accepts through the PATCH path: notifications, the log entry as the professional, the reply text', async () => {
    const x = await invited();
    const { admin, convite, user, prof, token, from } = x;
    const res = await deliver(buttonReply(from, `aceitar:${token}`));
    expect(res.status).toBe(200);
    expect(await statusOfConvite(convite.id)).toBe('aceito');
    const told = await db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, admin.id), eq(notifications.tipo, 'convite_respondido')));
    expect(told.map((n) => (n.dados as { convite_id: string }).convite_id)).toContain(convite.id);
    const log = await entriesOf(convite.id, 'convites.accept');
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ ator_id: user.id, ator_role: 'profissional' });
    expect(await repliesTo(prof.id)).toEqual([
      'Convite aceito: você está na equipe do evento de 10/05/2027 às 19:30. Até lá!',
    ]);
    expect(await spent(convite.id)).toBe(true);
    const view = await api('GET', `/api/agenda/${x.event.id}/whatsapp`, { token: admin.token });
    expect(view.body).toEqual([expect.objectContaining({ convite_id: convite.id, respondido_por_whatsapp: true })]);
  });

  it('declines with recusar (an interactive button_reply too)', async () => {
    const { convite, prof, token, from } = await invited();
    const body = envelope({
      messages: [
        {
          from,
          id: `wamid.${uniq()}`,
          type: 'interactive',
          interactive: { type: 'button_reply', button_reply: { id: `recusar:${token}`, title: 'Recusar' } },
        },
      ],
    });
    expect((await deliver(body)).status).toBe(200);
    expect(await statusOfConvite(convite.id)).toBe('recusado');
    expect((await repliesTo(prof.id))[0]).toMatch(/^Convite recusado/);
  });

  it('a Brazilian mobile identified without its ninth digit is the same number', async () => {
    const { convite, token, from } = await invited();
    const old = from.slice(0, 4) + from.slice(5); // 55 11 9XXXXXXXX → 55 11 XXXXXXXX
    expect((await deliver(buttonReply(old, `aceitar:${token}`))).status).toBe(200);
    expect(await statusOfConvite(convite.id)).toBe('aceito');
  });

  it('a reply from another number is refused: nothing changes, nobody is written to', async () => {
    const { convite, prof, token } = await invited();
    const other = mobile().e164.slice(1);
    expect((await deliver(buttonReply(other, `aceitar:${token}`))).status).toBe(200);
    expect(await statusOfConvite(convite.id)).toBe('pendente');
    expect(await repliesTo(prof.id)).toEqual([]);
    expect(await spent(convite.id)).toBe(false);
  });

  it("a forged token, or another invitation's token, changes nothing", async () => {
    const a = await invited();
    const b = await invited();
    const forged = `${a.convite.id}.${'f'.repeat(32)}`;
    // b's token names b's invitation: sent from a's number it fails the number check; a's id with b's mac fails the mac.
    const moved = `${a.convite.id}.${b.token.split('.')[1]}`;
    for (const t of [forged, moved, 'lixo', `${crypto.randomUUID()}.${'0'.repeat(32)}`])
      expect((await deliver(buttonReply(a.from, `aceitar:${t}`))).status).toBe(200);
    expect(await statusOfConvite(a.convite.id)).toBe('pendente');
    expect(await repliesTo(a.prof.id)).toEqual([]);
  });

  it('a replayed message id, and the same reply delivered 10 times at once, answer once', async () => {
    const { convite, prof, token, from } = await invited();
    const body = buttonReply(from, `aceitar:${token}`);
    const results = await Promise.all(Array.from({ length: 10 }, () => deliver(body)));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect((await deliver(body)).status).toBe(200); // replayed later
    expect(await statusOfConvite(convite.id)).toBe('aceito');
    expect(await entriesOf(convite.id, 'convites.accept')).toHaveLength(1);
    expect(await repliesTo(prof.id)).toHaveLength(1);
  });

  it('the token is single use: a second tap (another message id) is told to use the app', async () => {
    const { convite, prof, token, from } = await invited();
    await deliver(buttonReply(from, `aceitar:${token}`));
    await deliver(buttonReply(from, `recusar:${token}`));
    expect(await statusOfConvite(convite.id)).toBe('aceito');
    expect((await repliesTo(prof.id)).sort()).toEqual([
      'Convite aceito: você está na equipe do evento de 10/05/2027 às 19:30. Até lá!',
      'Este convite já foi respondido por aqui. Para mudar a resposta, use o aplicativo.',
    ]);
  });

  it('a reply that would exceed the quota gets the refusal text and changes nothing; the token stays usable, the message id does not', async () => {
    const x = await invited();
    // Someone else takes the function's only place first.
    const rival = await makeUser({ role: 'profissional' });
    const rivalProf = await makeProfissional('SP', { usuarioId: rival.id }, [x.funcao.id]);
    const inv = await api('POST', `/api/agenda/${x.event.id}/convites`, {
      token: x.admin.token,
      body: { profissional_id: rivalProf.id, funcao_id: x.funcao.id },
    });
    expect(
      (await api('PATCH', `/api/convites/${inv.body.id}`, { token: rival.token, body: { status: 'aceito' } })).status,
    ).toBe(200);

    const tap = buttonReply(x.from, `aceitar:${x.token}`);
    expect((await deliver(tap)).status).toBe(200);
    expect(await statusOfConvite(x.convite.id)).toBe('pendente');
    expect(await entriesOf(x.convite.id, 'convites.accept')).toHaveLength(0);
    expect(await repliesTo(x.prof.id)).toEqual([
      'Não foi possível aceitar o convite do evento de 10/05/2027 às 19:30: a cota desta função no evento já está preenchida.',
    ]);
    expect(await spent(x.convite.id)).toBe(false);
    // The place frees: the same message replayed does nothing (each message id once); a new tap accepts.
    expect(
      (await api('PATCH', `/api/convites/${inv.body.id}`, { token: rival.token, body: { status: 'recusado' } })).status,
    ).toBe(200);
    await deliver(tap);
    expect(await statusOfConvite(x.convite.id)).toBe('pendente');
    await deliver(buttonReply(x.from, `aceitar:${x.token}`));
    expect(await statusOfConvite(x.convite.id)).toBe('aceito');
  });

  it('an account deactivated, or a consent withdrawn, between the checks and the answer batch: nothing is answered', async () => {
    for (const race of [
      (x: Awaited<ReturnType<typeof invited>>) =>
        env.DB.prepare('update users set ativo = 0 where id = ?').bind(x.user.id).run(),
      (x: Awaited<ReturnType<typeof invited>>) =>
        env.DB.prepare('update profissionais set whatsapp_desde = null where id = ?').bind(x.prof.id).run(),
    ]) {
      const x = await invited();
      // The write lands after the webhook read the invitation and its account, before the answer's batch.
      const raced = failingD1(env.DB, {
        batch: (sqls) => sqls.some((q) => q.startsWith('insert into "whatsapp_recebidas"')),
        before: () => race(x),
      });
      const tap = buttonReply(x.from, `aceitar:${x.token}`);
      expect((await deliver(tap, { bindings: { DB: raced.db } })).status).toBe(200);
      expect(raced.injected).toBe(1);
      expect(await statusOfConvite(x.convite.id)).toBe('pendente');
      expect(await entriesOf(x.convite.id, 'convites.accept')).toHaveLength(0);
      expect(await spent(x.convite.id)).toBe(false);
      expect(await repliesTo(x.prof.id)).not.toContain(
        'Convite aceito: você está na equipe do evento de 10/05/2027 às 19:30. Até lá!',
      );
    }
  });

  it('a professional who withdrew consent gets nothing, and its buttons no longer answer', async () => {
    const { convite, user, prof, token, from } = await invited();
    await api('PUT', '/api/me/canais', { token: user.token, body: { whatsapp: false } });
    await deliver(buttonReply(from, `aceitar:${token}`));
    expect(await statusOfConvite(convite.id)).toBe('pendente');
    expect(await repliesTo(prof.id)).toEqual([]);
  });
});

describe('statuses, and the office view GET /api/agenda/{id}/whatsapp', () => {
  it('delivered and read move the row forward only; the office sees it per invitation', async () => {
    const { admin, event, convite, prof } = await invited();
    const other = await invited(false); // another event; not consented: no message
    const wamid = `wamid.${uniq()}`;
    await db
      .update(whatsappOutbox)
      .set({ status: 'enviado', wamid, enviadoEm: new Date().toISOString() })
      .where(and(eq(whatsappOutbox.conviteId, convite.id), eq(whatsappOutbox.tipo, 'convite_evento')));

    expect((await deliver(statusOf(wamid, 'delivered'))).status).toBe(200);
    let view = await api('GET', `/api/agenda/${event.id}/whatsapp`, { token: admin.token });
    expect(view.status).toBe(200);
    expect(view.body).toEqual([
      expect.objectContaining({
        convite_id: convite.id,
        profissional_id: prof.id,
        status: 'entregue',
        lido_em: null,
        respondido_por_whatsapp: false,
      }),
    ]);
    await deliver(statusOf(wamid, 'read'));
    await deliver(statusOf(wamid, 'delivered')); // late: ignored
    view = await api('GET', `/api/agenda/${event.id}/whatsapp`, { token: admin.token });
    expect(view.body[0]).toMatchObject({ status: 'lido' });
    expect(view.body[0].entregue_em).not.toBeNull();
    expect(view.body[0].lido_em).not.toBeNull();

    const none = await api('GET', `/api/agenda/${other.event.id}/whatsapp`, { token: other.admin.token });
    expect(none.body).toEqual([]);
  });

  it('statuses that arrive before the send settles (no wamid yet) are kept and applied by the settle, once', async () => {
    const row = await makeOutbox();
    const failing = await makeOutbox();
    const wamid = `wamid.${uniq()}`;
    const lost = `wamid.${uniq()}`;
    // Meta delivers, the phone reads (twice), before the consumer hears Meta's answer; the second
    // message fails on the way, just as early.
    const calls: string[] = [];
    const fetchImpl = (async () => {
      const id = calls.length === 0 ? wamid : lost;
      calls.push(id);
      if (id === wamid) {
        expect((await deliver(statusOf(wamid, 'delivered'))).status).toBe(200);
        expect((await deliver(statusOf(wamid, 'read'))).status).toBe(200);
        expect((await deliver(statusOf(wamid, 'read'))).status).toBe(200);
      } else {
        await deliver(
          envelope({
            statuses: [
              {
                id: lost,
                status: 'failed',
                timestamp: '1739321024',
                errors: [{ code: 131026, title: 'Undeliverable' }],
              },
            ],
          }),
        );
      }
      return Response.json({ messages: [{ id }] });
    }) as unknown as typeof fetch;
    await runWhatsapp([row.id], fetchImpl);
    await runWhatsapp([failing.id], fetchImpl);
    const sent = await outboxRow(row.id);
    expect(sent).toMatchObject({ status: 'lido', wamid });
    expect(sent!.entregueEm).not.toBeNull();
    expect(sent!.lidoEm).not.toBeNull();
    expect(await outboxRow(failing.id)).toMatchObject({
      status: 'falhou',
      wamid: lost,
      erro: 'whatsapp: 131026 Undeliverable',
    });
    // Nothing kept once applied; a late repeat changes nothing.
    expect(
      await db
        .select()
        .from(whatsappStatusPendentes)
        .where(inArray(whatsappStatusPendentes.wamid, [wamid, lost])),
    ).toEqual([]);
    await deliver(statusOf(wamid, 'delivered'));
    expect((await outboxRow(row.id))!.status).toBe('lido');
  });

  it('failed marks a row not yet delivered', async () => {
    const { convite } = await invited();
    const wamid = `wamid.${uniq()}`;
    await db
      .update(whatsappOutbox)
      .set({ status: 'enviado', wamid })
      .where(and(eq(whatsappOutbox.conviteId, convite.id), eq(whatsappOutbox.tipo, 'convite_evento')));
    await deliver(
      envelope({
        statuses: [
          {
            id: wamid,
            status: 'failed',
            timestamp: '1739321024',
            recipient_id: '5511',
            errors: [{ code: 131026, title: 'Message undeliverable' }],
          },
        ],
      }),
    );
    const [row] = await db.select().from(whatsappOutbox).where(eq(whatsappOutbox.wamid, wamid));
    expect(row).toMatchObject({ status: 'falhou', erro: 'whatsapp: 131026 Message undeliverable' });
  });

  it('404 for an event the caller does not manage or another region', async () => {
    const { event } = await invited();
    const viewer = await makeUser({ role: 'agenda_viewer' });
    expectError(await api('GET', `/api/agenda/${event.id}/whatsapp`, { token: viewer.token }), 404, 'NOT_FOUND');
    const { admin } = await invited();
    expectError(
      await api('GET', `/api/agenda/${event.id}/whatsapp`, { token: admin.token, regiao: 'MG' }),
      404,
      'NOT_FOUND',
    );
  });
});
