import { and, eq, inArray, isNotNull, ne, sql, type SQL } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { Db } from '../../db/client';
import { insertWhere } from '../../db/guarded';
import { olderThan, staleIds } from '../../db/stale';
import {
  pagamentoNotificacoes,
  pagamentosDuplicados,
  pedidos,
  systemKey,
  type NotificationRow,
  type PagamentoNotificacaoRow,
  type PedidoRow,
} from '../../db/schema';
import { nowIso } from '../../db/schema/columns';
import { formatMoney } from '../../lib/csv';
import { ApiError } from '../../lib/errors';
import { logger } from '../../lib/logger';
import { saoPauloDate } from '../../lib/dates';
import { UUID_RE } from '../../lib/fields';
import type { PushMessage } from '../../lib/messages';
import { logRowWrite, logStatement, type Change, type LogCtx } from '../core/activity-log';
import type { Ctx } from '../core/context';
import { entryInsert, estornoStatements } from '../money/financeiro';
import { notifiedPush, notifyUsersWhere } from '../core/notifications';
import { PAID_STATUSES, REVERSED_STATUSES, type GatewayPayment } from './gateway';
import { verifyWebhookSignature } from './mercadopago';
import { regionAdmin } from '../accounts/profile';

type Stmt = BatchItem<'sqlite'>;

/**
 * Payments of orders (docs/decisions.md#d19): the webhook's record of a notification, and what the
 * payment consumer does with the payment it reads from the gateway.
 *
 * Exactly once, whatever the number, order or repetition of notifications: every effect is a step
 * guarded by the order's state, in ONE batch, its log entry and revenue entry written before its
 * UPDATE under the same condition (so they exist exactly when the UPDATE changes the row):
 *   pay:       pendente | expirado | cancelado → pago, `pagamento_id` = this payment (+ revenue entry)
 *              when the payment is approved, refunded or charged back;
 *   refund:    pago → estornado (+ mirror entry) when refunded or charged back, and ONLY when this
 *              payment is the order's `pagamento_id` (another payment's refund leaves the order alone);
 *   duplicate: an approved payment of an order another payment paid is recorded once per payment
 *              (pagamentos_duplicados, unique key) with its log entry and the region's administrators
 *              notified (the money must be refunded); the order is never touched.
 * The gateway's current state is what counts (re-read on every notification): a refund notified
 * before its approval, or an approval processed after its refund, both end `estornado` with the
 * revenue entry and its mirror; nothing ever moves an order back from `estornado`. Which step applies
 * is decided inside the batch (the duplicate's condition reads the order after the pay step), never
 * from the order read before it: two payments of one order processed at once pay it once and record
 * the other as the duplicate.
 */

/** Who acts in the log for the gateway's changes: no user; the notification id as the request id. */
const gatewayLog = (notificacaoId: string): LogCtx => ({ atorId: null, atorRole: null, requestId: notificacaoId });

/**
 * Records a verified notification once (its signed manifest is unique) with its log entry.
 * Answers the new row's id, or undefined when it was recorded before (a replay or a retry).
 */
export async function recordNotification(
  db: Db,
  { provedor, pagamentoId, chave }: { provedor: string; pagamentoId: string; chave: string },
) {
  const id = crypto.randomUUID();
  const at = nowIso();
  const [inserted] = await db.batch([
    db
      .insert(pagamentoNotificacoes)
      .values({ id, provedor, pagamentoId, chave, status: 'recebida', createdAt: at, updatedAt: at })
      .onConflictDoNothing()
      .returning({ id: pagamentoNotificacoes.id }),
    logStatement(db, gatewayLog(id), {
      acao: 'pagamentos.notificacao',
      entidade: 'pagamento_notificacoes',
      entidadeId: id,
      dados: { provedor: { depois: provedor }, pagamento_id: { depois: pagamentoId } },
      when: sql`exists (select 1 from ${pagamentoNotificacoes} where ${pagamentoNotificacoes.id} = ${id})`,
    }),
  ]);
  return inserted[0]?.id;
}

export const notificationById = async (db: Db, id: string) =>
  (await db.select().from(pagamentoNotificacoes).where(eq(pagamentoNotificacoes.id, id)))[0];

/** Notifications still `recebida` this long after arriving lost their queue message (requeue-payments job). */
export const NOTIFICATION_REQUEUE_AFTER_MS = 5 * 60 * 1000;

