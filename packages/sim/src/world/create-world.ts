import { AsyncLocalStorage } from "node:async_hooks";
import type { SimClock } from "./clock.js";
import { installGlobals } from "./install-globals.js";
import { RealIoWatch } from "./real-io-watch.js";
import { Scheduler } from "./scheduler.js";
import { SeededRandom } from "./seeded-random.js";
import { TraceLog } from "./trace-log.js";
import {
  busyLoopError,
  messageOf,
  overTimeError,
  realIoError,
  type StopContext,
  stallError,
} from "./world-diagnostics.js";
import { WorldTaskFailed } from "./world-errors.js";
import { TaskRecord, type WorldTask } from "./world-task.js";

/** How a world is made; only `seed` is required. */
export interface WorldOptions {
  readonly seed: number;
  /** Virtual epoch ms at the start (default 2026-01-01T00:00:00Z). */
  readonly startMs?: number;
  /** Timeouts due at the same instant: seed-ordered (default) or creation order like Node. */
  readonly ties?: "seeded" | "fifo";
  /** Every timeout fires 0..n ms late, seed-chosen (default 0). */
  readonly timerJitterMs?: number;
  /** Every spawned task starts 0..n ms after `spawn`, seed-chosen (default 0: same instant, seed-ordered). */
  readonly spawnJitterMs?: number;
  /** Replace Math.random and crypto's random functions with the seed (default true). */
  readonly patchRandom?: boolean;
  /**
   * Run timer callbacks and tasks in the AsyncLocalStorage context that scheduled them, as Node does (default
   * true; the production code's request views, claim contexts and Region scopes need it). Only a run of pure
   * models with no AsyncLocalStorage may turn it off (the overhead test prints both rates).
   */
  readonly asyncContext?: boolean;
  /** Events at one virtual instant before the world calls it a busy loop (default 100,000). */
  readonly maxEventsPerInstant?: number;
  /**
   * Real I/O in flight when virtual time would move: "refuse" (default) throws WorldStalled; "await" waits for it in
   * real time with virtual time held, for I/O whose result no timing changes (a module read from disk on a cold
   * start). Two such reads in flight at once may still finish in either order: warm the modules up before a run.
   */
  readonly realIo?: "refuse" | "await";
}

/** Options for a run that must end: the virtual time it may take (default 24 h). */
export interface RunBudget {
  readonly maxMs?: number;
}

/** Counters for measuring the world's own cost. */
export interface WorldStats {
  readonly events: number;
  readonly nowMs: number;
  readonly pendingTimers: number;
  readonly openTasks: readonly string[];
}

/** How long an empty queue may wait in real time for a module load before it counts as a stall. */
const STALL_GRACE_MS = 2_000;

interface Goal {
  reached(): boolean;
  readonly limitMs: number;
  /** An empty queue before the goal is reached means the open tasks wait on something outside the world. */
  readonly stallsWhenEmpty: boolean;
  /** Called when no timer is due by the limit. */
  onExhausted(): void;
}

const DAY_MS = 24 * 3600_000;
let installedWorld: World | undefined;

/** Creates and installs a seeded world with virtual time; only one world can be installed at a time. */
export function createWorld(options: WorldOptions): World {
  if (installedWorld !== undefined) throw new Error("a world is already installed: uninstall it first");
  const world = new World(options);
  installedWorld = world;
  return world;
}

/** One process's deterministic world: virtual time, seeded randomness, spawned tasks and a trace. */
export class World implements Disposable {
  readonly seed: number;
  readonly clock: SimClock;
  private readonly s: Scheduler;
  private readonly user: SeededRandom;
  private readonly log: TraceLog;
  private readonly tasks: TaskRecord[] = [];
  private readonly failures: WorldTaskFailed[] = [];
  private readonly io = new RealIoWatch();
  private readonly realSetImmediate = globalThis.setImmediate;
  private readonly realSetTimeout = globalThis.setTimeout;
  private readonly realIo: "refuse" | "await";
  private readonly restore: () => void;
  private readonly spawnJitterMs: number;
  private readonly maxPerInstant: number;
  private readonly asyncContext: boolean;
  private events = 0;
  private installed = true;

