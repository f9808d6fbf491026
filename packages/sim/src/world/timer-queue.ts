/** What kind of callback a timer holds: immediates run before timeouts due at the same instant, as in Node. */
export type TimerKind = "immediate" | "timeout" | "interval" | "task";

/** One pending callback in virtual time. */
export interface VirtualTimer {
  readonly id: number;
  readonly kind: TimerKind;
  /** Virtual ms at which it is due (set by `push`). */
  at: number;
  /** Interval period for `setInterval`, else undefined. */
  repeat: number | undefined;
  /** An unref'd timer fires when time passes it but does not keep the world busy, like Node's event loop. */
  refed: boolean;
  /** Queued and not cleared. */
  live: boolean;
  /** Bumped on every push and clear, so an older heap entry for the same timer is recognised as stale. */
  gen: number;
  readonly fire: () => void;
}

interface Entry {
  readonly t: VirtualTimer;
  readonly gen: number;
  readonly at: number;
  readonly rank: number;
  readonly tie: number;
  readonly seq: number;
}

function before(a: Entry, b: Entry): boolean {
  if (a.at !== b.at) return a.at < b.at;
  if (a.rank !== b.rank) return a.rank < b.rank;
  if (a.tie !== b.tie) return a.tie < b.tie;
  return a.seq < b.seq;
}

/**
 * The world's pending timers as a binary min-heap on (due time, immediates first, seeded tie, creation order).
 * Cleared or re-armed timers leave stale entries that are skipped when they reach the top, so `clear` is O(1).
 */
export class TimerQueue {
  private readonly heap: Entry[] = [];
  private seq = 0;
  private liveCount = 0;
  private refedCount = 0;

  /** Number of live timers. */
  get size(): number {
    return this.liveCount;
  }

  /** Number of live timers that keep the world busy (not unref'd). */
  get refed(): number {
    return this.refedCount;
  }

  /** Queues (or re-arms) a timer due at `at`; `tie` orders it among timers due at the same instant. */
  push(t: VirtualTimer, at: number, tie: number): void {
    this.clear(t);
    t.at = at;
    t.live = true;
    t.gen++;
    this.liveCount++;
    if (t.refed) this.refedCount++;
    const rank = t.kind === "immediate" ? 0 : 1;
    this.heap.push({ t, gen: t.gen, at, rank, tie: rank === 0 ? 0 : tie, seq: this.seq++ });
    this.up(this.heap.length - 1);
  }

  /** Unqueues a timer; its heap entry is dropped when it reaches the top. */
  clear(t: VirtualTimer): void {
    if (!t.live) return;
    t.live = false;
    t.gen++;
    this.liveCount--;
    if (t.refed) this.refedCount--;
  }

  /** Changes whether a live timer keeps the world busy. */
  setRef(t: VirtualTimer, refed: boolean): void {
    if (t.live && t.refed !== refed) this.refedCount += refed ? 1 : -1;
    t.refed = refed;
  }

  /** The next live timer, without removing it. */
  peek(): VirtualTimer | undefined {
    this.dropStale();
    return this.heap[0]?.t;
  }

  /** Removes and returns the next live timer (now no longer live). */
  pop(): VirtualTimer | undefined {
    this.dropStale();
    const top = this.heap[0];
    if (top === undefined) return undefined;
    this.removeTop();
    this.clear(top.t);
    return top.t;
  }

  private dropStale(): void {
    for (let e = this.heap[0]; e !== undefined && (!e.t.live || e.t.gen !== e.gen); e = this.heap[0]) {
      this.removeTop();
    }
  }

  private removeTop(): void {
    const last = this.heap.pop() as Entry;
    if (this.heap.length > 0) {
      this.heap[0] = last;
      this.down(0);
    }
  }

  private up(i: number): void {
    const h = this.heap;
    const e = h[i] as Entry;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const parent = h[p] as Entry;
      if (!before(e, parent)) break;
      h[i] = parent;
      i = p;
    }
    h[i] = e;
  }

  private down(i: number): void {
    const h = this.heap;
    const e = h[i] as Entry;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= h.length) break;
      const r = l + 1;
      const c = r < h.length && before(h[r] as Entry, h[l] as Entry) ? r : l;
      if (!before(h[c] as Entry, e)) break;
      h[i] = h[c] as Entry;
      i = c;
    }
    h[i] = e;
  }
}
