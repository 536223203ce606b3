/**
 * Queue message shapes: what services enqueue in a request and what the consumers in src/queue/
 * read. Plain types at the bottom of the import graph, so producers and consumers share them.
 */

/** A push message as the queue carries it: the consumer looks up the users' tokens. */
export interface PushMessage {
  userId: string;
  notificationId: string;
  titulo: string;
  mensagem: string;
  dados: Record<string, unknown>;
}

/** The e-mail queue carries only the outbox row's id: the consumer reads, claims and renders the row. */
export interface MailMessage {
  outboxId: string;
}

/** Queue names as wrangler.toml declares them: src/index.ts dispatches on them. */
export const EMAIL_QUEUE_NAME = 'event-ops-email';

/**
 * The payment queue (docs/decisions.md#d19): create the checkout of an order (its url_pagamento), or
 * read the payment of a recorded webhook notification from the gateway and apply it.
 */
export type PaymentMessage = { kind: 'preferencia'; pedidoId: string } | { kind: 'notificacao'; notificacaoId: string };

export const PAYMENT_QUEUE_NAME = 'event-ops-payments';

/** The WhatsApp queue (docs/decisions.md#d30) carries only the outbox row's id, like the e-mail one. */
export interface WhatsappMessage {
  outboxId: string;
}

export const WHATSAPP_QUEUE_NAME = 'event-ops-whatsapp';
