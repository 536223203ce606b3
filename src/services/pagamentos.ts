import { and, eq, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { Db } from '../db/client';
import { pagamentoNotificacoes, pedidos, type PedidoRow } from '../db/schema';
import { nowIso } from '../db/schema/columns';
import { ApiError } from '../lib/errors';
import { saoPauloDate } from '../lib/dates';
import { UUID_RE } from '../lib/fields';
import { logRowWrite, logStatement, type LogCtx } from './activity-log';
import { entryInsert, estornoStatements } from './financeiro';
import { PAID_STATUSES, REVERSED_STATUSES, type GatewayPayment } from './payments/gateway';
import { verifyWebhookSignature } from './payments/mercadopago';

/**
 * Payments of orders (docs/decisions-2 D19): the webhook's record of a notification, and what the
 * payment consumer does with the payment it reads from the gateway.
 *
 * Exactly once, whatever the number, order or repetition of notifications: every effect is a step
 * guarded by the order's state, in ONE batch, its log entry and revenue entry written before its
 * UPDATE under the same condition (so they exist exactly when the UPDATE changes the row):
 *   pay:    pendente | expirado | cancelado → pago   (+ revenue entry)   when the payment is approved,
 *                                                                         refunded or charged back
 *   refund: pago → estornado                         (+ mirror entry)    when refunded or charged back
 * The gateway's current state is what counts (re-read on every notification): a refund notified
 * before its approval, or an approval processed after its refund, both end `estornado` with the
 * revenue entry and its mirror; nothing ever moves an order back from `estornado`.
 */

/** Who acts in the log for the gateway's changes: no user; the notification id as the request id. */
const gatewayLog = (notificacaoId: string): LogCtx => ({ atorId: null, atorRole: null, requestId: notificacaoId });

/**
 * Records a verified notification once (its signed manifest is unique) with its log entry.
 * Answers the new row's id, or undefined when it was recorded before (a replay or a retry).
 */
export async function recordNotification(db: Db, provedor: string, pagamentoId: string, chave: string) {
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
  db
    .select({ id: pagamentoNotificacoes.id })
    .from(pagamentoNotificacoes)
    .where(
      and(
        eq(pagamentoNotificacoes.status, 'recebida'),
        lt(pagamentoNotificacoes.createdAt, new Date(now.getTime() - NOTIFICATION_REQUEUE_AFTER_MS).toISOString()),
      ),
    )
    .limit(100);

/** The São Paulo calendar day of an instant (the finance entries' dates). */
const spDate = (iso: string) => saoPauloDate(new Date(iso));

/**
 * The order's revenue entry (decisions-2 D18/D19): `receita`, category `Pacotes de fotos`, `origem`
 * `pedido`, on its FOT record, already `pago`; inserted only if `when` holds. Its `chave_externa`
 * `pedido:<id>` is unique per region, a second line of defence behind the guarded step.
 */
const receitaStatements = (db: Db, log: LogCtx, order: PedidoRow, id: string, at: string, when: SQL) =>
  entryInsert(
    db,
    log,
    {
      id,
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
      chaveExterna: `pedido:${order.id}`,
    },
    { when },
  ).statements;

/**
 * The reversal of the order's revenue entry (`estornado` plus its mirror): the entry is named by the
 * order's `lancamento_id` while the order is `pago`, so when it is not, nothing matches.
 */
const estornoOf = (db: Db, log: LogCtx, order: PedidoRow, at: string) =>
  estornoStatements(
    db,
    log,
    {
      id: sql`(select ${pedidos.lancamentoId} from ${pedidos} where ${pedidos.id} = ${order.id} and ${pedidos.status} = 'pago')`,
    },
    spDate(at),
  ).statements;

export type Outcome = 'processada' | 'ignorada' | 'divergente';

/** The notification's final status, once (guarded by `recebida`). */
const settle = (db: Db, id: string, status: Outcome, pedidoId: string | null, erro: string | null = null) =>
  db
    .update(pagamentoNotificacoes)
    .set({ status, pedidoId, erro, updatedAt: nowIso() })
    .where(and(eq(pagamentoNotificacoes.id, id), eq(pagamentoNotificacoes.status, 'recebida')));

/** A notification whose payment names no order of ours (another integration's, or not found). */
export async function ignoreNotification(db: Db, id: string, erro: string) {
  await settle(db, id, 'ignorada', null, erro);
}

/** Applies the gateway's view of a payment to its order (see the file comment). Answers the outcome. */
export async function applyPayment(
  db: Db,
  notificacaoId: string,
  payment: GatewayPayment,
  now: Date,
): Promise<Outcome> {
  const ref = payment.externalReference?.toLowerCase();
  const [order] = ref && UUID_RE.test(ref) ? await db.select().from(pedidos).where(eq(pedidos.id, ref)) : [];
  if (!order) {
    await settle(
      db,
      notificacaoId,
      'ignorada',
      null,
      `external_reference ${payment.externalReference ?? '(none)'} names no order`,
    );
    return 'ignorada';
  }
  const pays = PAID_STATUSES.has(payment.status) || REVERSED_STATUSES.has(payment.status);
  if (!pays) {
    // pending, in_process, rejected, cancelled...: the order waits (the buyer may pay again until it expires).
    await settle(db, notificacaoId, 'processada', order.id);
    return 'processada';
  }
  const log = gatewayLog(notificacaoId);
  const open = sql`exists (select 1 from ${pagamentoNotificacoes} where ${pagamentoNotificacoes.id} = ${notificacaoId} and ${pagamentoNotificacoes.status} = 'recebida')`;
  if (payment.moeda !== 'BRL' || payment.valorCentavos !== order.valorCentavos) {
    // Nothing is paid. Logged once per notification (its settle is guarded the same way).
    await db.batch([
      logStatement(db, log, {
        acao: 'pedidos.pagamento_divergente',
        entidade: 'pedidos',
        entidadeId: order.id,
        regiao: order.regiao,
        dados: {
          valor_centavos: { antes: order.valorCentavos, depois: payment.valorCentavos },
          moeda: { depois: payment.moeda },
          pagamento_id: { depois: payment.id },
          status_gateway: { depois: payment.status },
        },
        when: open,
      }),
      settle(
        db,
        notificacaoId,
        'divergente',
        order.id,
        `amount ${payment.valorCentavos} ${payment.moeda} != ${order.valorCentavos} BRL`,
      ),
    ]);
    return 'divergente';
  }
  const at = now.toISOString();
  const lancamentoId = crypto.randomUUID();
  const byId = eq(pedidos.id, order.id);
  const payable = and(byId, inArray(pedidos.status, ['pendente', 'expirado', 'cancelado']))!;
  const whenPayable = sql`exists (select 1 from ${pedidos} where ${payable})`;
  const steps: BatchItem<'sqlite'>[] = [
    logRowWrite(db, log, pedidos, payable, {
      acao: 'pedidos.pago',
      entidade: 'pedidos',
      regiao: order.regiao,
      dados: {
        status: { antes: pedidos.status, depois: 'pago' },
        pagamento_id: { depois: payment.id },
        valor_centavos: { depois: payment.valorCentavos },
      },
    }),
    ...receitaStatements(db, log, order, lancamentoId, at, whenPayable),
    db
      .update(pedidos)
      .set({ status: 'pago', pagoEm: at, pagamentoId: payment.id, lancamentoId, updatedAt: at })
      .where(payable),
  ];
  if (REVERSED_STATUSES.has(payment.status)) {
    const refundable = and(byId, eq(pedidos.status, 'pago'))!;
    steps.push(
      logRowWrite(db, log, pedidos, refundable, {
        acao: 'pedidos.estornar',
        entidade: 'pedidos',
        regiao: order.regiao,
        dados: { status: { antes: pedidos.status, depois: 'estornado' }, status_gateway: { depois: payment.status } },
      }),
      ...estornoOf(db, log, order, at),
      db.update(pedidos).set({ status: 'estornado', estornadoEm: at, updatedAt: at }).where(refundable),
    );
  }
  await db.batch([...steps, settle(db, notificacaoId, 'processada', order.id)] as unknown as [
    BatchItem<'sqlite'>,
    ...BatchItem<'sqlite'>[],
  ]);
  return 'processada';
}

/**
 * POST /webhooks/mercadopago: a notification whose signature holds is recorded once and its id
 * answered for the queue (undefined when nothing is to be done: a replay, or not a payment). Throws
 * 401 INVALID_SIGNATURE, with no effect, otherwise. The body is never read: the consumer reads the
 * payment from the gateway.
 */
export async function receiveNotification(
  db: Db,
  secret: string | undefined,
  n: { signature?: string; requestId?: string; dataId?: string; type?: string },
  now: Date,
): Promise<string | undefined> {
  const check = await verifyWebhookSignature({
    secret,
    header: n.signature,
    requestId: n.requestId,
    dataId: n.dataId,
    now,
  });
  if (!check.ok) {
    console.warn(JSON.stringify({ level: 'warn', message: `webhook refused: ${check.reason}` }));
    throw new ApiError('INVALID_SIGNATURE', 'assinatura da notificação inválida ou expirada');
  }
  if (n.type !== undefined && n.type !== 'payment') return undefined;
  return recordNotification(db, 'mercadopago', n.dataId!, check.manifest);
}
