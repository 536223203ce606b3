// E-mail, password reset, access invitations and /api/users/me (issue 14, docs/decisions.md#d14).
// Requests run with a recording EMAIL_QUEUE (so nothing is consumed behind the test's back); the
// consumer is run by the tests themselves against a fake provider. No test touches the network.
import { createExecutionContext, createMessageBatch, env, getQueueResult } from 'cloudflare:test';
import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getConfig } from '../../../src/env';
import {
  emailOutbox,
  passwordResetTokens,
  profissionais,
  refreshTokens,
  users,
  type EmailOutboxRow,
} from '../../../src/db/schema';
import type { MailMessage } from '../../../src/lib/messages';
import { sha256Hex } from '../../../src/lib/tokens';
import { EMAIL_QUEUE_NAME } from '../../../src/lib/messages';
import { handleEmailBatch, MAX_ATTEMPTS } from '../../../src/queue/email-consumer';
import { openSecret, prepareEmail, renderEmail, requeuePendingEmails } from '../../../src/services/core/mail';
import { requestPasswordReset } from '../../../src/services/accounts/password-reset';
import { entriesOf } from '../../helpers/activity-log';
import { failingD1 } from '../../helpers/failing-d1';
import { db, makeAdmin, makeUser, uniq, type TestUser } from '../../helpers/factories';
import { recordRetryDelays } from '../../helpers/queue';
import { api, expectError, UNKNOWN_ID, type ApiOptions } from '../../helpers/request';

const config = getConfig(env);

/** A queue that records what requests enqueue (its messages are never consumed by themselves). */
function recordingQueue() {
  const sent: string[] = [];
  const queue = {
    send: vi.fn(async (body: MailMessage) => void sent.push(body.outboxId)),
    sendBatch: vi.fn(async (msgs: { body: MailMessage }[]) => void sent.push(...msgs.map((m) => m.body.outboxId))),
  } as unknown as Queue<MailMessage>;
  return { sent, queue };
}
const queued = recordingQueue();
afterEach(() => void queued.sent.splice(0));

/** api() with the recording queue. */
const call = (method: string, path: string, opts: ApiOptions = {}) =>
  api(method, path, { ...opts, bindings: { ...opts.bindings, EMAIL_QUEUE: queued.queue } });

const outboxOf = (para: string) =>
  db.select().from(emailOutbox).where(eq(emailOutbox.para, para)).orderBy(desc(emailOutbox.createdAt));

/** The e-mail as the consumer would write it, with the token of its link. */
async function opened(row: EmailOutboxRow) {
  const token = row.segredo ? await openSecret(env.JWT_SECRET, row.segredo) : undefined;
  return { token, ...renderEmail(row, config, token) };
}

/** The newest e-mail of a kind to an address, opened. */
async function lastEmail(para: string, tipo: EmailOutboxRow['tipo']) {
  const row = (await outboxOf(para)).find((r) => r.tipo === tipo);
  if (!row) throw new Error(`no ${tipo} e-mail to ${para}`);
  return { row, ...(await opened(row)) };
}

const login = (email: string, senha: string) =>
  api('POST', '/auth/login', { body: { email, senha }, headers: { 'cf-connecting-ip': uniq('ip') } });

async function forgot(email: string) {
  const res = await call('POST', '/auth/forgot-password', { body: { email } });
  expect(res.status).toBe(202);
  expect(res.body).toEqual({ message: expect.any(String) });
  return res;
}

const reset = (token: string, nova_senha: string) =>
  call('POST', '/auth/reset-password', { body: { token, nova_senha } });