  constructor(o: WorldOptions) {
    const root = SeededRandom.of(o.seed);
    const sched = root.split();
    this.user = root.split();
    const ambient = root.split();
    this.seed = o.seed;
    this.spawnJitterMs = o.spawnJitterMs ?? 0;
    this.asyncContext = o.asyncContext ?? true;
    this.maxPerInstant = o.maxEventsPerInstant ?? 100_000;
    this.realIo = o.realIo ?? "refuse";
    const startMs = o.startMs ?? Date.UTC(2026, 0, 1);
    const opts = { ties: o.ties ?? "seeded", timerJitterMs: o.timerJitterMs ?? 0 } as const;
    let advance = (_ms: number) => {};
    this.s = new Scheduler(startMs, sched, opts, (ms) => advance(ms));
    this.clock = { now: () => this.s.now() };
    this.log = new TraceLog(() => this.s.now());
    const installed = installGlobals(this.s, {
      startMs,
      ambient: o.patchRandom === false ? undefined : ambient,
      uncaught: (err) => this.fail("timer callback", err),
      asyncContext: this.asyncContext,
    });
    advance = installed.advance;
    this.restore = installed.restore;
  }

  /** A seeded float in [0, 1). */
  random(): number {
    return this.user.random();
  }

  /** A seeded integer in [lo, hi], both included. */
  int(lo: number, hi: number): number {
    return this.user.int(lo, hi);
  }

  /** A seeded element of a non-empty list. */
  pick<T>(xs: readonly T[]): T {
    return this.user.pick(xs);
  }

