export interface QueryCount {
  /** Calls that reach D1: each run/all/first/raw of a statement and each batch. */
  roundTrips: number;
  /** SQL statements executed, a batch counting each of its statements. */
  statements: number;
}

/** Wraps the D1 binding so a test can count what one request costs (api(..., { countQueries: true })). */
export function countingD1(d1: D1Database) {
  const count: QueryCount = { roundTrips: 0, statements: 0 };
  const targets = new WeakMap<object, D1PreparedStatement>();
  const wrap = (stmt: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(stmt, {
      get(t, p) {
        if (p === 'bind') return (...args: unknown[]) => wrap(t.bind(...args));
        const v = Reflect.get(t, p, t);
        if (typeof v !== 'function') return v;
        if (p === 'all' || p === 'first' || p === 'run' || p === 'raw') {
          return (...args: unknown[]) => {
            count.roundTrips++;
            count.statements++;
            return (v as (...a: unknown[]) => unknown).apply(t, args);
          };
        }
        return v.bind(t);
      },
    });
    targets.set(proxy, stmt);
    return proxy;
  };
  // A request runs on a D1 session (src/db/session.ts): the session is counted like the binding.
  const wrapDb = <D extends object>(target: D): D =>
    new Proxy(target, {
      get(t: any, p) {
        if (p === 'withSession') return (arg?: string) => wrapDb(t.withSession(arg));
        if (p === 'prepare') return (sql: string) => wrap(t.prepare(sql));
        if (p === 'batch') {
          return (stmts: D1PreparedStatement[]) => {
            count.roundTrips++;
            count.statements += stmts.length;
            return t.batch(stmts.map((s) => targets.get(s) ?? s));
          };
        }
        if (p === 'exec') {
          return (sql: string) => {
            count.roundTrips++;
            count.statements++;
            return t.exec(sql);
          };
        }
        const v = Reflect.get(t, p, t);
        return typeof v === 'function' ? v.bind(t) : v;
      },
    });
  return { db: wrapDb(d1), count };
}
