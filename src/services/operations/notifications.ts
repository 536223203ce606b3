import { and, desc, eq, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { keptCount } from '../../db/kept-count';
import { notifications, pushTokens, type NotificationRow } from '../../db/schema';
import type { Scope } from '../../db/scope';
import { ApiError } from '../../lib/errors';
import type { NotificationTipo } from '../core/notifications';
import type { Ctx } from '../core/context';
import { changed, loggedDelete, logRowWrite, logStatement } from '../core/activity-log';

/**
 * The caller's inbox (docs/decisions.md#d10): every route sees its own notifications only, and its
 * devices' push tokens. The notifications themselves are written by services/core/notifications.ts.
 */

/** What an inbox write needs: the session, the caller and its log. */
type InboxCtx = Pick<Ctx, 'db' | 'log' | 'user'>;

const notFound = () => new ApiError('NOT_FOUND', 'notificação não encontrada');

export const toNotification = (n: NotificationRow) => ({
  id: n.id,
  tipo: n.tipo as NotificationTipo,
  titulo: n.titulo,
  mensagem: n.mensagem,
  dados: n.dados ?? {},
  lida: n.lida,
  created_at: n.createdAt,
  updated_at: n.updatedAt,
  read_at: n.readAt,
});

const mine = (userId: string, ...more: SQL[]) => and(eq(notifications.userId, userId), ...more);

/** One page past the cursor, newest first, plus one row to know whether more remain. */
export function inboxPageSelect(
  { db }: Pick<Ctx, 'db'>,
  scope: Scope,
  q: { nao_lidas?: boolean; limit: number; antes?: { createdAt: string; id?: string } },
) {
  const conds: SQL[] = [];
  if (q.nao_lidas) conds.push(eq(notifications.lida, false));
  if (q.antes?.id) {
    // Row-value comparison on the index order (user_id, created_at desc, id desc): exact after ties.
    conds.push(sql`(${notifications.createdAt}, ${notifications.id}) < (${q.antes.createdAt}, ${q.antes.id})`);
  } else if (q.antes) {
    conds.push(lt(notifications.createdAt, q.antes.createdAt));
  }
  return db
    .select()
    .from(notifications)
    .where(mine(scope.id, ...conds))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(q.limit + 1);
}

/** A user's unread notifications: the count triggers keep (drizzle/0028), one row however many. */
const unreadKept = (db: Db, userId: Scope['id']) => keptCount(db, 'notificacoes', '', userId);

/** The unread badge, polled by every client. */
export const unreadCountSelect = ({ db }: Pick<Ctx, 'db'>, scope: Scope) => unreadKept(db, scope.id);

export async function markAllRead({ db, log, user }: InboxCtx) {
  const now = new Date().toISOString();
  const unread = mine(user.id, eq(notifications.lida, false));
  // One entry for the lot (how many), written only when something was unread.
  const entry = logStatement(db, log, {
    acao: 'notifications.read_all',
    entidade: 'notifications',
    dados: { quantidade: { depois: sql`(${unreadKept(db, user.id)})` } },
    when: sql`exists (select 1 from ${notifications} where ${unread})`,
  });
  // How many: the kept count before the update, in its transaction (meta.changes would count the
  // triggers' writes too).
  const [, [before]] = await db.batch([
    entry,
    unreadKept(db, user.id),
    db.update(notifications).set({ lida: true, readAt: now, updatedAt: now }).where(unread),
  ]);
  return before?.n ?? 0;
}

export async function markRead({ db, log, user }: InboxCtx, id: string) {
  const now = new Date().toISOString();
  const where = mine(user.id, eq(notifications.id, id));
  const [, [row]] = await db.batch([
    // Logged the first time only (reading a read notification again changes nothing worth a line).
    logRowWrite(
      { db, log },
      { table: notifications, where: and(where, eq(notifications.lida, false)) },
      {
        acao: 'notifications.read',
        entidade: 'notifications',
        dados: changed(notifications, { lida: true }),
      },
    ),
    db
      .update(notifications)
      .set({ lida: true, readAt: sql`coalesce(${notifications.readAt}, ${now})`, updatedAt: now })
      .where(where)
      .returning(),
  ]);
  if (!row) throw notFound();
  return toNotification(row);
}

export async function deleteNotification({ db, log, user }: InboxCtx, id: string) {
  const [, res] = await db.batch(
    loggedDelete(
      { db, log },
      { table: notifications, where: mine(user.id, eq(notifications.id, id)) },
      { acao: 'notifications.delete', entidade: 'notifications' },
    ),
  );
  if (res.meta.changes === 0) throw notFound();
}

/** One statement on the unique token: a device that changes hands (logout, another login) moves with it. */
export async function savePushToken(
  { db, log, user }: InboxCtx,
  { token, plataforma }: { token: string; plataforma: (typeof pushTokens.$inferInsert)['plataforma'] },
) {
  const userId = user.id;
  const now = new Date().toISOString();
  const [[row]] = await db.batch([
    db
      .insert(pushTokens)
      .values({ userId, token, plataforma, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({ target: pushTokens.token, set: { userId, plataforma, updatedAt: now } })
      .returning(),
    // After the upsert, from the row it left: the token itself is never logged.
    logStatement(db, log, {
      acao: 'push_tokens.save',
      entidade: 'push_tokens',
      entidadeId: pushTokens.id,
      dados: { plataforma: { depois: plataforma } },
      from: sql`from ${pushTokens}`,
      when: eq(pushTokens.token, token),
    }),
  ]);
  return {
    id: row!.id,
    token: row!.token,
    plataforma: row!.plataforma,
    created_at: row!.createdAt,
    updated_at: row!.updatedAt,
  };
}

/** Idempotent, and never touches another user's token. */
export async function deletePushToken({ db, log, user }: InboxCtx, token: string) {
  const where = and(eq(pushTokens.userId, user.id), eq(pushTokens.token, token));
  await db.batch([
    // Only its platform: the token itself is never logged.
    logRowWrite(
      { db, log },
      { table: pushTokens, where },
      {
        acao: 'push_tokens.delete',
        entidade: 'push_tokens',
        dados: { plataforma: { antes: pushTokens.plataforma } },
      },
    ),
    db.delete(pushTokens).where(where),
  ]);
}