  /** Resolves after `ms` of virtual time (a convenience over the virtual `setTimeout`). */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.s.schedule("timeout", resolve, ms));
  }

  /** Appends an event to the history at the current virtual time. */
  trace(event: unknown): void {
    this.log.add(event);
  }

  /** The history so far, one line per event. */
  history(): readonly string[] {
    return this.log.history();
  }

  /** SHA-256 of the history: equal for two runs of the same seed and scenario. */
  historyHash(): string {
    return this.log.hash();
  }

  /** The world's counters (events fired so far, virtual now, pending timers, open tasks). */
  stats(): WorldStats {
    const openTasks = this.tasks.filter((t) => t.open).map((t) => t.name);
    return { events: this.events, nowMs: this.s.now(), pendingTimers: this.s.queue.size, openTasks };
  }

  /**
   * Starts a concurrent task. It begins at a seed-chosen moment (now, or up to `spawnJitterMs` later, ordered by
   * the seed among everything due then), so the interleaving of actors is the seed's.
   */
  spawn<T>(name: string, fn: () => T | Promise<T>, options: { daemon?: boolean } = {}): WorldTask {
    this.assertInstalled();
    const task = new TaskRecord(name, options.daemon ?? false);
    this.tasks.push(task);
    this.log.add(`spawn ${name}`);
    const delay = this.spawnJitterMs > 0 ? this.s.draw(0, this.spawnJitterMs) : 0;
    const begin = () => this.start(task, fn);
    // the task runs in its spawner's async context, as a callback would in Node
    const inContext = this.asyncContext ? AsyncLocalStorage.snapshot() : undefined;
    this.s.schedule("task", inContext ? () => inContext(begin) : begin, delay);
    return task;
  }

  /** Runs `fn` as the task "main" until it settles, firing timers in virtual time; returns or throws its outcome. */
  async run<T>(fn: () => T | Promise<T>, budget: RunBudget = {}): Promise<T> {
    const main = this.spawn("main", fn) as TaskRecord;
    await this.drive({
      reached: () => !main.open,
      stallsWhenEmpty: true,
      limitMs: this.s.now() + (budget.maxMs ?? DAY_MS),
      onExhausted: () => this.overBudget("run", budget.maxMs ?? DAY_MS),
    });
    if (main.state === "failed") throw main.error;
    return main.result as T;
  }

  /** Fires every timer due within the next `ms` of virtual time, then leaves the clock exactly `ms` later. */
  async runFor(ms: number): Promise<void> {
    const limitMs = this.s.now() + ms;
    await this.drive({
      reached: () => false,
      stallsWhenEmpty: false,
      limitMs,
      onExhausted: () => this.jumpTo(limitMs),
    });
  }

  /** Runs until no non-daemon task is open and no ref'd timer is pending; throws if that takes over `maxMs`. */
  async runUntilIdle(budget: RunBudget = {}): Promise<void> {
    await this.drive({
      reached: () => this.s.queue.refed === 0 && !this.tasks.some((t) => t.open && !t.daemon),
      stallsWhenEmpty: true,
      limitMs: this.s.now() + (budget.maxMs ?? DAY_MS),
      onExhausted: () => this.overBudget("runUntilIdle", budget.maxMs ?? DAY_MS),
    });
  }

  /** Restores the real timers, Date, performance, hrtime and randomness; pending virtual timers are dropped. */
  uninstall(): void {
    if (!this.installed) return;
    this.installed = false;
    this.restore();
    if (installedWorld === this) installedWorld = undefined;
  }

  [Symbol.dispose](): void {
    this.uninstall();
  }

  private start<T>(task: TaskRecord, fn: () => T | Promise<T>): void {
    task.state = "running";
    this.log.add(`start ${task.name}`);
    let p: Promise<T>;
    try {
      p = Promise.resolve(fn());
    } catch (err) {
      p = Promise.reject(err);
    }
    p.then(
      (value) => {
        this.log.add(`end ${task.name}`);
        task.finish(true, value);
      },
      (err: unknown) => {
        task.finish(false, err);
        if (task.name !== "main") this.fail(task.name, err);
        else this.log.add(`fail main: ${messageOf(err)}`);
      },
    );
  }

  private fail(name: string, err: unknown): void {
    this.log.add(`fail ${name}: ${messageOf(err)}`);
    this.failures.push(new WorldTaskFailed(name, err));
  }

  private async drive(goal: Goal): Promise<void> {
    this.assertInstalled();
    let instant = this.s.now();
    let atInstant = 0;
    for (;;) {
      await this.drain();
      const failure = this.failures.shift();
      if (failure !== undefined) throw failure;
      if (goal.reached()) return;
      const next = this.s.queue.peek();
      if (next === undefined && goal.stallsWhenEmpty) {
        if (this.realIo === "await" && (await this.awaitRealIo())) continue;
        if (await this.settlesInRealTime(goal)) continue;
        this.stall();
      }
      if (next === undefined || next.at > goal.limitMs) {
        goal.onExhausted();
        return;
      }
      // "await": no event fires while real I/O is in flight, so its completion lands at the same point of every run.
      if (
        this.realIo === "await" ? await this.awaitRealIo() : next.at > this.s.now() && this.assertNoRealIo()
      )
        continue;
      if (next.at !== instant) [instant, atInstant] = [next.at, 0];
      if (++atInstant > this.maxPerInstant) throw busyLoopError(this.maxPerInstant, this.context());
      this.s.fireNext(goal.limitMs);
      this.events++;
    }
  }

  /** In "await" mode, lets real I/O in flight finish (virtual time held); true when it waited, so the loop looks again. */
  private async awaitRealIo(): Promise<boolean> {
    if (this.io.inFlight().length === 0) return false;
    if (this.realIo === "refuse") this.assertNoRealIo();
    for (let waited = 0; this.io.inFlight().length > 0; waited += 1) {
      if (waited > 30_000) this.assertNoRealIo();
      await new Promise((resolve) => this.realSetTimeout(resolve, 1));
    }
    return true;
  }

  /**
   * Before calling an empty queue a stall, gives the open tasks a moment of real time: a first `import()` resolves
   * through the module loader's own thread, which no resource of this one shows (a process's warm-up stalled on it
   * about one start in five). A true stall stays one; virtual time does not move meanwhile, so a run stays the same.
   */
  private async settlesInRealTime(goal: Goal): Promise<boolean> {
    // counted in real timer turns: performance and Date are the world's here
    for (let waited = 0; waited < STALL_GRACE_MS; waited += 2) {
      await new Promise((resolve) => this.realSetTimeout(resolve, 2));
      await this.drain();
      if (goal.reached() || this.s.queue.peek() !== undefined || this.failures.length > 0) return true;
    }
    return false;
  }

  private drain(): Promise<void> {
    return new Promise((resolve) => this.realSetImmediate(resolve));
  }

  private jumpTo(ms: number): void {
    if (ms > this.s.now()) this.assertNoRealIo();
    this.s.advanceTo(ms);
  }

  private context(): StopContext {
    const st = this.stats();
    return {
      nowMs: st.nowMs,
      openTasks: st.openTasks,
      realIo: this.io.inFlight(),
      realTimers: this.io.realTimers(),
      pendingTimers: st.pendingTimers,
    };
  }

  private assertNoRealIo(): false {
    if (this.io.inFlight().length > 0) throw realIoError(this.context());
    return false;
  }

  private stall(): never {
    throw stallError(this.context());
  }

  private overBudget(what: string, maxMs: number): never {
    throw overTimeError(what, maxMs, this.context());
  }

  private assertInstalled(): void {
    if (!this.installed) throw new Error("the world was uninstalled");
  }
}
