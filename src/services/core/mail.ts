import { enqueueInBackground } from '../../lib/background';
import { and, isNotNull, sql, type SQL } from 'drizzle-orm';
import { createDb } from '../../db/client';
import type { Ctx } from './context';
import { insertWhere } from '../../db/guarded';
import { outboxSteps, requeuedIds } from '../../db/outbox-claim';
import { olderThan } from '../../db/stale';
import { emailOutbox, type EmailTipo } from '../../db/schema';
import type { Bindings, Config } from '../../env';
import type { MailMessage } from '../../lib/messages';
import { b64url, fromB64url } from '../../lib/tokens';

/**
 * E-mail (docs/decisions.md#d14), the writer side: the outbox statement a write adds to its own D1
 * batch, the enqueue after that batch, the templates (Portuguese, plain text + simple HTML, links
 * from APP_URL) and the safety net that re-enqueues rows whose enqueue was lost. The sending side is
 * src/queue/email-consumer.ts.
 *
 * Why an outbox: a request never calls a mail provider. Its change and the outbox row commit
 * together (one batch), so an e-mail exists exactly when its cause does; the queue message only
 * carries the row id. If the enqueue after the batch fails, the row stays `pendente` and
 * `requeuePendingEmails` (run by the scheduled dispatcher) sends it on.
 */

// --- The link's secret in the outbox -------------------------------------------------------------
//
// A reset or invitation e-mail carries a one-time token whose SHA-256 alone is stored with the token.
// The consumer still needs the token to write the link, possibly minutes later (retries, or the
// re-enqueue of a lost message), so the outbox keeps it sealed with AES-GCM under a key derived (HKDF)
// from JWT_SECRET: a copy of the database alone reveals no usable link. (Whoever also holds
// JWT_SECRET can mint any session anyway.) `requeuePendingEmails` erases the sealed value once the
// longest-lived token (7 days) is over.

const enc = new TextEncoder();

const sealKeys = new Map<string, Promise<CryptoKey>>();
function sealKey(secret: string): Promise<CryptoKey> {
  let key = sealKeys.get(secret);
  if (!key) {
    key = crypto.subtle
      .importKey('raw', enc.encode(secret), 'HKDF', false, ['deriveKey'])
      .then((base) =>
        crypto.subtle.deriveKey(
          { name: 'HKDF', hash: 'SHA-256', salt: enc.encode('event-ops/email-outbox'), info: enc.encode('v1') },
          base,
          { name: 'AES-GCM', length: 256 },
          false,
          ['encrypt', 'decrypt'],
        ),
      );
    if (sealKeys.size >= 4) sealKeys.clear(); // a rotated secret must not pin the old keys
    sealKeys.set(secret, key);
  }
  return key;
}

/** `v1.<iv>.<ciphertext>`, base64url. */
export async function sealSecret(jwtSecret: string, plain: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const ct = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, await sealKey(jwtSecret), enc.encode(plain));
  return `v1.${b64url(iv)}.${b64url(new Uint8Array(ct))}`;
}

/** The plain value, or undefined when it cannot be opened (malformed, or JWT_SECRET rotated since). */
export async function openSecret(jwtSecret: string, sealed: string): Promise<string | undefined> {
  const [v, iv, ct] = sealed.split('.');
  if (v !== 'v1' || !iv || !ct) return undefined;
  try {
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: fromB64url(iv) },
      await sealKey(jwtSecret),
      fromB64url(ct),
    );
    return new TextDecoder().decode(plain);
  } catch {
    return undefined;
  }
}

// --- Templates ------------------------------------------------------------------------------------

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
  /** The action link, when the e-mail has one (the log provider prints it). */
  link?: string;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

/** The link path of each kind that carries a token. */
const LINK_PATHS: Partial<Record<EmailTipo, string>> = {
  redefinir_senha: '/redefinir-senha',
  convite_acesso: '/definir-senha',
  pesquisa: '/pesquisa',
};

