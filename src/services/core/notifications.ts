import { enqueueInBackground } from '../../lib/background';
import type { PushMessage } from '../../lib/messages';
import type { BatchItem } from 'drizzle-orm/batch';
import { sql, type Placeholder, type SQL, type SQLWrapper } from 'drizzle-orm';
import { notifications, users, type NotificationRow } from '../../db/schema';
import type { Db } from '../../db/client';
import { generatedId } from '../../db/generated-id';

/** What happens that users are told about (docs/decisions.md#d10, #d11). */
export const NOTIFICATION_TIPOS = [
  'conta_aprovada',
  'papel_alterado',
  'agenda_criada',
  'agenda_alterada',
  'agenda_excluida',
  'convite_recebido',
  'convite_respondido',
  'convite_cancelado',
  // Event operations (docs/decisions.md#d16).
  'logistica_alterada',
  'lembrete_d7',
  'lembrete_d2',
  'lembrete_d1',
  'confirmacao_pendente',
  'equipe_nao_confirmada',
  // Job listings (docs/decisions.md#d17)
  'candidatura_recebida',
  'candidatura_aprovada',
  'candidatura_recusada',
  'convite_promovido',
  // Support tickets (docs/decisions.md#d22).
  'chamado_aberto',
  'chamado_atribuido',
  'chamado_atualizado',
  'chamado_mensagem',
  // Photo-package orders (docs/decisions.md#d19): a second payment of a paid order, to refund.
  'pagamento_duplicado',
  // A professional changed its own PIX key (SECURITY.md "Payout keys").
  'chave_pix_alterada',
  // Season poll of availability (docs/decisions.md#d24): asked, and the reminder to the silent.
  'campanha_disponibilidade',
  'campanha_lembrete',
  // Institution rules (docs/decisions.md#d25): the credential list is due soon and not sent yet.
  'credenciamento_pendente',
  // QR check-in (docs/decisions.md#d27): administrators told of probable no-shows; a professional of a
  // confirmed one, and of one the office undid.
  'falta_provavel',
  'falta_registrada',
  'falta_desfeita',
  // Reliability (docs/decisions.md#d28): a contest to the region's administrators, its answer to the professional.
  'confiabilidade_contestacao',
  'confiabilidade_resposta',
  // The season planner (docs/decisions.md#d26): a (date, function) in deficit, once a week.
  'capacidade_deficit',
] as const;
export type NotificationTipo = (typeof NOTIFICATION_TIPOS)[number];

export interface NewNotification {
  userId: string;
  tipo: NotificationTipo;
  titulo: string;
  mensagem: string;
  dados?: Record<string, unknown>;
}

/** D1 binds at most 100 parameters per statement; a notification row binds 8. */
const ROWS_PER_STATEMENT = 10;

/** The push message of a notification written (or about to be). */
const pushOf = (
  r: Pick<NotificationRow, 'id' | 'userId' | 'titulo' | 'mensagem'> & { dados: unknown },
): PushMessage => ({
  userId: r.userId,
  notificationId: r.id,
  titulo: r.titulo,
  mensagem: r.mensagem,
  dados: (r.dados ?? {}) as PushMessage['dados'],
});

/** The push messages of the notifications an insert returned (notifyFromRow's, or its cached copy's). */
export const notifiedPush = (written: NotificationRow[]) => written.map(pushOf);

/**
 * The one way to produce notifications: rows to insert in the SAME batch as the write that caused
 * them (atomic with it, no extra round trip), and the push messages to enqueue after it commits.
 * One notification per user and kind, whatever the number of reasons.
 *
 * `when` guards the insert with a condition evaluated inside the batch (for example "the user was
 * still pending" before an approval, or "the event still exists" next to an update), so a write that
 * turns out to change nothing leaves no notification behind. Without it the rows are always inserted.
 */