describe('POST /auth/forgot-password', () => {
  it('e-mails an existing account a single-use /redefinir-senha link; only the token hash is stored', async () => {
    const u = await makeUser({ nome: 'Ana Lima' });
    const before = Date.now();
    await forgot(` ${u.email.toUpperCase()} `);
    const mail = await lastEmail(u.email, 'redefinir_senha');
    expect(mail.link).toBe(`https://app.example.com/redefinir-senha?token=${mail.token}`);
    expect(mail.token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 bytes, base64url
    expect(mail.subject).toBe('Redefinição de senha');
    expect(mail.text).toContain('Olá, Ana Lima.');
    expect(mail.text).toContain(mail.link!);
    expect(mail.html).toContain(`href="${mail.link}"`);
    expect(queued.sent).toEqual([mail.row.id]);

    const [t] = await db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, u.id));
    expect(t!.tokenHash).toBe(await sha256Hex(mail.token!));
    expect(JSON.stringify(t)).not.toContain(mail.token);
    expect(JSON.stringify(mail.row)).not.toContain(mail.token); // sealed in the outbox
    const ttl = Date.parse(t!.expiresAt) - before;
    expect(ttl).toBeGreaterThanOrEqual(1800 * 1000 - 5000);
    expect(ttl).toBeLessThanOrEqual(1800 * 1000 + 5000);
  });

  it('answers an unknown address the same, with the same D1 work, and sends nothing', async () => {
    const u = await makeUser();
    const unknown = `${uniq('ninguem')}@example.com`;
    const known = await call('POST', '/auth/forgot-password', { body: { email: u.email }, countQueries: true });
    const none = await call('POST', '/auth/forgot-password', { body: { email: unknown }, countQueries: true });
    expect(none.status).toBe(known.status);
    expect(none.body).toEqual(known.body);
    expect([none.roundTrips, none.statements]).toEqual([known.roundTrips, known.statements]);
    expect(await outboxOf(unknown)).toEqual([]);
    expect(queued.sent).toHaveLength(1);
  });

  it('validates the body', async () => {
    expectError(await call('POST', '/auth/forgot-password', { body: {} }), 400, 'VALIDATION_FAILED');
    expectError(await call('POST', '/auth/forgot-password', { body: { email: 'nope' } }), 400, 'VALIDATION_FAILED');
  });

  it('sends at most 3 e-mails per address per hour, even to parallel requests; all answer 202', async () => {
    const u = await makeUser();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => call('POST', '/auth/forgot-password', { body: { email: u.email } })),
    );
    expect(answers.map((a) => a.status)).toEqual([202, 202, 202, 202, 202, 202]);
    expect(await outboxOf(u.email)).toHaveLength(3);
    expect(queued.sent).toHaveLength(3);
    // An hour later (time injected: the service takes `now`) the address may get one again.
    const later = new Date(Date.now() + 61 * 60 * 1000);
    expect(await requestPasswordReset({ db, config }, u.email, later)).toEqual(expect.any(String));
    expect(await requestPasswordReset({ db, config }, u.email, later)).toEqual(expect.any(String));
  });

  it('a new request voids the older links', async () => {
    const u = await makeUser();
    await forgot(u.email);
    const first = await lastEmail(u.email, 'redefinir_senha');
    await forgot(u.email);
    const second = await lastEmail(u.email, 'redefinir_senha');
    expect(second.token).not.toBe(first.token);
    expectError(await reset(first.token!, 'nova-senha-1'), 400, 'INVALID_RESET_TOKEN');
    expect((await reset(second.token!, 'nova-senha-1')).status).toBe(200);
  });
});