export const staleNotifications = (db: Db, now: Date) =>
  staleIds(
    db,
    pagamentoNotificacoes.id,
    and(
      eq(pagamentoNotificacoes.status, 'recebida'),
      olderThan(pagamentoNotificacoes.createdAt, now, NOTIFICATION_REQUEUE_AFTER_MS),
    )!,
  );

/** The São Paulo calendar day of an instant (the finance entries' dates). */
const spDate = (iso: string) => saoPauloDate(new Date(iso));

export type Outcome = 'processada' | 'ignorada' | 'divergente';

/** The notification's final status, once (guarded by `recebida`). */
const settle = (
  db: Db,
  id: string,
  { status, pedidoId, erro = null }: { status: Outcome; pedidoId: string | null; erro?: string | null },
) =>
  db
    .update(pagamentoNotificacoes)
    .set({ status, pedidoId, erro, updatedAt: nowIso() })
    .where(and(eq(pagamentoNotificacoes.id, id), eq(pagamentoNotificacoes.status, 'recebida')));

/** A notification whose payment names no order of ours (another integration's, or not found). */
export async function ignoreNotification(db: Db, id: string, erro: string) {
  await settle(db, id, { status: 'ignorada', pedidoId: null, erro });
}

/** The notification a payment is applied for. */
export type NotificationRef = Pick<PagamentoNotificacaoRow, 'id' | 'provedor'>;

/** What applying a payment did, and the push messages of the notifications it wrote (to enqueue after it). */
export interface Applied {
  outcome: Outcome;
  push: PushMessage[];
}

/** One payment applied to its order: what every step builds its statements from. */
interface Apply {
  db: Db;
  /** The gateway acts: no user; the notification id as the request id. */
  log: LogCtx;
  notification: NotificationRef;
  order: PedidoRow;
  payment: GatewayPayment & { valorCentavos: number };
  /** This processing's instant, ISO. */
  at: string;
}

/**
 * A guarded change of the order, its log entry first and `between` (the entries it brings) in
 * between, all under `where`: they exist exactly when the update changes the row.
 */
const orderStep = (
  { db, log, order }: Apply,
  s: { where: SQL; acao: string; dados: Record<string, Change>; between: Stmt[]; set: Partial<PedidoRow> },
): [Stmt, ...Stmt[]] => [
  logRowWrite(
    { db, log },
    { table: pedidos, where: s.where },
    { acao: s.acao, entidade: 'pedidos', regiao: order.regiao, dados: s.dados },
  ),
  ...s.between,
  db.update(pedidos).set(s.set).where(s.where),
];

/**
 * pay: pendente | expirado | cancelado → pago by this payment, with the order's revenue entry
 * (docs/decisions.md#d18, #d19): `receita`, category `Pacotes de fotos`, `origem` `pedido`, on its FOT record,
 * already `pago`. Its `chave_externa` `pedido:<id>` is unique per region, a second line of defence
 * behind the guarded step.
 */
function payStep(a: Apply) {
  const { order, payment, at } = a;
  const lancamentoId = crypto.randomUUID();
  const payable = and(eq(pedidos.id, order.id), inArray(pedidos.status, ['pendente', 'expirado', 'cancelado']))!;
  const receita = entryInsert(
    a,
    {
      id: lancamentoId,
      regiao: order.regiao,
      tipo: 'receita',
      categoria: { sistema: 'pacotes_fotos' },
      descricao: `Pedido: ${order.pacoteNome} — ${order.compradorNome}`,
      valorCentavos: order.valorCentavos,
      vencimento: spDate(at),
      origem: 'pedido',
      status: 'pago',
      pagoEm: spDate(at),
      fotId: order.fotId,
      chaveExterna: systemKey('pedido:', order.id),
    },
    { when: sql`exists (select 1 from ${pedidos} where ${payable})` },
  ).statements;
  return orderStep(a, {
    where: payable,
    acao: 'pedidos.pago',
    dados: {
      status: { antes: pedidos.status, depois: 'pago' },
      pagamento_id: { depois: payment.id },
      valor_centavos: { depois: payment.valorCentavos },
    },
    between: receita,
    set: { status: 'pago', pagoEm: at, pagamentoId: payment.id, lancamentoId, updatedAt: at },
  });
}

/**
 * refund: pago → estornado, only when this payment is the one that paid the order (another payment's
 * refund leaves it `pago`), with the reversal of its revenue entry (`estornado` plus its mirror): the
 * entry is named by the order's `lancamento_id` only while the step applies, so otherwise nothing matches.
 */
