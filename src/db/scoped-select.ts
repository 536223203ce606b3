import type { Db } from './client';
import { preparedSelect, type BoundSelect, type Selectable } from './fast-select';
import { placeholderScope, scopeShape, scopeValues, type Scope, type ScopeShape, type SqlScope } from './scope';

/**
 * A read whose WHERE depends on the caller (a service's `visible(scope)` rule), prepared once per
 * isolate and shape: the shape is the caller's role, whether it has a company, and the `extra`
 * switches of the query (a filter given, a page asked); every value — the caller's id and company,
 * the region, ids, page bounds — binds through placeholders. drizzle's toSQL costs 123-504 µs per
 * select here (the user row, FOT page, agenda page; see fast-select.ts); with this, a hot list
 * builds its SQL once per isolate. The three services with scoped reads (FOT records, agenda,
 * professionals) declare them through this one function instead of each wiring
 * preparedSelect + placeholderScope + scopeShape + scopeValues by hand.
 *
 * Equality with the unprepared query: test/perf/fast-select.test.ts.
 */
export function scopedSelect<Extra extends Record<string, boolean>, Q extends Selectable>(
  build: (db: Db, scope: SqlScope, extra: Extra) => Q,
) {
  const prepared = preparedSelect((db: Db, shape: ScopeShape & { extra: Extra }) =>
    build(db, placeholderScope(shape), shape.extra),
  );
  return (
    db: Db,
    scope: Scope,
    values: Record<string, unknown>,
    extra: Extra = {} as Extra,
  ): BoundSelect<Awaited<Q>[number]> =>
    prepared(db, { ...scopeShape(scope), extra }, { ...scopeValues(scope), ...values });
}