describe('POST /auth/reset-password', () => {
  it('sets the new password, spends the token, ends every session and e-mails "senha alterada"; no login', async () => {
    const u = await makeUser({ nome: 'Bruno' });
    const session = await login(u.email, u.password);
    expect(session.status).toBe(200);
    await forgot(u.email);
    const { token } = await lastEmail(u.email, 'redefinir_senha');
    queued.sent.splice(0);

    const res = await reset(token!, 'nova-senha-123');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: expect.any(String) });
    expect(res.headers.get('set-cookie')).toBeNull();

    expectError(await login(u.email, u.password), 401, 'INVALID_CREDENTIALS');
    expect((await login(u.email, 'nova-senha-123')).status).toBe(200);
    expectError(
      await api('POST', '/auth/refresh', { body: { refresh_token: session.body.refresh_token } }),
      401,
      'INVALID_REFRESH_TOKEN',
    );
    // The old session's access token stops at once too (its session is no longer live).
    expectError(await api('GET', '/api/me', { token: session.body.access_token }), 401, 'UNAUTHENTICATED');
    const live = await db
      .select()
      .from(refreshTokens)
      .where(and(eq(refreshTokens.userId, u.id), isNull(refreshTokens.revokedAt)));
    expect(live).toHaveLength(1); // the login after the reset
    expectError(await reset(token!, 'outra-senha-1'), 400, 'INVALID_RESET_TOKEN');

    const changed = await lastEmail(u.email, 'senha_alterada');
    expect(changed.subject).toBe('Sua senha foi alterada');
    expect(changed.text).toContain('Olá, Bruno.');
    expect(changed.link).toBe('https://app.example.com/login');
    expect(queued.sent).toEqual([changed.row.id]);
  });

  it('refuses unknown, expired and malformed tokens', async () => {
    expectError(await reset('x'.repeat(43), 'nova-senha-1'), 400, 'INVALID_RESET_TOKEN');
    // Time injected: a link requested 31 minutes ago has expired (TTL 1800 s).
    const u = await makeUser();
    const past = new Date(Date.now() - 31 * 60 * 1000);
    await requestPasswordReset({ db, config }, u.email, past);
    const { token } = await lastEmail(u.email, 'redefinir_senha');
    expectError(await reset(token!, 'nova-senha-1'), 400, 'INVALID_RESET_TOKEN');
    expect((await login(u.email, u.password)).status).toBe(200);
    // 29 minutes ago: still valid.
    await requestPasswordReset({ db, config }, u.email, new Date(Date.now() - 29 * 60 * 1000));
    expect((await reset((await lastEmail(u.email, 'redefinir_senha')).token!, 'nova-senha-1')).status).toBe(200);

    expectError(await reset('', 'nova-senha-1'), 400, 'VALIDATION_FAILED');
    expectError(await reset('abc', '123'), 400, 'VALIDATION_FAILED');
    expectError(await reset('abc def', 'nova-senha-1'), 400, 'VALIDATION_FAILED');
    expectError(await call('POST', '/auth/reset-password', { body: { token: 'abc' } }), 400, 'VALIDATION_FAILED');
  });

  it('of parallel resets with one token exactly one succeeds', async () => {
    const u = await makeUser();
    await forgot(u.email);
    const { token } = await lastEmail(u.email, 'redefinir_senha');
    queued.sent.splice(0);
    const senhas = Array.from({ length: 6 }, (_, i) => `corrida-${i}-senha`);
    const answers = await Promise.all(senhas.map((s) => reset(token!, s)));
    const won = answers.flatMap((a, i) => (a.status === 200 ? [i] : []));
    expect(won).toHaveLength(1);
    for (const a of answers) if (a.status !== 200) expectError(a, 400, 'INVALID_RESET_TOKEN');
    expect((await login(u.email, senhas[won[0]!]!)).status).toBe(200);
    expect((await outboxOf(u.email)).filter((r) => r.tipo === 'senha_alterada')).toHaveLength(1);
    expect(queued.sent).toHaveLength(1);
  });

  it('a pending account may reset, and is still refused at login until approved', async () => {
    const u = await makeUser({ ativo: false });
    await forgot(u.email);
    expect((await reset((await lastEmail(u.email, 'redefinir_senha')).token!, 'nova-senha-1')).status).toBe(200);
    expectError(await login(u.email, 'nova-senha-1'), 401, 'ACCOUNT_PENDING');
  });
});