function refundStep(a: Apply) {
  const { order, payment, at } = a;
  const refundable = and(eq(pedidos.id, order.id), eq(pedidos.status, 'pago'), eq(pedidos.pagamentoId, payment.id))!;
  const reversal = estornoStatements(
    a,
    { id: sql`(select ${pedidos.lancamentoId} from ${pedidos} where ${refundable})` },
    spDate(at),
  ).statements;
  return orderStep(a, {
    where: refundable,
    acao: 'pedidos.estornar',
    dados: {
      status: { antes: pedidos.status, depois: 'estornado' },
      pagamento_id: { depois: payment.id },
      status_gateway: { depois: payment.status },
    },
    between: reversal,
    set: { status: 'estornado', estornadoEm: at, updatedAt: at },
  });
}

/** An amount that is not the order's (or not BRL): nothing is paid; logged once per notification (its settle is guarded the same way). */
async function divergent({ db, log, notification, order }: Omit<Apply, 'payment'>, payment: GatewayPayment) {
  const open = sql`exists (select 1 from ${pagamentoNotificacoes} where ${pagamentoNotificacoes.id} = ${notification.id} and ${pagamentoNotificacoes.status} = 'recebida')`;
  await db.batch([
    logStatement(db, log, {
      acao: 'pedidos.pagamento_divergente',
      entidade: 'pedidos',
      entidadeId: order.id,
      regiao: order.regiao,
      dados: {
        valor_centavos: { antes: order.valorCentavos, depois: payment.valorCentavos },
        valor_gateway: { depois: payment.valor },
        moeda: { depois: payment.moeda },
        pagamento_id: { depois: payment.id },
        status_gateway: { depois: payment.status },
      },
      when: open,
    }),
    settle(db, notification.id, {
      status: 'divergente',
      pedidoId: order.id,
      erro: `amount ${payment.valor} ${payment.moeda} != ${(order.valorCentavos / 100).toFixed(2)} BRL`,
    }),
  ]);
}

/**
 * Applies the gateway's view of a payment to its order (see the file comment). `job`: the session and
 * the processing's instant (the consumer's clock).
 */
export async function applyPayment(
  job: { db: Db; now: Date },
  notification: NotificationRef,
  payment: GatewayPayment,
): Promise<Applied> {
  const { db } = job;
  const ref = payment.externalReference?.toLowerCase();
  const [order] = ref && UUID_RE.test(ref) ? await db.select().from(pedidos).where(eq(pedidos.id, ref)) : [];
  if (!order) {
    const erro = `external_reference ${payment.externalReference ?? '(none)'} names no order`;
    await settle(db, notification.id, { status: 'ignorada', pedidoId: null, erro });
    return { outcome: 'ignorada', push: [] };
  }
  if (!PAID_STATUSES.has(payment.status) && !REVERSED_STATUSES.has(payment.status)) {
    // pending, in_process, rejected, cancelled...: the order waits (the buyer may pay again until it expires).
    await settle(db, notification.id, { status: 'processada', pedidoId: order.id });
    return { outcome: 'processada', push: [] };
  }
  const log = gatewayLog(notification.id);
  const at = job.now.toISOString();
  // Exact cents: an amount that is not a whole number of cents (10.005) diverges, it is never rounded.
  if (payment.moeda !== 'BRL' || payment.valorCentavos === null || payment.valorCentavos !== order.valorCentavos) {
    await divergent({ db, log, notification, order, at }, payment);
    return { outcome: 'divergente', push: [] };
  }
  const a: Apply = { db, log, notification, order, payment: { ...payment, valorCentavos: payment.valorCentavos }, at };
  // Which step applies is decided in the batch (see the file comment): pay, then refund or record a duplicate.
  const steps = payStep(a);
  let notifiedAt: number | undefined;
  if (REVERSED_STATUSES.has(payment.status)) steps.push(...refundStep(a), ...duplicateReversed(a));
  else {
    const dup = duplicateStatements(a);
    notifiedAt = steps.length + dup.notifyAt;
    steps.push(...dup.statements);
  }
  const results: unknown[] = await db.batch([
    ...steps,
    settle(db, notification.id, { status: 'processada', pedidoId: order.id }),
  ]);
  const written = notifiedAt === undefined ? [] : (results[notifiedAt] as NotificationRow[]);
  return { outcome: 'processada', push: notifiedPush(written) };
}

/**
 * An approved payment of an order ANOTHER payment paid (the order's `pagamento_id` as the pay step
 * of the same batch left it): recorded once per gateway payment (unique (provedor, pagamento_id),
 * ON CONFLICT DO NOTHING), and only the statement that recorded it writes the log entry
 * `pedidos.pagamento_duplicado` and notifies the region's administrators, who must refund it. The
 * order is not touched. `notifyAt`: the notifications' insert among `statements`.
 */
