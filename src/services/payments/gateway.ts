/**
 * The payment gateway as the rest of the code sees it (docs/decisions.md#d19): one small interface,
 * so another gateway than Mercado Pago can be added behind it. Implementations call the outside
 * service over an injected `fetch` (tests and `npm run dev` point the base URL at a local fake) and
 * never throw for an answer: they say whether a retry may help.
 */

/** What a checkout needs from an order. */
export interface PreferenceInput {
  pedidoId: string;
  titulo: string;
  valorCentavos: number;
  parcelas: number;
  expiraEm: string;
  comprador: { nome: string; email: string; cpf: string };
}

/** A payment as the gateway reports it, normalised. */
export interface GatewayPayment {
  id: string;
  /** The gateway's status (Mercado Pago: approved, pending, in_process, rejected, cancelled, refunded, charged_back, ...). */
  status: string;
  externalReference: string | null;
  /** The amount as the gateway gave it (reais). */
  valor: number;
  /** The same in integer cents, or null when it is not a whole number of cents (never rounded: a divergence). */
  valorCentavos: number | null;
  moeda: string;
}

export type GatewayResult<T> =
  | { kind: 'ok'; value: T }
  /** Network error, timeout, 5xx, 429: try again later (`after`: seconds the gateway asked for). */
  | { kind: 'retry'; error: string; after?: number }
  /** The gateway refused for good (other 4xx, a malformed answer): retrying changes nothing. */
  | { kind: 'failed'; error: string; notFound?: boolean };

export interface Gateway {
  /** A checkout for the order; answers its id and the url the buyer pays at. */
  createPreference(input: PreferenceInput): Promise<GatewayResult<{ id: string; url: string }>>;
  /** The payment as the gateway knows it now (never trust a notification's body). */
  getPayment(id: string): Promise<GatewayResult<GatewayPayment>>;
}

/** Gateway statuses that pay an order, and those that take the money back. */
export const PAID_STATUSES = new Set(['approved']);
export const REVERSED_STATUSES = new Set(['refunded', 'charged_back']);
