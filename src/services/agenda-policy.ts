import { and, eq, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { createMiddleware } from 'hono/factory';
import { agenda, cadastroFot, convites, profissionais, type Role } from '../db/schema';
import type { AppEnv } from '../env';
import { checkUser, type SqlScope } from '../middleware/auth';
import { ApiError } from '../lib/errors';

/**
 * Who may do what on the agenda (decisions D4), in one place. Every agenda route asks
 * `allowAgenda(action)` for the role and filters by `agendaScope(user)` for the entries.
 */
export type AgendaAction = 'read' | 'create' | 'update' | 'delete';

const ALL: AgendaAction[] = ['read', 'create', 'update', 'delete'];
const rules: Record<Role, readonly AgendaAction[]> = {
  SUPERADMIN: ALL,
  BUSINESS_OWNER: ALL,
  agenda_viewer: ALL, // its own entries only (scope)
  EVENT_OWNER: ['read'], // events of its company's FOT records
  profissional: ['read'], // events whose team it is on
  RESEARCHER: [],
};

export const mayAgenda = (role: Role, action: AgendaAction) => rules[role].includes(action);

export const allowAgenda = (action: AgendaAction) =>
  createMiddleware<AppEnv>(async (c, next) => {
    await checkUser(c, ({ role }) => {
      if (!mayAgenda(role, action)) throw new ApiError('FORBIDDEN', `your role may not ${action} agenda events`);
    });
    await next();
  });

/** The agenda entries a user may see and act on, beyond the region filter; undefined = all. */
export function agendaScope(user: SqlScope): SQL | undefined {
  switch (user.role) {
    case 'agenda_viewer':
      return eq(agenda.userId, user.id);
    case 'EVENT_OWNER':
      if (!user.empresaId) return sql`0`;
      return sql`${agenda.fotId} in (select ${cadastroFot.id} from ${cadastroFot} where ${cadastroFot.empresaId} = ${user.empresaId})`;
    case 'profissional':
      // Events it is invited to (pending) or on the team of (accepted), through its linked profile.
      return sql`${agenda.id} in (select ${convites.agendaId} from ${convites} where ${convites.status} in ('pendente', 'aceito')
        and ${convites.profissionalId} in (select ${profissionais.id} from ${profissionais} where ${profissionais.usuarioId} = ${user.id}))`;
    case 'RESEARCHER':
      return sql`0`;
    default:
      return undefined;
  }
}

/** Region plus what the caller's role may see: the one filter every agenda route applies. */
export function agendaVisible(user: SqlScope, regiao: string | Placeholder, ...more: (SQL | undefined)[]) {
  return and(eq(agenda.regiao, regiao), agendaScope(user), ...more);
}
