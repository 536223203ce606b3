import { and, desc, eq, inArray, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { keptOrCounted } from '../../db/kept-count';
import { withTotal } from '../../db/list-total';
import { insertWhere } from '../../db/guarded';
import { olderThan, staleIds } from '../../db/stale';
import { cadastroFot, pacotes, pedidos, type PedidoRow, type PedidoStatus } from '../../db/schema';
import type { AuthUser } from '../../db/schema';
import { nowIso } from '../../db/schema/columns';
import { enqueueInBackground } from '../../lib/background';
import { ApiError } from '../../lib/errors';
import type { PaymentMessage } from '../../lib/messages';
import { fromCentavos } from '../../lib/money';
import { pageBounds, type Page } from '../../lib/pagination';
import { isAdmin } from '../../lib/permissions';
import { sha256Hex } from '../../lib/tokens';
import { loggedUpdate, logRowWrite, logStatement, maskValue, type LogCtx } from '../core/activity-log';
import type { Ctx, QueryCtx } from '../core/context';

/** Who the caller is, for what it may see: its role and company. */
type Caller = { user: Pick<AuthUser, 'role' | 'empresaId'> };

/**
 * Orders of photo packages (docs/decisions.md#d19; docs/guide/payments.md).
 *
 * Creation is idempotent per caller and `Idempotency-Key`: ONE batch inserts the order
 * `ON CONFLICT (criado_por, idempotency_key) DO NOTHING`, guarded by the FOT (region, and the
 * EVENT_OWNER's company), the package (region, active) and its installment limit, then reads the
 * row of that key. So five identical requests racing make one order, and the others answer it; a
 * stored row whose request hash differs is 409 IDEMPOTENCY_MISMATCH. No gateway call happens in the
 * request (docs/decisions.md#shared-rules): the order is answered with `url_pagamento: null` and the
 * payment consumer fills it from the checkout it creates (GET the order, or repeat the POST with the
 * same key, to see it).
 */

export interface PedidoInput {
  fot_id: string;
  pacote_id: string;
  comprador_nome: string;
  comprador_email: string;
  comprador_cpf: string;
  parcelas: number;
}

export interface PedidoFilters {
  fot_id?: string;
  status?: PedidoStatus;
}

const notFound = () => new ApiError('NOT_FOUND', 'pedido não encontrado');

export function toPedidoResponse(p: PedidoRow) {
  return {
    id: p.id,
    regiao: p.regiao,
    fot_id: p.fotId,
    pacote_id: p.pacoteId,
    pacote_nome: p.pacoteNome,
    comprador_nome: p.compradorNome,
    comprador_email: p.compradorEmail,
    comprador_cpf: p.compradorCpf,
    valor: fromCentavos(p.valorCentavos),
    parcelas: p.parcelas,
    status: p.status,
    url_pagamento: p.urlPagamento,
    expira_em: p.expiraEm,
    pago_em: p.pagoEm,
    estornado_em: p.estornadoEm,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
  };
}

/** The FOT records the caller may sell on: the region's; an EVENT_OWNER its company's. */
function fotVisible(user: Pick<AuthUser, 'role' | 'empresaId'>, regiao: string): SQL {
  const conds: SQL[] = [eq(cadastroFot.regiao, regiao)];
  if (!isAdmin(user.role)) conds.push(user.empresaId ? eq(cadastroFot.empresaId, user.empresaId) : sql`0`);
  return and(...conds)!;
}

/** Orders the caller may see: the region's; an EVENT_OWNER those on its company's FOT records. */
function visible(user: Pick<AuthUser, 'role' | 'empresaId'>, regiao: string): SQL {
  if (isAdmin(user.role)) return eq(pedidos.regiao, regiao);
  return and(
    eq(pedidos.regiao, regiao),
    sql`exists (select 1 from ${cadastroFot} where ${cadastroFot.id} = ${pedidos.fotId} and ${fotVisible(user, regiao)})`,
  )!;
}

/** The canonical form of a request: what makes two requests "the same" for one Idempotency-Key. */
export const requestHash = (regiao: string, b: PedidoInput) =>
  sha256Hex(
    JSON.stringify([regiao, b.fot_id, b.pacote_id, b.comprador_nome, b.comprador_email, b.comprador_cpf, b.parcelas]),
  );

export type Enqueue = (messages: PaymentMessage[]) => void;

/** Payment messages of a request go to the payment queue in the background, after its batch. */
export const enqueuePayments = (
  queue: Queue<PaymentMessage> | undefined,
  waitUntil: (p: Promise<unknown>) => void,
  messages: PaymentMessage[],
) =>
  enqueueInBackground(queue, waitUntil, messages, 'payment enqueue failed (the scheduled requeue-payments sends it)');

/** The active package of the body in the caller's region, and one of its columns as a subquery. */
const pacoteOf = (regiao: string, body: PedidoInput) => {
  const where = and(eq(pacotes.id, body.pacote_id), eq(pacotes.regiao, regiao), eq(pacotes.ativo, true));
  return { where, col: (col: SQL) => sql`(select ${col} from ${pacotes} where ${where})` };
};

/**
 * The order's row for the guarded insert: the package's name and price copied by SQL (no read
 * first); `expira_em` the TTL from now.
 */
function orderValues(
  { user, regiao, config }: Pick<Ctx, 'user' | 'regiao' | 'config'>,
  o: { id: string; key: string; hash: string; body: PedidoInput; now: Date },
) {
  const { body } = o;
  const pacote = pacoteOf(regiao, body);
  const at = o.now.toISOString();
  return {
    id: o.id,
    regiao,
    fotId: body.fot_id,
    pacoteId: body.pacote_id,
    pacoteNome: pacote.col(sql`${pacotes.nome}`),
    compradorNome: body.comprador_nome,
    compradorEmail: body.comprador_email,
    compradorCpf: body.comprador_cpf,
    valorCentavos: pacote.col(sql`${pacotes.precoCentavos}`),
    parcelas: body.parcelas,
    status: 'pendente',
    expiraEm: new Date(o.now.getTime() + config.PEDIDO_TTL_SECONDS * 1000).toISOString(),
    criadoPor: user.id,
    idempotencyKey: o.key,
    requestHash: o.hash,
    createdAt: at,
    updatedAt: at,
  } as unknown as typeof pedidos.$inferInsert;
}

/** The order's create entry, written only if the insert wrote this id (the CPF masked). */
const createdEntry = ({ db, log, regiao }: Pick<Ctx, 'db' | 'log' | 'regiao'>, id: string, body: PedidoInput) =>
  logStatement(db, log, {
    acao: 'pedidos.create',
    entidade: 'pedidos',
    entidadeId: id,
    regiao,
    dados: {
      fot_id: { depois: body.fot_id },
      pacote_id: { depois: body.pacote_id },
      comprador_nome: { depois: body.comprador_nome },
      comprador_email: { depois: body.comprador_email },
      comprador_cpf: { depois: maskValue(body.comprador_cpf) },
      valor_centavos: { depois: sql`(select ${pedidos.valorCentavos} from ${pedidos} where ${pedidos.id} = ${id})` },
      parcelas: { depois: body.parcelas },
    },
    when: sql`exists (select 1 from ${pedidos} where ${pedidos.id} = ${id})`,
  });

/** What an order's creation needs: the caller, its region and log, the TTL, and the payment queue. */
export type PedidoCtx = Pick<Ctx, 'db' | 'log' | 'user' | 'regiao' | 'config'> & { enqueue: Enqueue };

export async function createPedido(
  ctx: PedidoCtx,
  key: string,
  body: PedidoInput,
): Promise<{ created: boolean; pedido: ReturnType<typeof toPedidoResponse> }> {
  const { db, user, regiao } = ctx;
  const hash = await requestHash(regiao, body);
  const id = crypto.randomUUID();
  const pacote = pacoteOf(regiao, body).where;
  const guard = sql`exists (select 1 from ${cadastroFot} where ${eq(cadastroFot.id, body.fot_id)} and ${fotVisible(user, regiao)})
    and exists (select 1 from ${pacotes} where ${pacote} and ${pacotes.parcelasMax} >= ${body.parcelas})`;
  const mine = and(eq(pedidos.criadoPor, user.id), eq(pedidos.idempotencyKey, key));
  const [, , [row], [fot], [pac]] = await db.batch([
    insertWhere(db, pedidos, orderValues(ctx, { id, key, hash, body, now: new Date() }), guard).onConflictDoNothing(),
    createdEntry(ctx, id, body),
    db.select().from(pedidos).where(mine),
    // Why a refused insert was refused (read in the same batch).
    db
      .select({ id: cadastroFot.id })
      .from(cadastroFot)
      .where(and(eq(cadastroFot.id, body.fot_id), fotVisible(user, regiao))),
    db.select({ parcelasMax: pacotes.parcelasMax }).from(pacotes).where(pacote),
  ]);
  if (row) {
    if (row.requestHash !== hash)
      throw new ApiError(
        'IDEMPOTENCY_MISMATCH',
        'esta Idempotency-Key já foi usada com outro pedido: use uma chave nova para um pedido diferente',
      );
    // A new order's checkout; a repeat's too while it has none (the consumer creates it at most once).
    if (row.id === id || (row.status === 'pendente' && row.urlPagamento === null))
      ctx.enqueue([{ kind: 'preferencia', pedidoId: row.id }]);
    return { created: row.id === id, pedido: toPedidoResponse(row) };
  }
  if (!fot) throw new ApiError('NOT_FOUND', 'fot_id: registro FOT não encontrado');
  if (!pac) throw new ApiError('NOT_FOUND', 'pacote_id: pacote não encontrado ou inativo');
  throw new ApiError('VALIDATION_FAILED', `parcelas: este pacote aceita no máximo ${pac.parcelasMax} parcelas`);
}

const listWhere = (user: Pick<AuthUser, 'role' | 'empresaId'>, regiao: string, f: PedidoFilters) =>
  and(
    visible(user, regiao),
    f.fot_id ? eq(pedidos.fotId, f.fot_id) : undefined,
    f.status ? eq(pedidos.status, f.status) : undefined,
  );

/** The list's query, newest first (indexed per filter, test/perf/query-plans.test.ts). */
export const pedidosList = ({ db, user, regiao }: QueryCtx & Caller, f: PedidoFilters) =>
  db
    .select()
    .from(pedidos)
    .where(listWhere(user, regiao, f))
    .orderBy(desc(pedidos.createdAt), desc(pedidos.id));

/**
 * A page's total: an administrator's from the counts kept per region, status, FOT record and both
 * (drizzle/0032_list_counts.sql); an EVENT_OWNER's (its companies' records) counts.
 */
function pedidosTotal({ db, user, regiao }: QueryCtx & Caller, f: PedidoFilters, where: SQL | undefined) {
  const byFilters = f.fot_id && f.status ? `${f.fot_id}/${f.status}` : (f.fot_id ?? f.status ?? '');
  return keptOrCounted(
    db,
    { tabela: 'pedidos', regiao, dono: isAdmin(user.role) ? byFilters : undefined },
    pedidos,
    where,
  );
}

/** The list and its count when paged: one batch. */
export async function listPedidos(ctx: QueryCtx & Caller, { fot_id, status, ...page }: PedidoFilters & Page) {
  const f = { fot_id, status };
  const where = listWhere(ctx.user, ctx.regiao, f);
  const { limit, offset } = pageBounds(page);
  const list = pedidosList(ctx, f).limit(limit).offset(offset);
  const { rows, total } = await withTotal(ctx.db, page, list, pedidosTotal(ctx, f, where));
  return { rows: rows.map(toPedidoResponse), total };
}

export async function getPedido({ db, user, regiao }: QueryCtx & Caller, id: string) {
  const [row] = await db
    .select()
    .from(pedidos)
    .where(and(eq(pedidos.id, id), visible(user, regiao)));
  if (!row) throw notFound();
  return toPedidoResponse(row);
}

/** pendente → cancelado (one guarded UPDATE); any other state is 409 INVALID_STATE. */
export async function cancelPedido(ctx: Pick<Ctx, 'db' | 'log' | 'user' | 'regiao'>, id: string) {
  const { db, user, regiao } = ctx;
  const mine = and(eq(pedidos.id, id), visible(user, regiao));
  const [entry, update] = loggedUpdate(
    ctx,
    {
      table: pedidos,
      where: and(mine, eq(pedidos.status, 'pendente')),
      set: { status: 'cancelado', updatedAt: nowIso() },
    },
    { acao: 'pedidos.cancelar', entidade: 'pedidos', regiao },
  );
  const [, updated, [row]] = await db.batch([entry, update.returning(), db.select().from(pedidos).where(mine)]);
  if (updated[0]) return toPedidoResponse(updated[0]);
  if (!row) throw notFound();
  throw new ApiError('INVALID_STATE', `só um pedido pendente pode ser cancelado (este está ${row.status})`);
}

// --- The payment consumer's side -----------------------------------------------------------------

/** The checkout of a pendente order without one (the consumer's input). */
export async function pedidoForPreference(db: Db, id: string) {
  const [row] = await db.select().from(pedidos).where(eq(pedidos.id, id));
  return row;
}

/** Stores the checkout once, logged: a redelivered message or a second checkout never replaces the first url. */
export async function savePreference(db: Db, id: string, pref: { id: string; url: string }) {
  const where = and(eq(pedidos.id, id), isNull(pedidos.urlPagamento));
  const set = { urlPagamento: pref.url, preferenciaId: pref.id, updatedAt: nowIso() };
  await db.batch([
    logRowWrite(
      { db, log: { atorId: null, atorRole: null, requestId: null } },
      { table: pedidos, where },
      {
        acao: 'pedidos.checkout',
        entidade: 'pedidos',
        regiao: pedidos.regiao,
        dados: { url_pagamento: { antes: null, depois: pref.url }, preferencia_id: { depois: pref.id } },
      },
    ),
    db.update(pedidos).set(set).where(where),
  ]);
}

// --- The scheduled job ---------------------------------------------------------------------------

const EXPIRE_CHUNK = 90; // statements per batch: one log entry per order plus the update

/**
 * `expirar-pedidos`: every `pendente` order past `expira_em` becomes `expirado`, each with its log
 * entry, in batches of 90. The ids are read first but the UPDATE re-checks status and time, so an
 * order paid meanwhile is left alone and two overlapping runs expire each order once. Answers the count.
 */
export async function expirePedidos(db: Db, now: Date): Promise<number> {
  const at = now.toISOString();
  const due = and(eq(pedidos.status, 'pendente'), lt(pedidos.expiraEm, at))!;
  const log: LogCtx = { atorId: null, atorRole: null, requestId: null };
  let total = 0;
  for (let round = 0; round < 50; round++) {
    const ids = (await db.select({ id: pedidos.id }).from(pedidos).where(due).limit(EXPIRE_CHUNK)).map((r) => r.id);
    if (ids.length === 0) break;
    const entries = ids.map((id) =>
      logRowWrite(
        { db, log },
        { table: pedidos, where: and(eq(pedidos.id, id), due) },
        {
          acao: 'pedidos.expirar',
          entidade: 'pedidos',
          regiao: pedidos.regiao,
          dados: { status: { antes: pedidos.status, depois: 'expirado' } },
        },
      ),
    );
    const results = await db.batch([
      ...entries,
      db
        .update(pedidos)
        .set({ status: 'expirado', updatedAt: at })
        .where(and(inArray(pedidos.id, ids), due))
        // The rows it expired: meta.changes would count the kept counts' writes too (drizzle/0032).
        .returning({ id: pedidos.id }),
    ] as unknown as [ReturnType<typeof logStatement>, ...ReturnType<typeof logStatement>[]]);
    total += (results[results.length - 1] as unknown as unknown[]).length;
    if (ids.length < EXPIRE_CHUNK) break;
  }
  return total;
}

/** Pendente orders still without a checkout this long after creation lost their queue message. */
export const PREFERENCE_REQUEUE_AFTER_MS = 2 * 60 * 1000;

/** Orders whose checkout creation must be enqueued again (requeue-payments job). */
export const ordersWithoutCheckout = (db: Db, now: Date) =>
  staleIds(
    db,
    pedidos.id,
    and(
      eq(pedidos.status, 'pendente'),
      isNull(pedidos.urlPagamento),
      olderThan(pedidos.createdAt, now, PREFERENCE_REQUEUE_AFTER_MS),
    )!,
  );
