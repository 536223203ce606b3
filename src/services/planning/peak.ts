/**
 * Peak demand of one day (docs/decisions.md#d26): the fewest people (or pieces of equipment) that cover
 * every event of the day, when one of them may go from an event to a later one if the gap between the
 * two covers the trip and the margin. Pure: no database, so it is tested by hand-computed cases
 * (test/routes/planning/peak.test.ts) before any SQL feeds it.
 *
 * Without travel this is the largest number needed at one moment of the day (the most events running
 * at once, each weighted by its need). With travel, two events "overlap" when the later one starts
 * before the earlier one's end plus the trip and the margin: the same count over those widened
 * windows. Computed exactly as a minimum path cover with multiplicities: sum of the needs minus the
 * largest number of hand-overs (a maximum flow from each event's people to a later compatible event),
 * so that each person counts once per day however many events it covers.
 */

/** One event of the day as the planner sees it: its window (minutes) and how many it needs. */
export interface PeakItem {
  id: string;
  /** Start and end of the event's window, half-open, in minutes on one clock (services/agenda/event-window.ts). */
  start: number;
  end: number;
  /** People (or pieces) it needs; 0 takes no part. */
  need: number;
}

/**
 * Minutes needed to go from event `from` to event `to` (travel plus margin), or undefined when no
 * travel rule applies (a city unknown on either side: only overlap counts, docs/decisions.md#d23).
 */
export type Gap = (from: PeakItem, to: PeakItem) => number | undefined;

/** Whether one person can do `a` and then `b`. */
export function chains(a: PeakItem, b: PeakItem, gap: Gap): boolean {
  if (a.end > b.start) return false;
  const g = gap(a, b);
  return g === undefined || a.end + g <= b.start;
}

/** The day's peak demand: the fewest people covering every item's need (see above). */
export function peakDemand(items: readonly PeakItem[], gap: Gap): number {
  const xs = items.filter((i) => i.need > 0);
  const total = xs.reduce((n, i) => n + i.need, 0);
  if (xs.length < 2) return total;
  return total - handOvers(xs, gap);
}

/**
 * The largest number of hand-overs (a person leaving one event for a later one), as a maximum flow:
 * source -> each event's "leaving" side (its need) -> a later compatible event's "arriving" side
 * (unbounded) -> sink (its need). Dinic's algorithm; a day has tens of events at most.
 */
function handOvers(xs: PeakItem[], gap: Gap): number {
  const n = xs.length;
  const S = 2 * n;
  const T = S + 1;
  const graph = new Flow(T + 1);
  for (let i = 0; i < n; i++) {
    graph.edge(S, i, xs[i]!.need);
    graph.edge(n + i, T, xs[i]!.need);
    for (let j = 0; j < n; j++) if (i !== j && chains(xs[i]!, xs[j]!, gap)) graph.edge(i, n + j, Infinity);
  }
  return graph.max(S, T);
}

/** A flow network (Dinic): adjacency lists of edge indexes, each edge and its reverse side by side. */
class Flow {
  private to: number[] = [];
  private cap: number[] = [];
  private adj: number[][];
  private level: number[] = [];
  private next: number[] = [];

  constructor(private readonly size: number) {
    this.adj = Array.from({ length: size }, () => []);
  }

  edge(a: number, b: number, c: number) {
    this.adj[a]!.push(this.to.length);
    this.to.push(b);
    this.cap.push(c);
    this.adj[b]!.push(this.to.length);
    this.to.push(a);
    this.cap.push(0);
  }

  max(s: number, t: number): number {
    let flow = 0;
    while (this.levels(s, t)) {
      this.next = new Array<number>(this.size).fill(0);
      for (let f = this.push(s, t, Infinity); f > 0; f = this.push(s, t, Infinity)) flow += f;
    }
    return flow;
  }

  private levels(s: number, t: number) {
    this.level = new Array<number>(this.size).fill(-1);
    this.level[s] = 0;
    const queue = [s];
    for (let q = 0; q < queue.length; q++) {
      const v = queue[q]!;
      for (const e of this.adj[v]!) {
        const w = this.to[e]!;
        if (this.cap[e]! > 0 && this.level[w]! < 0) {
          this.level[w] = this.level[v]! + 1;
          queue.push(w);
        }
      }
    }
    return this.level[t]! >= 0;
  }

  private push(v: number, t: number, f: number): number {
    if (v === t) return f;
    const edges = this.adj[v]!;
    for (; this.next[v]! < edges.length; this.next[v] = this.next[v]! + 1) {
      const e = edges[this.next[v]!]!;
      const w = this.to[e]!;
      if (this.cap[e]! <= 0 || this.level[w] !== this.level[v]! + 1) continue;
      const got = this.push(w, t, Math.min(f, this.cap[e]!));
      if (got > 0) {
        this.cap[e] = this.cap[e]! - got;
        this.cap[e ^ 1] = this.cap[e ^ 1]! + got;
        return got;
      }
    }
    return 0;
  }
}