export const emailNeedsToken = (tipo: EmailTipo) => LINK_PATHS[tipo] !== undefined;

interface Template {
  subject: string;
  /** Paragraphs before the button/link. */
  intro: string[];
  action?: { label: string; url: string };
  /** Paragraphs after it. */
  outro: string[];
}

function template(
  tipo: EmailTipo,
  nome: string,
  appUrl: string,
  token: string | undefined,
  dados: Record<string, unknown> = {},
): Template {
  const link = token !== undefined && LINK_PATHS[tipo] ? `${appUrl}${LINK_PATHS[tipo]}?token=${token}` : undefined;
  switch (tipo) {
    case 'redefinir_senha':
      return {
        subject: 'Redefinição de senha',
        intro: [
          `Olá, ${nome}.`,
          'Recebemos um pedido para redefinir a senha da sua conta. Para escolher uma nova senha, use o link abaixo (válido por 30 minutos, uma única vez):',
        ],
        action: { label: 'Redefinir minha senha', url: link! },
        outro: [
          'Se você não pediu a redefinição, ignore este e-mail: sua senha continua a mesma.',
          'Cada novo pedido invalida os links anteriores.',
        ],
      };
    case 'convite_acesso':
      return {
        subject: 'Seu acesso à equipe',
        intro: [
          `Olá, ${nome}.`,
          'Você foi cadastrado(a) na nossa equipe de eventos. Para acessar o sistema, defina sua senha pelo link abaixo (válido por 7 dias, uma única vez):',
        ],
        action: { label: 'Definir minha senha', url: link! },
        outro: ['Depois de definir a senha, entre com este endereço de e-mail.'],
      };
    case 'pesquisa': {
      const titulo = typeof dados.titulo === 'string' ? dados.titulo : 'Pesquisa de satisfação';
      return {
        subject: titulo,
        intro: [
          `Olá, ${nome}.`,
          `Queremos saber sua opinião: responda à pesquisa "${titulo}" pelo link abaixo (válido por 14 dias, uma única vez). Leva poucos minutos.`,
        ],
        action: { label: 'Responder à pesquisa', url: link! },
        outro: ['Obrigado por nos ajudar a melhorar nossos eventos.'],
      };
    }
    case 'cabeca_log': {
      // The activity log's daily head (docs/decisions.md#d15): kept outside D1, it lets an auditor see later
      // whether the chain still reaches this seal.
      const { dia, seq, hash, versao } = dados as { dia?: unknown; seq?: unknown; hash?: unknown; versao?: unknown };
      return {
        subject: `Selo diário do log de atividades (${String(dia)})`,
        intro: [
          `Olá, ${nome}.`,
          `Este é o selo do log de atividades de ${String(dia)}: a última entrada selada é a seq ${String(seq)}, com o selo ${String(hash)} (versão da chave ${String(versao)}).`,
          'Guarde este e-mail fora do sistema (não o apague). Para conferir depois que o log não foi alterado nem encurtado até esta entrada, um SUPERADMIN abre:',
          `GET /api/logs-atividade/verificacao?seq=${String(seq)}&hash=${String(hash)}`,
        ],
        outro: [
          'A resposta deve ter "ok": true. Qualquer outra resposta indica uma alteração no log: avise o responsável pela segurança.',
        ],
      };
    }
    case 'chave_pix_alterada': {
      // Only the key's type and last 4 characters travel: an e-mail is read in many places.
      const tipo = typeof dados.tipo_chave_pix === 'string' ? dados.tipo_chave_pix : undefined;
      const final = typeof dados.final === 'string' ? dados.final : undefined;
      return {
        subject: 'Sua chave PIX foi alterada',
        intro: [
          `Olá, ${nome}.`,
          tipo && final
            ? `A chave PIX de recebimento do seu cadastro acabou de ser alterada: agora é do tipo ${tipo}, terminada em ${final}. Os próximos repasses serão pagos nela.`
            : 'A chave PIX de recebimento do seu cadastro acabou de ser removida: sem ela, os próximos repasses não podem ser aprovados.',
        ],
        action: { label: 'Entrar', url: `${appUrl}/login` },
        outro: [
          `Se não foi você, troque sua senha agora em ${appUrl}/esqueci-senha e avise o administrador da sua empresa antes do próximo repasse.`,
        ],
      };
    }
    case 'senha_alterada':
      return {
        subject: 'Sua senha foi alterada',
        intro: [
          `Olá, ${nome}.`,
          'A senha da sua conta acabou de ser alterada e todas as sessões abertas foram encerradas.',
        ],
        action: { label: 'Entrar', url: `${appUrl}/login` },
        outro: [
          `Se não foi você, peça uma nova senha agora em ${appUrl}/esqueci-senha e avise o administrador da sua empresa.`,
        ],
      };
  }
}