describe('access invitations', () => {
  it('team registration without senha creates the login and e-mails a 7-day /definir-senha link', async () => {
    const admin = await makeAdmin();
    const email = `${uniq('equipe')}@example.com`;
    const before = Date.now();
    const res = await call('POST', '/api/profissionais', {
      token: admin.token,
      body: { nome: 'Carla Convite', email },
    });
    expect(res.status).toBe(201);
    const [user] = await db.select().from(users).where(eq(users.email, email));
    expect(user).toMatchObject({ role: 'profissional', ativo: true });
    expect(res.body.usuario_id).toBe(user!.id);

    const mail = await lastEmail(email, 'convite_acesso');
    expect(mail.link).toBe(`https://app.example.com/definir-senha?token=${mail.token}`);
    expect(mail.text).toContain('Olá, Carla Convite.');
    expect(queued.sent).toEqual([mail.row.id]);
    const [t] = await db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, user!.id));
    expect(Date.parse(t!.expiresAt) - before).toBeGreaterThanOrEqual(7 * 86_400_000 - 5000);
    expect(Date.parse(t!.expiresAt) - before).toBeLessThanOrEqual(7 * 86_400_000 + 5000);

    // Nobody can log in before the password is set; the link sets it.
    expectError(await login(email, 'qualquer-senha'), 401, 'INVALID_CREDENTIALS');
    expect((await reset(mail.token!, 'minha-senha-1')).status).toBe(200);
    const session = await login(email, 'minha-senha-1');
    expect(session.status).toBe(200);
    expect(session.body.profissional.id).toBe(res.body.id);
  });

  it('a taken e-mail creates nothing and sends nothing; without e-mail there is no login and no e-mail', async () => {
    const admin = await makeAdmin();
    const taken = await makeUser();
    const nome = uniq('Repetido');
    expectError(
      await call('POST', '/api/profissionais', { token: admin.token, body: { nome, email: taken.email } }),
      400,
      'EMAIL_TAKEN',
    );
    expect(await db.select().from(profissionais).where(eq(profissionais.nome, nome))).toEqual([]);
    expect(await outboxOf(taken.email)).toEqual([]);
    const solo = await call('POST', '/api/profissionais', { token: admin.token, body: { nome: 'Sem email' } });
    expect(solo.status).toBe(201);
    expect(solo.body.usuario_id).toBeNull();
    expect(queued.sent).toEqual([]);
  });

  it('POST /api/admin/users/{id}/convite-acesso sends a new link and voids the older one', async () => {
    const admin = await makeAdmin({ role: 'BUSINESS_OWNER' });
    const email = `${uniq('reenvio')}@example.com`;
    await call('POST', '/api/profissionais', { token: admin.token, body: { nome: 'Davi', email } });
    const first = await lastEmail(email, 'convite_acesso');
    const [user] = await db.select().from(users).where(eq(users.email, email));
    queued.sent.splice(0);

    const res = await call('POST', `/api/admin/users/${user!.id}/convite-acesso`, { token: admin.token });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ message: expect.any(String) });
    const second = await lastEmail(email, 'convite_acesso');
    expect(second.row.id).not.toBe(first.row.id);
    expect(queued.sent).toEqual([second.row.id]);
    expectError(await reset(first.token!, 'minha-senha-1'), 400, 'INVALID_RESET_TOKEN');
    expect((await reset(second.token!, 'minha-senha-1')).status).toBe(200);

    expectError(
      await call('POST', `/api/admin/users/${UNKNOWN_ID}/convite-acesso`, { token: admin.token }),
      404,
      'NOT_FOUND',
    );
    expectError(await call('POST', '/api/admin/users/nope/convite-acesso', { token: admin.token }), 400, 'INVALID_ID');
    const pro = await makeUser({ role: 'profissional' });
    expectError(
      await call('POST', `/api/admin/users/${pro.id}/convite-acesso`, { token: pro.token }),
      403,
      'FORBIDDEN',
    );
  });
});

describe('/api/users/me', () => {
  it('GET and PUT are the operations of /api/me', async () => {
    const u: TestUser = await makeUser({ nome: 'Eva' });
    const a = await api('GET', '/api/me', { token: u.token });
    const b = await api('GET', '/api/users/me', { token: u.token });
    expect(b.status).toBe(200);
    expect(b.body).toEqual(a.body);
    const put = await api('PUT', '/api/users/me', { token: u.token, body: { nome: 'Eva Nova', telefone: '11 9' } });
    expect(put.status).toBe(200);
    expect(put.body.user).toMatchObject({ name: 'Eva Nova', phone: '11 9' });
    expect((await api('GET', '/api/me', { token: u.token })).body.user.name).toBe('Eva Nova');
    expectError(await api('GET', '/api/users/me'), 401, 'UNAUTHENTICATED');
    expectError(
      await api('PUT', '/api/users/me', { token: u.token, body: { nova_senha: 'outra-123' } }),
      400,
      'VALIDATION_FAILED',
    );
  });
});

