export interface QueryCount {
  /** Calls that reach D1: each run/all/first/raw of a statement and each batch. */
  roundTrips: number;
  /** SQL statements executed, a batch counting each of its statements. */
  statements: number;
  /** D1's meta.rows_read and meta.rows_written summed over the request's statements (what D1 bills). */
  rowsRead: number;
  rowsWritten: number;
  /** Each statement's SQL and rows read, in order (to find what grows). */
  trace: { sql: string; rowsRead: number }[];
}

type Meta = { meta?: { rows_read?: number; rows_written?: number } };

/**
 * A statement that only reads: a SELECT, or a WITH whose CTEs lead into a SELECT (in SQLite a WITH
 * may lead an INSERT, UPDATE, DELETE or REPLACE: `) insert` and the like, after its last CTE).
 */
const isRead = (sql: string) =>
  /^\s*select\b/i.test(sql) || (/^\s*with\b/i.test(sql) && !/\)\s*(insert|update|delete|replace)\s/i.test(sql));

/** Wraps the D1 binding so a test can count what one request costs (api(..., { countQueries: true })). */
export function countingD1(d1: D1Database) {
  const count: QueryCount = { roundTrips: 0, statements: 0, rowsRead: 0, rowsWritten: 0, trace: [] };
  const tally = (r: Meta, sql: string) => {
    count.trace.push({ sql, rowsRead: r?.meta?.rows_read ?? 0 });
    count.rowsRead += r?.meta?.rows_read ?? 0;
    count.rowsWritten += r?.meta?.rows_written ?? 0;
  };
  const targets = new WeakMap<object, D1PreparedStatement>();
  const sqlOf = new WeakMap<object, string>();
  const wrap = (stmt: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const proxy = new Proxy(stmt, {
      get(t, p) {
        if (p === 'bind') return (...args: unknown[]) => wrap(t.bind(...args), sql);
        const v = Reflect.get(t, p, t);
        if (typeof v !== 'function') return v;
        if (p === 'all' || p === 'first' || p === 'run' || p === 'raw') {
          return (...args: unknown[]) => {
            count.roundTrips++;
            count.statements++;
            // all() and run() answer meta. first() and raw() (drizzle's select outside a batch) do
            // not: a read is run once more through all(), uncounted as a round trip, for its rows read.
            if ((p === 'first' || p === 'raw') && isRead(sql))
              return t.all().then((r) => {
                tally(r as Meta, sql);
                return (v as (...a: unknown[]) => Promise<unknown>).apply(t, args);
              });
            const out = (v as (...a: unknown[]) => Promise<unknown>).apply(t, args);
            if (p === 'all' || p === 'run')
              void out.then(
                (r) => tally(r as Meta, sql),
                () => {},
              );
            return out;
          };
        }
        return v.bind(t);
      },
    });
    targets.set(proxy, stmt);
    sqlOf.set(proxy, sql);
    return proxy;
  };
  // A request runs on a D1 session (src/db/session.ts): the session is counted like the binding.
  const wrapDb = <D extends object>(target: D): D =>
    new Proxy(target, {
      get(t: any, p) {
        if (p === 'withSession') return (arg?: string) => wrapDb(t.withSession(arg));
        if (p === 'prepare') return (sql: string) => wrap(t.prepare(sql), sql);
        if (p === 'batch') {
          return (stmts: D1PreparedStatement[]) => {
            count.roundTrips++;
            count.statements += stmts.length;
            return t.batch(stmts.map((s) => targets.get(s) ?? s)).then((rs: Meta[]) => {
              rs.forEach((r, i) => tally(r, sqlOf.get(stmts[i]!) ?? '?'));
              return rs;
            });
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
