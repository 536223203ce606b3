import type { BatchItem } from 'drizzle-orm/batch';
import { sql, type SQL } from 'drizzle-orm';
import { notifications } from '../db/schema';
import type { Db } from '../env';

/** What happens that users are told about (decisions D10, D11). */
export const NOTIFICATION_TIPOS = [
  'conta_aprovada',
  'papel_alterado',
  'agenda_criada',
  'agenda_alterada',
  'agenda_excluida',
  'convite_recebido',
  'convite_respondido',
  'convite_cancelado',
] as const;
export type NotificationTipo = (typeof NOTIFICATION_TIPOS)[number];

export interface NewNotification {
  userId: string;
  tipo: NotificationTipo;
  titulo: string;
  mensagem: string;
  dados?: Record<string, unknown>;
}

/** A push message as the queue carries it: the consumer looks up the users' tokens. */
export interface PushMessage {
  userId: string;
  notificationId: string;
  titulo: string;
  mensagem: string;
  dados: Record<string, unknown>;
}

/** D1 binds at most 100 parameters per statement; a notification row binds 8. */
const ROWS_PER_STATEMENT = 10;

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
  const push: PushMessage[] = rows.map((r) => ({
    userId: r.userId,
    notificationId: r.id,
    titulo: r.titulo,
    mensagem: r.mensagem,
    dados: r.dados,
  }));
  return { insert, push };
}

/**
 * Push delivery only enqueues, in the background: it never fails or slows the request. Without a
 * queue binding there is no push, only in-app notifications.
 */
export function enqueuePush(
  queue: Queue<PushMessage> | undefined,
  waitUntil: (p: Promise<unknown>) => void,
  push: PushMessage[],
) {
  if (!queue || push.length === 0) return;
  waitUntil(
    queue.sendBatch(push.map((body) => ({ body }))).catch((err: unknown) => {
      console.error(
        JSON.stringify({
          level: 'error',
          message: `push enqueue failed: ${err instanceof Error ? err.message : String(err)}`,
        }),
      );
    }),
  );
}