describe('e-mail consumer (src/queue/email-consumer.ts)', () => {
  const RESEND = { ...env, MAIL_PROVIDER: 'resend' };

  /** An outbox row written as a request writes it (not enqueued: the tests deliver it). */
  async function outboxRow(opts: { token?: boolean; tipo?: EmailOutboxRow['tipo'] } = {}) {
    const para = `${uniq('dest')}@example.com`;
    const token = opts.token === false ? undefined : uniq('tok');
    const mail = await prepareEmail(
      { db, config },
      { para, tipo: opts.tipo ?? 'redefinir_senha', dados: { nome: 'Fábio <b>' }, token },
      new Date(),
    );
    await db.batch([mail.insert]);
    return { id: mail.id, para, token };
  }
  const row = async (id: string) => (await db.select().from(emailOutbox).where(eq(emailOutbox.id, id)))[0]!;

  /** A fake Resend: records each request and answers with `answer()`. */
  function fakeResend(answer: () => Response = () => Response.json({ id: `re_${uniq()}` })) {
    const calls: { url: string; headers: Headers; body: any }[] = [];
    const fetchImpl = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      calls.push({ url: String(input), headers: new Headers(init?.headers), body: JSON.parse(String(init?.body)) });
      return answer();
    }) as unknown as typeof fetch;
    return { calls, fetchImpl };
  }

  /** Runs the consumer on messages for these outbox ids; the pool's result plus each retry's delay. */
  async function run(ids: string[], e: Cloudflare.Env, fetchImpl: typeof fetch, attempts = 1) {
    const batch = createMessageBatch<MailMessage>(
      EMAIL_QUEUE_NAME,
      ids.map((outboxId, i) => ({ id: `m-${i}-${uniq()}`, timestamp: new Date(), attempts, body: { outboxId } })),
    );
    const delays = recordRetryDelays(batch);
    const ctx = createExecutionContext();
    await handleEmailBatch(batch, e, fetchImpl);
    return { ...(await getQueueResult(batch, ctx)), delays, ids: batch.messages.map((m) => m.id) };
  }

  it('sends through Resend with the outbox id as Idempotency-Key, then marks the row enviado', async () => {
    const m = await outboxRow();
    const { calls, fetchImpl } = fakeResend(() => Response.json({ id: 're_123' }));
    const result = await run([m.id], RESEND, fetchImpl);
    expect(calls).toHaveLength(1);
    const [c] = calls;
    expect(c!.url).toBe('https://resend.example.test/emails');
    expect(c!.headers.get('idempotency-key')).toBe(m.id);
    expect(c!.headers.get('authorization')).toBe('Bearer re_test_key');
    expect(c!.body).toMatchObject({
      from: 'Equipe Teste <nao-responda@example.test>',
      to: [m.para],
      subject: 'Redefinição de senha',
    });
    expect(c!.body.text).toContain(`https://app.example.com/redefinir-senha?token=${m.token}`);
    expect(c!.body.html).toContain('Fábio &lt;b&gt;');
    expect(result.explicitAcks).toEqual(result.ids);
    expect(result.retryMessages).toEqual([]);
    expect(await row(m.id)).toMatchObject({ status: 'enviado', providerId: 're_123', tentativas: 1 });
  });

  it('a message delivered twice (in one batch, and again later) calls the provider once', async () => {
    const m = await outboxRow();
    const { calls, fetchImpl } = fakeResend();
    const first = await run([m.id, m.id], RESEND, fetchImpl);
    const again = await run([m.id], RESEND, fetchImpl, 2);
    expect(calls).toHaveLength(1);
    expect(first.explicitAcks).toHaveLength(2);
    expect(again.explicitAcks).toEqual(again.ids);
    expect((await row(m.id)).tentativas).toBe(1);
  });

  it('retries with backoff on 5xx and network errors, honours Retry-After on 429, then sends', async () => {
    const m = await outboxRow();
    const down = await run([m.id], RESEND, fakeResend(() => new Response('down', { status: 503 })).fetchImpl);
    expect(down.retryMessages.map((r: { msgId: string }) => r.msgId)).toEqual(down.ids);
    expect(Object.values(down.delays)).toEqual([30]);
    expect(await row(m.id)).toMatchObject({ status: 'pendente', tentativas: 1, erro: expect.stringContaining('503') });

    const offline = vi.fn(async () => {
      throw new TypeError('network down');
    }) as unknown as typeof fetch;
    const net = await run([m.id], RESEND, offline, 2);
    expect(Object.values(net.delays)).toEqual([60]);

    const limited = await run(
      [m.id],
      RESEND,
      fakeResend(() => new Response('{}', { status: 429, headers: { 'retry-after': '600' } })).fetchImpl,
      3,
    );
    expect(Object.values(limited.delays)).toEqual([600]);

    const { calls, fetchImpl } = fakeResend();
    const ok = await run([m.id], RESEND, fetchImpl, 4);
    expect(calls).toHaveLength(1);
    expect(ok.explicitAcks).toEqual(ok.ids);
    expect(await row(m.id)).toMatchObject({ status: 'enviado', tentativas: 4, erro: null });
  });

  it('a refusal (4xx) fails the row at once; transient failures fail it after the last attempt', async () => {
    const refused = await outboxRow();
    const r = await run(
      [refused.id],
      RESEND,
      fakeResend(() => Response.json({ message: 'invalid from' }, { status: 422 })).fetchImpl,
    );
    expect(r.retryMessages).toEqual([]);
    expect(r.explicitAcks).toEqual(r.ids);
    expect(await row(refused.id)).toMatchObject({ status: 'falhou', erro: 'resend answered 422: invalid from' });

    const tired = await outboxRow();
    await db
      .update(emailOutbox)
      .set({ tentativas: MAX_ATTEMPTS - 1 })
      .where(eq(emailOutbox.id, tired.id));
    const last = await run([tired.id], RESEND, fakeResend(() => new Response('', { status: 500 })).fetchImpl, 6);
    expect(last.retryMessages).toEqual([]);
    expect(await row(tired.id)).toMatchObject({ status: 'falhou', tentativas: MAX_ATTEMPTS });
  });

  it('a D1 failure retries the message with backoff; its one error line carries no SQL and no parameters', async () => {
    const m = await outboxRow();
    const failing = failingD1(env.DB, { single: (sql) => sql.startsWith('update "email_outbox"') });
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { calls, fetchImpl } = fakeResend();
    let result, lines: string[];
    try {
      result = await run([m.id], { ...RESEND, DB: failing.db }, fetchImpl, 2);
      lines = error.mock.calls.map((c) => String(c[0]));
    } finally {
      error.mockRestore();
    }
    expect(failing.injected).toBe(1);
    expect(calls).toEqual([]);
    expect(Object.values(result.delays)).toEqual([30 * 2]);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: 'error',
      message: expect.stringMatching(/^mail: delivery failed: /),
      outboxId: m.id,
    });
    expect(lines[0]).not.toMatch(/Failed query|params:|update "email_outbox"|pendente|enviando/i);
    expect(await row(m.id)).toMatchObject({ status: 'pendente', tentativas: 0 });
  });

  it('the log provider writes one line per message, with its link, and sends nothing', async () => {
    const m = await outboxRow();
    const plain = await outboxRow({ token: false, tipo: 'senha_alterada' });
    const lines: string[] = [];
    const spy = vi.spyOn(console, 'log').mockImplementation((s: unknown) => void lines.push(String(s)));
    const fetchImpl = vi.fn() as unknown as typeof fetch;
    try {
      await run([m.id, plain.id], env, fetchImpl);
    } finally {
      spy.mockRestore();
    }
    expect(fetchImpl).not.toHaveBeenCalled();
    const logged = lines.map((l) => JSON.parse(l)).filter((l) => l.message?.startsWith('mail:'));
    expect(logged).toHaveLength(2);
    expect(logged.find((l) => l.to === m.para)).toMatchObject({
      outboxId: m.id,
      subject: 'Redefinição de senha',
      link: `https://app.example.com/redefinir-senha?token=${m.token}`,
    });
    expect(logged.find((l) => l.to === plain.para)).toMatchObject({ link: 'https://app.example.com/login' });
    expect((await row(m.id)).status).toBe('enviado');
  });

  it('the cloudflare provider calls the EMAIL binding with the object form', async () => {
    const m = await outboxRow();
    const sent: unknown[] = [];
    const EMAIL = { send: vi.fn(async (msg: unknown) => (sent.push(msg), { messageId: 'cf-1' })) };
    await run([m.id], { ...env, MAIL_PROVIDER: 'cloudflare', EMAIL } as unknown as Cloudflare.Env, fetch);
    expect(sent).toEqual([
      expect.objectContaining({
        from: 'Equipe Teste <nao-responda@example.test>',
        to: m.para,
        subject: 'Redefinição de senha',
        text: expect.stringContaining(m.token!),
        html: expect.any(String),
      }),
    ]);
    expect(await row(m.id)).toMatchObject({ status: 'enviado', providerId: 'cf-1' });
  });

  it('end to end: a forgot-password e-mail goes through the real queue to the log provider', async () => {
    const u = await makeUser();
    expect((await api('POST', '/auth/forgot-password', { body: { email: u.email } })).status).toBe(202);
    await vi.waitFor(async () => expect((await outboxOf(u.email))[0]?.status).toBe('enviado'), {
      timeout: 10_000,
      interval: 100,
    });
  });
});