/**
 * The e-mail of an outbox row: subject, plain text and a simple HTML version with the same words.
 * `token` is the plain one-time token for the kinds that link to a password page.
 */
export function renderEmail(
  row: { tipo: EmailTipo; dados: Record<string, unknown> },
  config: Pick<Config, 'APP_URL'>,
  token?: string,
): RenderedEmail {
  const nome = typeof row.dados.nome === 'string' && row.dados.nome.trim() ? row.dados.nome.trim() : 'tudo bem';
  const t = template(row.tipo, nome, config.APP_URL, token, row.dados);
  const assinatura = 'Equipe de eventos';
  const text = [
    ...t.intro,
    ...(t.action ? [`${t.action.label}: ${t.action.url}`] : []),
    ...t.outro,
    `— ${assinatura}`,
  ].join('\n\n');
  const p = (s: string) => `<p>${escapeHtml(s)}</p>`;
  const html = [
    '<!doctype html><html lang="pt-BR"><body style="font-family:Arial,sans-serif;line-height:1.5;color:#222">',
    ...t.intro.map(p),
    ...(t.action
      ? [
          `<p><a href="${escapeHtml(t.action.url)}" style="display:inline-block;padding:10px 16px;background:#1a56db;color:#fff;text-decoration:none;border-radius:4px">${escapeHtml(t.action.label)}</a></p>`,
          `<p style="font-size:12px;color:#555">Se o botão não funcionar, copie este endereço no navegador: ${escapeHtml(t.action.url)}</p>`,
        ]
      : []),
    ...t.outro.map(p),
    p(`— ${assinatura}`),
    '</body></html>',
  ].join('\n');
  return { subject: t.subject, text, html, link: t.action?.url };
}

// --- The writer -----------------------------------------------------------------------------------

export interface NewEmail {
  /** The address, or SQL that reads it inside the batch (a user created or found in the same batch). */
  para: string | SQL;
  tipo: EmailTipo;
  /** Template fields (`nome`): values, or SQL (json_object(...)) evaluated inside the batch. */
  dados: Record<string, unknown> | SQL;
  /** The plain one-time token of the link, sealed before it is stored. */
  token?: string;
  /** The row is inserted only when this holds inside the batch (the cause of the e-mail happened). */
  when?: SQL;
}

/**
 * The ONE way to produce an e-mail: an outbox insert that joins the write's batch (guarded by
 * `when`), and its id, to hand to `enqueueEmails` once the batch succeeded AND the row exists
 * (check the insert's `meta.changes` when it is guarded).
 */
