import type { Db } from './client';
import { cachedSelect, type Exact, type Placeholders, type Values } from './cached-batch';
import type { Selectable } from './row-mapper';
import { SCOPE_PARAMS, scopeOf, scopeShape, scopeValues, type Scope, type ScopeShape, type SqlScope } from './scope';

type ScopeParam = (typeof SCOPE_PARAMS)[number];

/**
 * A read whose WHERE depends on the caller (a service's `visible(scope)` rule), cached per isolate
 * and shape (db/cached-batch.ts cachedSelect): the shape is the caller's role, whether it has a
 * company, and the `extra` switches of the query (a filter given, a page asked); every value — the
 * caller's id and company (`uid`, `empresa`), the region, ids, page bounds — binds through the
 * placeholders `p` of its declared `params`. drizzle's toSQL costs 123-504 µs per select here (the
 * user row, FOT page, agenda page); with this, a hot list builds its SQL once per isolate.
 *
 * Equality with the uncached query: test/perf/fast-select.test.ts.
 */
export function scopedSelect<const N extends string, Extra extends Record<string, boolean>, Q extends Selectable>(def: {
  params: readonly N[];
  build: (db: Db, scope: SqlScope, p: Placeholders<N>, extra: Extra) => Q;
}) {
  const select = cachedSelect<N | ScopeParam, ScopeShape & { extra: Extra }, Q>({
    params: [...SCOPE_PARAMS, ...def.params],
    build: (db, shape, p) => def.build(db, scopeOf(shape, p), p, shape.extra),
  });
  return <V extends Values<N>>(db: Db, scope: Scope, values: Exact<V, N>, extra: Extra = {} as Extra) =>
    // Extra is booleans and ScopeShape a role and a boolean: finite.
    select(db, { ...scopeShape(scope), extra } as never, { ...scopeValues(scope), ...values } as never);
}