describe('requeuePendingEmails (the scheduled safety net)', () => {
  const row = async (id: string) => (await db.select().from(emailOutbox).where(eq(emailOutbox.id, id)))[0]!;

  async function rowAt(status: EmailOutboxRow['status'], minutesAgo: number) {
    const at = new Date(Date.now() - minutesAgo * 60_000).toISOString();
    const mail = await prepareEmail(
      { db, config },
      { para: `${uniq('rq')}@example.com`, tipo: 'senha_alterada', dados: {} },
      new Date(at),
    );
    await db.batch([mail.insert]);
    await db.update(emailOutbox).set({ status, updatedAt: at }).where(eq(emailOutbox.id, mail.id));
    return mail.id;
  }

  it('re-enqueues pending rows older than 5 minutes and claims dead for 10; once per row', async () => {
    const lost = await rowAt('pendente', 6);
    const fresh = await rowAt('pendente', 1);
    const sent = await rowAt('enviado', 60);
    const stuck = await rowAt('enviando', 11);
    const busy = await rowAt('enviando', 2);
    const q = recordingQueue();
    const now = new Date();
    const ids = await requeuePendingEmails({ ...env, EMAIL_QUEUE: q.queue }, now);
    const mine = [lost, fresh, sent, stuck, busy];
    expect(ids.filter((id) => mine.includes(id)).sort()).toEqual([lost, stuck].sort());
    expect(q.sent.filter((id) => mine.includes(id)).sort()).toEqual([lost, stuck].sort());
    const rows = await db
      .select()
      .from(emailOutbox)
      .where(inArray(emailOutbox.id, [lost, stuck]));
    expect(rows.map((r) => r.status)).toEqual(['pendente', 'pendente']);
    // A second run at once finds nothing of these (their time was moved to now).
    const again = await requeuePendingEmails({ ...env, EMAIL_QUEUE: q.queue }, now);
    expect(again.filter((id) => mine.includes(id))).toEqual([]);
    // Re-enqueued rows are then sent by the consumer as any other.
    const lines = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      const batch = createMessageBatch<MailMessage>(
        EMAIL_QUEUE_NAME,
        [lost, stuck].map((outboxId, i) => ({ id: `r-${i}`, timestamp: new Date(), attempts: 1, body: { outboxId } })),
      );
      await handleEmailBatch(batch, env);
    } finally {
      lines.mockRestore();
    }
    const done = await db
      .select()
      .from(emailOutbox)
      .where(inArray(emailOutbox.id, [lost, stuck]));
    expect(done.map((r) => r.status)).toEqual(['enviado', 'enviado']);
  });

  it('a dead claim is sent again until it has MAX_ATTEMPTS claims, then given up (falhou), never enqueued', async () => {
    const lost = await rowAt('pendente', 6);
    const retried = await rowAt('enviando', 11);
    const spent = await rowAt('enviando', 11);
    const claimedAt = (await row(spent)).updatedAt;
    await db
      .update(emailOutbox)
      .set({ tentativas: MAX_ATTEMPTS - 1, erro: 'resend answered 503', updatedAt: claimedAt })
      .where(eq(emailOutbox.id, retried));
    await db
      .update(emailOutbox)
      .set({ tentativas: MAX_ATTEMPTS, updatedAt: claimedAt })
      .where(eq(emailOutbox.id, spent));
    const mine = [lost, retried, spent];
    const q = recordingQueue();
    const now = new Date();
    // Five overlapping runs (the cron firing while a slow run is still going): each row taken once.
    const runs = await Promise.all(
      Array.from({ length: 5 }, () => requeuePendingEmails({ ...env, EMAIL_QUEUE: q.queue }, now)),
    );
    expect(
      runs
        .flat()
        .filter((id) => mine.includes(id))
        .sort(),
    ).toEqual([lost, retried].sort());
    expect(q.sent.filter((id) => mine.includes(id)).sort()).toEqual([lost, retried].sort());
    expect(await row(retried)).toMatchObject({
      status: 'pendente',
      tentativas: MAX_ATTEMPTS - 1,
      erro: 'resend answered 503',
    });
    const given = await row(spent);
    expect(given).toMatchObject({ status: 'falhou', tentativas: MAX_ATTEMPTS, updatedAt: now.toISOString() });
    expect(given.erro).toBe(`sem confirmação do envio após ${MAX_ATTEMPTS} tentativas: a mensagem pode ter chegado`);
    // Given up for good: a later run leaves it.
    expect(await requeuePendingEmails({ ...env, EMAIL_QUEUE: q.queue }, new Date(Date.now() + 3600_000))).not.toContain(
      spent,
    );
    expect((await row(spent)).status).toBe('falhou');
  });

  it('the cloudflare provider (no idempotency key): a consumer dying after every send sends a reset e-mail at most MAX_ATTEMPTS times', async () => {
    const u = await makeUser();
    await forgot(u.email);
    const { row: mail } = await lastEmail(u.email, 'redefinir_senha');
    expect(queued.sent).toEqual([mail.id]);
    const sends: unknown[] = [];
    const EMAIL = { send: vi.fn(async (msg: unknown) => (sends.push(msg), { messageId: `cf-${sends.length}` })) };
    // The consumer dies after the binding accepted the e-mail: its settle (`enviado`) never lands.
    const failing = failingD1(env.DB, {
      single: (sql) => sql.startsWith('update "email_outbox"') && sql.includes('"enviado_em" = ?'),
      times: Infinity,
    });
    const consumerEnv = { ...env, MAIL_PROVIDER: 'cloudflare', EMAIL, DB: failing.db } as unknown as Cloudflare.Env;
    const q = recordingQueue();
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      for (let round = 1; round <= MAX_ATTEMPTS + 2; round++) {
        if ((await row(mail.id)).status === 'pendente') {
          const batch = createMessageBatch<MailMessage>(EMAIL_QUEUE_NAME, [
            { id: `die-${round}-${uniq()}`, timestamp: new Date(), attempts: 1, body: { outboxId: mail.id } },
          ]);
          // Its clock 11 minutes back: the claim it leaves is past the lease for the requeue below.
          await handleEmailBatch(batch, consumerEnv, fetch, () => new Date(Date.now() - 11 * 60_000));
        }
        await requeuePendingEmails({ ...env, EMAIL_QUEUE: q.queue }, new Date());
      }
    } finally {
      quiet.mockRestore();
    }
    expect(failing.injected).toBe(MAX_ATTEMPTS);
    expect(sends).toHaveLength(MAX_ATTEMPTS);
    expect(q.sent.filter((id) => id === mail.id)).toHaveLength(MAX_ATTEMPTS - 1);
    const r = await row(mail.id);
    expect(r).toMatchObject({ status: 'falhou', tentativas: MAX_ATTEMPTS });
    expect(r.erro).toMatch(/pode ter chegado/);
  });

  it('erases sealed tokens once the longest link has expired', async () => {
    const old = await prepareEmail(
      { db, config },
      { para: `${uniq('old')}@example.com`, tipo: 'convite_acesso', dados: {}, token: 'segredo' },
      new Date(Date.now() - 9 * 86_400_000),
    );
    await db.batch([old.insert]);
    await db.update(emailOutbox).set({ status: 'enviado' }).where(eq(emailOutbox.id, old.id));
    await requeuePendingEmails({ ...env, EMAIL_QUEUE: recordingQueue().queue }, new Date());
    const [r] = await db.select().from(emailOutbox).where(eq(emailOutbox.id, old.id));
    expect(r!.segredo).toBeNull();
  });
});