export async function prepareEmail(
  { db, config }: Pick<Ctx, 'db'> & { config: Pick<Config, 'JWT_SECRET'> },
  email: NewEmail,
  now: Date,
) {
  const id = crypto.randomUUID();
  const at = now.toISOString();
  const insert = insertWhere(
    db,
    emailOutbox,
    {
      id,
      para: email.para as string,
      tipo: email.tipo,
      dados: email.dados as Record<string, unknown>,
      segredo: email.token === undefined ? null : await sealSecret(config.JWT_SECRET, email.token),
      status: 'pendente',
      tentativas: 0,
      disponivelEm: at,
      createdAt: at,
      updatedAt: at,
    },
    email.when ?? sql`1`,
  );
  return { id, insert };
}

/** Where a service hands the outbox ids of its e-mails once its batch succeeded (route.ts `mailOf`). */
export type SendMail = (outboxIds: string[]) => void;

/**
 * Enqueues outbox ids in the background (never failing or delaying the request). A lost enqueue
 * leaves the row `pendente`, which `requeuePendingEmails` picks up; without a queue binding the
 * rows wait for it too.
 */
export function enqueueEmails(
  queue: Queue<MailMessage> | undefined,
  waitUntil: (p: Promise<unknown>) => void,
  outboxIds: string[],
) {
  const bodies = outboxIds.map((outboxId) => ({ outboxId }));
  enqueueInBackground(queue, waitUntil, bodies, 'mail enqueue failed (the scheduled re-enqueue will send it)', {
    outboxIds,
  });
}

// --- The safety net -------------------------------------------------------------------------------

/** A pending row older than this, past its retry time, is assumed to have lost its queue message. */
export const REQUEUE_AFTER_MS = 5 * 60 * 1000;
/** A row claimed (`enviando`) this long ago belongs to a consumer that died mid-send. */
export const CLAIM_LEASE_MS = 10 * 60 * 1000;
/**
 * Claims per e-mail at most (the claim counts them): after the last transient failure the consumer
 * marks the row `falhou` (src/queue/email-consumer.ts), and a dead claim with this many is given up.
 */
export const EMAIL_MAX_ATTEMPTS = 6;
/** The sealed token is kept no longer than the longest token lives (an invitation: 7 days) plus a day. */
export const SEGREDO_RETENTION_MS = 8 * 86_400 * 1000;

/**
 * Re-enqueues the e-mails whose queue message was lost: rows `pendente` whose retry time passed
 * more than 5 minutes ago, and rows stuck `enviando` past the claim lease (their consumer died). A
 * resend through Resend carries the same idempotency key, so Resend does not deliver twice; the
 * `cloudflare` provider has none, so a consumer dying after the send and before its settle means a
 * second copy. Its bound: a dead claim with EMAIL_MAX_ATTEMPTS claims is given up (`falhou`), never
 * sent again (db/outbox-claim.ts `requeue`, the WhatsApp outbox's too). The guarded UPDATE that
 * picks a row moves its `disponivel_em` to `now`, so two overlapping runs do not pick it twice; and
 * the consumer's claim sends a row at most once anyway. Also erases sealed tokens past their
 * retention. Idempotent; answers the ids it enqueued. Called by the scheduled dispatcher.
 */
export async function requeuePendingEmails(env: Bindings, now: Date): Promise<string[]> {
  const db = createDb(env.DB);
  const [picked] = await db.batch([
    outboxSteps(emailOutbox).requeue(db, now, {
      requeueAfterMs: REQUEUE_AFTER_MS,
      leaseMs: CLAIM_LEASE_MS,
      maxAttempts: EMAIL_MAX_ATTEMPTS,
    }),
    db
      .update(emailOutbox)
      .set({ segredo: null })
      .where(and(isNotNull(emailOutbox.segredo), olderThan(emailOutbox.createdAt, now, SEGREDO_RETENTION_MS))),
  ]);
  const ids = requeuedIds(picked);
  if (ids.length > 0 && env.EMAIL_QUEUE) {
    // Awaited (not in the background): a failure leaves the rows to the next run, 5 minutes later.
    await env.EMAIL_QUEUE.sendBatch(ids.map((outboxId) => ({ body: { outboxId } })));
  }
  return ids;
}
