import type { SeededRandom } from "./seeded-random.js";
import { type TimerKind, TimerQueue, type VirtualTimer } from "./timer-queue.js";

/** Node's largest timer delay; larger ones become 1 ms (Node warns, the world follows the behaviour). */
const TIMEOUT_MAX = 2 ** 31 - 1;

/** How the scheduler orders timers due at the same instant. */
export interface SchedulerOptions {
  /** "seeded" (default): timeouts due together fire in a seed-chosen order; "fifo": creation order, as in Node. */
  readonly ties: "seeded" | "fifo";
  /** Each timeout and interval fires up to this many ms late, seed-chosen (Node timers are late, never early). */
  readonly timerJitterMs: number;
}

/**
 * A Node-shaped handle for a virtual timeout, interval or immediate: `ref`/`unref`/`hasRef`/`refresh`/`close` and
 * a numeric id through `Symbol.toPrimitive`, so code that stores `+setTimeout(...)` or calls `.unref()` works.
 */
export class VirtualHandle {
  constructor(
    private readonly s: Scheduler,
    readonly timer: VirtualTimer,
    private readonly delay: number,
  ) {}
  ref(): this {
    this.s.queue.setRef(this.timer, true);
    return this;
  }
  unref(): this {
    this.s.queue.setRef(this.timer, false);
    return this;
  }
  hasRef(): boolean {
    return this.timer.refed;
  }
  refresh(): this {
    this.s.arm(this, this.delay);
    return this;
  }
  close(): this {
    this.s.cancel(this);
    return this;
  }
  [Symbol.toPrimitive](): number {
    return this.timer.id;
  }
  [Symbol.dispose](): void {
    this.s.cancel(this);
  }
}

/**
 * Virtual time and the timers due in it. It never reads the real clock: `advanceTo` is the only way time moves,
 * and the world calls it when every task is waiting, jumping straight to the next due timer.
 */
export class Scheduler {
  readonly queue = new TimerQueue();
  private readonly byId = new Map<number, VirtualHandle>();
  private nextId = 1;
  private nowMs: number;

  constructor(
    startMs: number,
    private readonly rng: SeededRandom,
    private readonly opts: SchedulerOptions,
    private readonly onAdvance: (deltaMs: number) => void,
  ) {
    this.nowMs = startMs;
  }

  /** Current virtual time in epoch ms. */
  now(): number {
    return this.nowMs;
  }

  /** A seeded integer in [lo, hi] from the scheduler's own stream (for start delays and the like). */
  draw(lo: number, hi: number): number {
    return this.rng.int(lo, hi);
  }

  /** Moves virtual time forward (never back) without firing anything. */
  advanceTo(ms: number): void {
    if (ms < this.nowMs) throw new RangeError(`virtual time cannot go back from ${this.nowMs} to ${ms}`);
    if (ms === this.nowMs) return;
    const delta = ms - this.nowMs;
    this.nowMs = ms;
    this.onAdvance(delta);
  }

  /** Creates a timer of `kind` due after `delayMs` (Node's coercion applies) and returns its handle. */
  schedule(kind: TimerKind, fire: () => void, delayMs: number): VirtualHandle {
    // a task start may be due now (delay 0); Node's 1 ms floor is for timeouts and intervals only
    const delay =
      kind === "immediate" ? 0 : kind === "task" ? Math.max(0, Math.ceil(delayMs)) : nodeDelay(delayMs);
    const timer: VirtualTimer = {
      id: this.nextId++,
      kind,
      at: 0,
      repeat: kind === "interval" ? delay : undefined,
      refed: true,
      live: false,
      gen: 0,
      fire,
    };
    const handle = new VirtualHandle(this, timer, delay);
    this.arm(handle, delay);
    return handle;
  }

  /** (Re)queues a timer `delayMs` from now with a fresh seeded tie and jitter. */
  arm(handle: VirtualHandle, delayMs: number): void {
    const timer = handle.timer;
    const immediate = timer.kind === "immediate";
    const late = (timer.kind === "timeout" || timer.kind === "interval") && this.opts.timerJitterMs > 0;
    const jitter = late ? this.rng.int(0, this.opts.timerJitterMs) : 0;
    const tie = immediate || this.opts.ties === "fifo" ? 0 : this.rng.random();
    this.queue.push(timer, this.nowMs + delayMs + jitter, tie);
    this.byId.set(timer.id, handle);
  }

  /** Cancels a handle or numeric id made by this scheduler; returns false for anything else. */
  cancel(h: unknown): boolean {
    const handle = h instanceof VirtualHandle ? h : typeof h === "number" ? this.byId.get(h) : undefined;
    if (handle === undefined) return false;
    this.queue.clear(handle.timer);
    this.byId.delete(handle.timer.id);
    return true;
  }

  /**
   * Fires the next due timer if it is due at or before `limitMs`, moving time to it; returns false when none is.
   * An interval is re-armed before its callback runs, as Node does, so the callback may clear it.
   */
  fireNext(limitMs: number): boolean {
    const next = this.queue.peek();
    if (next === undefined || next.at > limitMs) return false;
    this.queue.pop();
    this.advanceTo(next.at);
    const handle = this.byId.get(next.id);
    if (next.repeat !== undefined && handle !== undefined) this.arm(handle, next.repeat);
    else this.byId.delete(next.id);
    next.fire();
    return true;
  }
}

function nodeDelay(ms: number): number {
  const n = Number(ms);
  if (!(n >= 1 && n <= TIMEOUT_MAX)) return 1;
  return Math.ceil(n);
}