describe('activity log of the e-mail routes', () => {
  it('logs a reset link sent, a reset done and an access invitation re-sent; nothing for an unknown address', async () => {
    const u = await makeUser({ nome: 'Clara' });
    await forgot(u.email);
    await forgot(`${uniq('ninguem')}@example.com`);
    const sent = await entriesOf(u.id, 'auth.forgot_password');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.ator_id).toBe(u.id);

    const { token } = await lastEmail(u.email, 'redefinir_senha');
    expectError(await reset('x'.repeat(43), 'nova-senha-123'), 400, 'INVALID_RESET_TOKEN');
    expect(await entriesOf(u.id, 'auth.password_reset')).toHaveLength(0);
    expect((await reset(token!, 'nova-senha-123')).status).toBe(200);
    const done = await entriesOf(u.id, 'auth.password_reset');
    expect(done).toHaveLength(1);
    // Never the password, the hash or the token.
    expect(JSON.stringify(done[0])).not.toMatch(/nova-senha|senha_hash|token/);
    expectError(await reset(token!, 'outra-senha-1'), 400, 'INVALID_RESET_TOKEN');
    expect(await entriesOf(u.id, 'auth.password_reset')).toHaveLength(1);

    const admin = await makeAdmin();
    expect((await call('POST', `/api/admin/users/${u.id}/convite-acesso`, { token: admin.token })).status).toBe(202);
    const invited = await entriesOf(u.id, 'users.access_invitation');
    expect(invited).toHaveLength(1);
    expect(invited[0]!.ator_id).toBe(admin.id);
    await call('POST', `/api/admin/users/${UNKNOWN_ID}/convite-acesso`, { token: admin.token });
    expect(await entriesOf(UNKNOWN_ID, 'users.access_invitation')).toHaveLength(0);
  });
});
