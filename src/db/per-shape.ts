import type { Db } from './client';

/**
 * The cache behind prepared statements and selects (prepared-statement.ts, fast-select.ts): `build`
 * runs once per isolate and shape (the shape as JSON is the key) and its result is reused. The
 * builder sees only the shape, never a request value; `bound` are the constants its SQL binds, which
 * may not look like a request's value (a UUID, an ISO instant): that value would be frozen into
 * the cached SQL and reused by every later request.
 */
export function perShape<Shape, B>(build: (db: Db, shape: Shape) => B, bound: (b: B) => unknown[]) {
  const built = new Map<string, B>();
  return (db: Db, shape: Shape): B => {
    const key = JSON.stringify(shape) ?? '';
    let b = built.get(key);
    if (b === undefined) {
      b = build(db, shape);
      assertNothingFrozen(bound(b));
      built.set(key, b);
    }
    return b;
  };
}

/** An id or an instant bound as a constant: a value of the request that would be reused by every later one. */
const PER_REQUEST = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d{4}-\d{2}-\d{2}T\d{2}:\d{2})/i;

function assertNothingFrozen(params: unknown[]) {
  for (const v of params)
    if (typeof v === 'string' && PER_REQUEST.test(v))
      throw new Error(`prepared statement: ${v} would be frozen into the cached SQL; bind it through a placeholder`);
}