function duplicateStatements({ db, log, notification, order, payment, at }: Apply) {
  const id = crypto.randomUUID();
  const paidByAnother = sql`exists (select 1 from ${pedidos} where ${and(
    eq(pedidos.id, order.id),
    isNotNull(pedidos.pagamentoId),
    ne(pedidos.pagamentoId, payment.id),
  )})`;
  const recorded = sql`exists (select 1 from ${pagamentosDuplicados} where ${pagamentosDuplicados.id} = ${id})`;
  const notes = notifyUsersWhere(
    db,
    {
      tipo: 'pagamento_duplicado',
      titulo: 'Pagamento em duplicidade',
      mensagem: `O pedido "${order.pacoteNome}" de ${order.compradorNome} já estava pago e recebeu outro pagamento (${payment.id}, R$ ${formatMoney(payment.valorCentavos)}): devolva-o no Mercado Pago.`,
      dados: { pedido_id: order.id, pagamento_id: payment.id },
    },
    { users: regionAdmin(order.regiao), when: recorded, now: at },
  );
  const statements: BatchItem<'sqlite'>[] = [
    insertWhere(
      db,
      pagamentosDuplicados,
      {
        id,
        regiao: order.regiao,
        pedidoId: order.id,
        provedor: notification.provedor,
        pagamentoId: payment.id,
        valorCentavos: payment.valorCentavos,
        statusGateway: payment.status,
        createdAt: at,
        updatedAt: at,
      },
      paidByAnother,
    ).onConflictDoNothing(),
    logStatement(db, log, {
      acao: 'pedidos.pagamento_duplicado',
      entidade: 'pedidos',
      entidadeId: order.id,
      regiao: order.regiao,
      dados: {
        pagamento_id: { depois: payment.id },
        valor_centavos: { depois: payment.valorCentavos },
        pago_por: { depois: sql`(select ${pedidos.pagamentoId} from ${pedidos} where ${pedidos.id} = ${order.id})` },
      },
      when: recorded,
    }),
    notes.insert,
  ];
  return { statements, notifyAt: 2 };
}

/**
 * A recorded duplicate the gateway now reports refunded or charged back: its `status_gateway`
 * follows, logged once (guarded by the status it leaves). The order is not touched.
 */
function duplicateReversed({ db, log, notification, payment, at }: Apply) {
  const where = and(
    eq(pagamentosDuplicados.provedor, notification.provedor),
    eq(pagamentosDuplicados.pagamentoId, payment.id),
    ne(pagamentosDuplicados.statusGateway, payment.status),
  );
  return [
    logRowWrite(
      { db, log },
      { table: pagamentosDuplicados, where },
      {
        acao: 'pedidos.pagamento_duplicado_estornado',
        entidade: 'pagamentos_duplicados',
        regiao: pagamentosDuplicados.regiao,
        dados: {
          pedido_id: { depois: pagamentosDuplicados.pedidoId },
          pagamento_id: { depois: payment.id },
          status_gateway: { antes: pagamentosDuplicados.statusGateway, depois: payment.status },
        },
      },
    ),
    db.update(pagamentosDuplicados).set({ statusGateway: payment.status, updatedAt: at }).where(where),
  ];
}

/**
 * POST /webhooks/mercadopago: a notification whose signature holds is recorded once and its id
 * answered for the queue (undefined when nothing is to be done: a replay, or not a payment). Throws
 * 401 INVALID_SIGNATURE, with no effect, otherwise. The body is never read: the consumer reads the
 * payment from the gateway.
 */
export async function receiveNotification(
  { db, config }: Pick<Ctx, 'db' | 'config'>,
  n: { signature?: string; requestId?: string; dataId?: string; type?: string },
): Promise<string | undefined> {
  const check = await verifyWebhookSignature({
    secret: config.MP_WEBHOOK_SECRET,
    header: n.signature,
    requestId: n.requestId,
    dataId: n.dataId,
    now: new Date(),
  });
  if (!check.ok) {
    logger.warn(`webhook refused: ${check.reason}`);
    throw new ApiError('INVALID_SIGNATURE', 'assinatura da notificação inválida ou expirada');
  }
  if (n.type !== undefined && n.type !== 'payment') return undefined;
  return recordNotification(db, { provedor: 'mercadopago', pagamentoId: n.dataId!, chave: check.manifest });
}
