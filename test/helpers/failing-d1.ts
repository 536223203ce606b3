/**
 * A D1 binding that fails on purpose, to prove that multi-row writes are all or nothing.
 *
 * The chosen `db.batch()` gets one of its statements replaced by an invalid one
 * (`insert into __missing_table__ ...`), so D1 itself fails the batch and rolls it back, exactly as
 * it would on a real failure half-way through (a constraint, a timeout, a lost isolate). Single
 * statements (`run`/`all`/`first`/`raw` outside a batch) can be made to fail the same way.
 *
 * Use it through the app with the binding swapped:
 *   const failing = failingD1(env.DB, { batch: (sqls) => sqls.some((s) => s.startsWith('insert into "users"')), statement: 1 });
 *   const res = await createApp().request(path, init, { ...env, DB: failing.db });
 *   expect(failing.injected).toBe(1);   // the failure really happened
 */

export const BROKEN_SQL = 'insert into __missing_table__ values (1)';

export interface FailPlan {
  /** Which batch fails: the first one whose statements (SQL text, lowercase) satisfy this. Default: the first batch. */
  batch?: (sqls: string[]) => boolean;
  /** Which statement of that batch is replaced: an index (negative counts from the end) or a predicate. */
  statement?: number | ((sql: string, index: number) => boolean);
  /** Instead of a batch, fail the first single statement (outside any batch) whose SQL satisfies this. */
  single?: (sql: string) => boolean;
  /** How many matching batches (or single statements) fail; later ones pass. Default 1. */
  times?: number;
  /**
   * Instead of failing the chosen batch, run this first and then the batch unchanged: another
   * request's write landing between a service's read and its batch (a race, made deterministic).
   */
  before?: () => Promise<unknown>;
}

export interface FailingD1 {
  db: D1Database;
  /** Failures injected so far (a test asserts it, so that it cannot pass without the failure). */
  readonly injected: number;
  /** The SQL of every batch seen (lowercase), in order: handy to find the statement to break. */
  readonly batches: string[][];
  /** The SQL that was replaced, per injected failure. */
  readonly replaced: string[];
}

/** Wraps `d1` so that the batch (or statement) named by `plan` fails; everything else passes through. */
export function failingD1(d1: D1Database, plan: FailPlan = {}): FailingD1 {
  const state = { injected: 0, batches: [] as string[][], replaced: [] as string[] };
  const times = plan.times ?? 1;
  // Statements are wrapped only to remember their SQL; D1 receives its own objects back.
  const sqlOf = new WeakMap<object, string>();
  const targets = new WeakMap<object, D1PreparedStatement>();

  const wrap = (stmt: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const proxy = new Proxy(stmt, {
      get(t, p) {
        if (p === 'bind') return (...args: unknown[]) => wrap(t.bind(...args), sql);
        const v = Reflect.get(t, p, t);
        if (typeof v !== 'function') return v;
        if (plan.single && (p === 'all' || p === 'first' || p === 'run' || p === 'raw')) {
          return (...args: unknown[]) => {
            if (state.injected < times && plan.single!(sql.toLowerCase())) {
              state.injected++;
              state.replaced.push(sql);
              return d1.prepare(BROKEN_SQL).run();
            }
            return (v as (...a: unknown[]) => unknown).apply(t, args);
          };
        }
        return v.bind(t);
      },
    });
    sqlOf.set(proxy, sql);
    targets.set(proxy, stmt);
    return proxy;
  };

  const pickIndex = (sqls: string[]): number => {
    const s = plan.statement ?? 0;
    if (typeof s === 'number') return s < 0 ? sqls.length + s : s;
    return sqls.findIndex((sql, i) => s(sql, i));
  };

  const db = new Proxy(d1, {
    get(t, p) {
      // No sessions: the app then runs on this binding itself (src/db/session.ts).
      if (p === 'withSession') return undefined;
      if (p === 'prepare') return (sql: string) => wrap(t.prepare(sql), sql);
      if (p === 'batch') {
        return (stmts: D1PreparedStatement[]) => {
          const sqls = stmts.map((s) => (sqlOf.get(s) ?? '?').toLowerCase());
          state.batches.push(sqls);
          const real = stmts.map((s) => targets.get(s) ?? s);
          if (!plan.single && state.injected < times && (plan.batch ?? (() => true))(sqls)) {
            if (plan.before) {
              state.injected++;
              return plan.before().then(() => t.batch(real));
            }
            const at = pickIndex(sqls);
            if (at >= 0 && at < real.length) {
              state.injected++;
              state.replaced.push(sqls[at]!);
              real[at] = t.prepare(BROKEN_SQL);
            }
          }
          return t.batch(real);
        };
      }
      const v = Reflect.get(t, p, t);
      return typeof v === 'function' ? v.bind(t) : v;
    },
  });

  return {
    db,
    get injected() {
      return state.injected;
    },
    batches: state.batches,
    replaced: state.replaced,
  };
}
