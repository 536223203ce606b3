import { ADMIN_ROLES, type Role } from '../db/schema';

/**
 * Who may do what, by role (docs/decisions.md#d4): plain data that the role middleware
 * (middleware/require-role.ts) enforces and the services' visibility rules consult.
 */

export const isAdmin = (role: Role) => (ADMIN_ROLES as readonly Role[]).includes(role);

export type AgendaAction = 'read' | 'create' | 'update' | 'delete';

const ALL: AgendaAction[] = ['read', 'create', 'update', 'delete'];
const agendaRules: Record<Role, readonly AgendaAction[]> = {
  SUPERADMIN: ALL,
  BUSINESS_OWNER: ALL,
  agenda_viewer: ALL, // its own entries only (services/agenda/agenda.ts, agendaScope)
  EVENT_OWNER: ['read'], // events of its company's FOT records
  profissional: ['read'], // events whose team it is on
  RESEARCHER: [],
};

export const mayAgenda = (role: Role, action: AgendaAction) => agendaRules[role].includes(action);

/** The roles that have a calendar feed (docs/guide/operations.md). */
export const CALENDAR_ROLES = ['profissional', 'agenda_viewer', 'EVENT_OWNER'] as const satisfies readonly Role[];