export function prepareNotifications(db: Db, items: NewNotification[], opts: { when?: SQL } = {}) {
  const seen = new Set<string>();
  const now = new Date().toISOString();
  const rows = items
    .filter((n) => {
      const key = `${n.userId}:${n.tipo}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .map((n) => ({
      id: crypto.randomUUID(),
      userId: n.userId,
      tipo: n.tipo,
      titulo: n.titulo,
      mensagem: n.mensagem,
      dados: n.dados ?? {},
    }));
  const insert: BatchItem<'sqlite'>[] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    // Columns in table order: id, user_id, tipo, titulo, mensagem, dados, lida, read_at, created_at, updated_at.
    const values = rows
      .slice(i, i + ROWS_PER_STATEMENT)
      .map(
        (r) =>
          sql`(${r.id}, ${r.userId}, ${r.tipo}, ${r.titulo}, ${r.mensagem}, ${JSON.stringify(r.dados)}, 0, null, ${now}, ${now})`,
      );
    insert.push(
      db
        .insert(notifications)
        .select(sql`select * from (values ${sql.join(values, sql`, `)}) where ${opts.when ?? sql`1`}`),
    );
  }
  return { insert, push: rows.map(pushOf) };
}

/** A notification whose recipients and text are SQL over the row a write touched (notifyFromRow). */
export interface RowNotification {
  /** The recipients: columns or expressions of the row (a null one is nobody; each user is told once). */
  to: SQLWrapper[];
  tipo: NotificationTipo;
  titulo: string;
  /** The text as SQL, built with `||` from the row's columns (what a JS template would build from them). */
  mensagem: SQL;
  /** `json_object(...)` of the row, keys in the order the JS object would have them. */
  dados: SQL;
}

/**
 * Notifications written by SQL from ONE row of the write's own batch (`from ... where` selects it by
 * primary key), for a write that reads nothing before its batch (a folded write): the recipients and
 * texts come from the row, not from a read in JS. One statement; the row is read once, joined to the
 * recipients' positions (a constant list: no rows read), and each recipient gets one notification,
 * none for a null recipient nor for `except` (the actor). Put the condition that the write happened
 * in `where` (the marker it left on the row), like prepareNotifications' `when`: a write that did not
 * happen notifies nobody. The insert returns the rows it wrote (D1 counts 2 rows read per row
 * returned); `push` turns them into the push messages to enqueue once the batch succeeded.
 */
export function notifyFromRow(
  db: Db,
  n: RowNotification,
  o: { from: SQL; where: SQL; except?: string | Placeholder; now?: string | SQL },
) {
  const now = o.now ?? new Date().toISOString();
  const k = sql.raw('r.k');
  const at = (exprs: SQL[]) =>
    sql`(case ${k} ${sql.join(
      exprs.map((e, i) => sql`when ${sql.raw(String(i + 1))} then ${e}`),
      sql` `,
    )} end)`;
  const to = n.to.map((u) => sql`${u}`);
  const userId = at(to);
  // A recipient named before (the creator who also invited) is told once.
  const first = at(
    to.map((u, i) =>
      i === 0
        ? sql`1`
        : sql.join(
            to.slice(0, i).map((p) => sql`${u} is not ${p}`),
            sql` and `,
          ),
    ),
  );
  const positions = sql.raw(`(${n.to.map((_, i) => `select ${i + 1} as k`).join(' union all ')}) r`);
  // Columns in table order: id, user_id, tipo, titulo, mensagem, dados, lida, read_at, created_at, updated_at.
  const rows = sql`select ${generatedId}, ${userId}, ${n.tipo}, ${n.titulo}, ${n.mensagem}, ${n.dados}, 0, null, ${now}, ${now}
    ${o.from} join ${positions}
    where ${o.where} and ${userId} is not null${o.except === undefined ? sql`` : sql` and ${userId} <> ${o.except}`} and ${first}`;
  return {
    insert: db.insert(notifications).select(rows).returning(),
    push: notifiedPush,
  };
}

/**
 * One notification to every user a condition over `users` selects (e.g. services/accounts/users.ts
 * `regionAdmin(regiao)`), written by SQL in the write's own batch: the recipients are not read
 * first, so a write whose outcome is only decided inside its batch (a guarded or ON CONFLICT insert)
 * notifies exactly when it happened, put as `when`. The insert returns its rows; `push` turns them
 * into the push messages to enqueue once the batch succeeded.
 */
export function notifyUsersWhere(
  db: Db,
  n: Omit<NewNotification, 'userId'>,
  o: { users: SQL; when: SQL; now?: string },
) {
  const now = o.now ?? new Date().toISOString();
  // Columns in table order: id, user_id, tipo, titulo, mensagem, dados, lida, read_at, created_at, updated_at.
  const rows = sql`select ${generatedId}, ${users.id}, ${n.tipo}, ${n.titulo}, ${n.mensagem}, ${JSON.stringify(n.dados ?? {})}, 0, null, ${now}, ${now}
    from ${users} where ${o.users} and ${o.when}`;
  return { insert: db.insert(notifications).select(rows).returning(), push: notifiedPush };
}

/** Where a service hands the push messages of its notifications once its batch succeeded. */
export type Push = (messages: PushMessage[]) => void;

/**
 * Push delivery only enqueues, in the background: it never fails or slows the request. Without a
 * queue binding there is no push, only in-app notifications.
 */
export function enqueuePush(
  queue: Queue<PushMessage> | undefined,
  waitUntil: (p: Promise<unknown>) => void,
  push: PushMessage[],
) {
  enqueueInBackground(queue, waitUntil, push, 'push enqueue failed');
}
