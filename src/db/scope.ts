import type { Placeholder } from 'drizzle-orm';
import type { Role } from './schema';

/**
 * The caller as a query's visibility rule sees it (`visible(scope)` in each service): only the
 * fields an access token carries, so a folded read can build its SQL before the user row is read
 * (middleware/folded.ts; docs/architecture.md, "Folded authentication").
 */
export interface Scope {
  id: string;
  role: Role;
  empresaId: string | null;
}

/** A scope as SQL sees it: real values, or the placeholders of a cached select (see scopeShape). */
export interface SqlScope {
  id: string | Placeholder;
  role: Role;
  empresaId: string | Placeholder | null;
}

/**
 * What of a scope decides a cached select's SQL (the role, whether a company is set); its values
 * bind as `uid` and `empresa` (scopeValues, SCOPE_PARAMS). scopeOf(shape, p) is what the builder sees.
 */
export const scopeShape = (s: Scope) => ({ role: s.role, empresa: s.empresaId !== null });
export type ScopeShape = ReturnType<typeof scopeShape>;
export const SCOPE_PARAMS = ['uid', 'empresa'] as const;
export const scopeValues = (s: Scope) => ({ uid: s.id, empresa: s.empresaId });
export const scopeOf = (
  shape: ScopeShape,
  p: Readonly<Record<(typeof SCOPE_PARAMS)[number], Placeholder>>,
): SqlScope => ({
  id: p.uid,
  role: shape.role,
  empresaId: shape.empresa ? p.empresa : null,
});
