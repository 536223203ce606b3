import * as z from 'zod';
import type { WhatsappOutboxRow } from '../../db/schema';
import type { Config } from '../../env';
import { conviteToken } from './whatsapp';

/**
 * The adapter to Meta's WhatsApp Business Cloud API (docs/decisions.md#d30): what each outbox row
 * sends (an approved template with its parameters, or the free text that answers a button reply) and
 * one POST {WHATSAPP_API_URL}/{WHATSAPP_PHONE_NUMBER_ID}/messages. Called only by the queue consumer
 * (src/queue/whatsapp-consumer.ts); the tests inject a local fake (test/helpers/whatsapp.ts).
 */

const FETCH_TIMEOUT_MS = 10_000;

type Param = { type: 'text'; text: string };
const text = (v: unknown): Param => ({ type: 'text', text: typeof v === 'string' && v.trim() ? v.trim() : '-' });

/** The Cloud API request body of a row (its `to` without the `+`, as Meta writes numbers). */
export async function renderWhatsapp(row: WhatsappOutboxRow, config: Config): Promise<Record<string, unknown>> {
  const base = { messaging_product: 'whatsapp', recipient_type: 'individual', to: row.para.replace(/^\+/, '') };
  const d = row.dados;
  const template = (name: string, body: Param[], buttons: Record<string, unknown>[] = []) => ({
    ...base,
    type: 'template',
    template: {
      name,
      language: { code: config.WHATSAPP_TEMPLATE_IDIOMA },
      components: [{ type: 'body', parameters: body }, ...buttons],
    },
  });
  switch (row.tipo) {
    case 'convite_evento': {
      // The quick replies' payloads: minted now from the invitation and its professional (never stored).
      const token = await conviteToken(config.JWT_SECRET, row.conviteId ?? '', row.profissionalId ?? '');
      const button = (index: number, payload: string) => ({
        type: 'button',
        sub_type: 'quick_reply',
        index: String(index),
        parameters: [{ type: 'payload', payload }],
      });
      return template(
        config.WHATSAPP_TEMPLATE_CONVITE,
        [text(d.nome), text(d.quando), text(d.funcao)],
        [button(0, `aceitar:${token}`), button(1, `recusar:${token}`)],
      );
    }
    case 'lembrete_d2':
    case 'lembrete_d1':
      // {{3}}: the day in words as the reminder's run saw it ("hoje", "amanhã", "em 2 dias"; a member
      // who accepted late gets the D-1 reminder on the event's own day).
      return template(config.WHATSAPP_TEMPLATE_LEMBRETE, [
        text(d.nome),
        text(d.quando),
        text(d.dia ?? (row.tipo === 'lembrete_d1' ? 'amanhã' : 'em 2 dias')),
      ]);
    case 'logistica_alterada':
      return template(config.WHATSAPP_TEMPLATE_LOGISTICA, [text(d.nome), text(d.quando)]);
    case 'repasse_pago':
      // {{2}}: the net amount paid, written "R$ 1.234,56" (services/money/repasses.ts).
      return template(config.WHATSAPP_TEMPLATE_REPASSE, [text(d.nome), text(d.valor)]);
    case 'resposta':
      return { ...base, type: 'text', text: { preview_url: false, body: String(d.texto ?? '') } };
  }
}

export type WaOutcome =
  | { kind: 'sent'; wamid?: string }
  | { kind: 'retry'; error: string; after?: number }
  | { kind: 'failed'; error: string };

/** A WhatsApp sender: one message, says what happened, never throws. */
export type WaSender = (row: WhatsappOutboxRow, body: Record<string, unknown>) => Promise<WaOutcome>;

const SendAnswer = z.object({ messages: z.array(z.object({ id: z.string().min(1).max(256) })).min(1) });
const ErrorAnswer = z.object({ error: z.object({ message: z.string().optional(), code: z.number().optional() }) });

/**
 * Meta's rate limits answer 4xx with these error codes (throughput, pair rate, spam rate): retried
 * like a 429. Everything else in 4xx (bad number, template not approved, token expired) is final.
 */
const THROTTLED = new Set([4, 80007, 130429, 131048, 131056]);

const errText = (err: unknown) => (err instanceof Error ? err.message : String(err));

export function cloudSender(config: Config, fetchImpl: typeof fetch): WaSender {
  return async (_row, body) => {
    if (!config.WHATSAPP_TOKEN || !config.WHATSAPP_PHONE_NUMBER_ID)
      return { kind: 'retry', error: 'WHATSAPP_TOKEN or WHATSAPP_PHONE_NUMBER_ID is not set' };
    let res: Response;
    try {
      res = await fetchImpl(`${config.WHATSAPP_API_URL}/${config.WHATSAPP_PHONE_NUMBER_ID}/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${config.WHATSAPP_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      });
    } catch (err) {
      return { kind: 'retry', error: `whatsapp unreachable: ${errText(err)}` };
    }
    const json = (await res.json().catch(() => undefined)) as unknown;
    if (res.ok) {
      const ok = SendAnswer.safeParse(json);
      // Accepted but unreadable: not sent again (it may have gone out); the row keeps no wamid.
      return ok.success ? { kind: 'sent', wamid: ok.data.messages[0]!.id } : { kind: 'sent' };
    }
    const err = ErrorAnswer.safeParse(json);
    const code = err.success ? err.data.error.code : undefined;
    const detail = `whatsapp answered ${res.status}${code !== undefined ? ` (code ${code})` : ''}${
      err.success && err.data.error.message ? `: ${err.data.error.message.slice(0, 200)}` : ''
    }`;
    if (res.status >= 500 || res.status === 429 || (code !== undefined && THROTTLED.has(code))) {
      const after = Number(res.headers.get('retry-after'));
      return { kind: 'retry', error: detail, after: Number.isFinite(after) && after > 0 ? after : undefined };
    }
    return { kind: 'failed', error: detail };
  };
}

/** `npm run dev`'s sender: one log line per message (the number's last 4 digits only); nothing is sent. */
export const logSender: WaSender = async (row, body) => {
  console.log(
    JSON.stringify({
      level: 'info',
      message: `whatsapp: (log provider, not sent) ${row.tipo} → …${row.para.slice(-4)}`,
      outboxId: row.id,
      body: row.tipo === 'resposta' ? body.text : (body.template as { name?: string } | undefined)?.name,
    }),
  );
  return { kind: 'sent', wamid: `wamid.log-${row.id}` };
};

export const senderFor = (config: Config, fetchImpl: typeof fetch): WaSender =>
  config.WHATSAPP_PROVIDER === 'log' ? logSender : cloudSender(config, fetchImpl);
