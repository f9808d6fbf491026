import { type Clock, clock as sharedClock } from "@eo/core";
import { errorText } from "./invoke-handler";

/** One scheduled function: what EventBridge Scheduler's rate(...) expression and a Lambda target do in AWS. */
export interface ScheduledJob {
  everyMs: number;
  /** Runs the job; a run by hand may pass its invocation's event. */
  run: (event?: unknown) => Promise<unknown>;
}

/** The running local scheduler. */
export interface Scheduler {
  /**
   * Runs one job now and returns what it returned; an unknown name rejects. It runs beside a run under way, as
   * a second EventBridge invocation would (after it, with `noOverlap`).
   */
  runNow(name: string, event?: unknown): Promise<unknown>;
  /** Clears every timer and waits for the runs under way. */
  stop(): Promise<void>;
  /** The jobs' names. */
  names(): string[];
}

/** Thrown by `runNow` for a name that is not a job, so that callers can answer 404. */
export class UnknownJobError extends Error {
  constructor(readonly job: string) {
    super(`unknown scheduled job: ${job}`);
    this.name = "UnknownJobError";
  }
}

/** How the local scheduler runs its jobs. */
export interface SchedulerOptions {
  clock?: Clock;
  /**
   * Never start a job while its last run is under way: ticks are skipped and runNow waits. EventBridge Scheduler
   * gives no such promise (a rate schedule fires on time, and delivery is at least once), so this is off by
   * default; jobs must be safe to overlap, and the local stack runs them as AWS would.
   */
  noOverlap?: boolean;
}

interface JobState {
  job: ScheduledJob;
  /** When the next run is due, on the scheduler's clock. */
  dueAt: number;
  /** The runs under way. */
  running: Set<Promise<unknown>>;
  timer: NodeJS.Timeout | undefined;
}

// Due times are on the shared clock, so a test that moves it forward (POST /_local/clock) sees the job run; a
// timer never sleeps longer than this, so that such a move is noticed promptly.
const MAX_TIMER_MS = 1000;

/** Starts running each job every `everyMs` (first run one interval after start), overlapping unless `noOverlap`. */
export function startScheduler(
  jobs: Record<string, ScheduledJob>,
  options: SchedulerOptions = {},
): Scheduler {
  return new LocalScheduler(jobs, options.clock ?? sharedClock, options.noOverlap ?? false);
}

class LocalScheduler implements Scheduler {
  private readonly states = new Map<string, JobState>();
  private stopped = false;

  constructor(
    jobs: Record<string, ScheduledJob>,
    private readonly clock: Clock,
    private readonly noOverlap: boolean,
  ) {
    for (const [name, job] of Object.entries(jobs)) {
      if (!(job.everyMs > 0)) throw new RangeError(`job ${name}: everyMs must be a positive number`);
      this.states.set(name, { job, dueAt: clock.now() + job.everyMs, running: new Set(), timer: undefined });
    }
    for (const [name, state] of this.states) this.arm(name, state);
  }

  async runNow(name: string, event?: unknown): Promise<unknown> {
    const state = this.states.get(name);
    if (!state) throw new UnknownJobError(name);
    if (this.stopped) throw new Error("the scheduler is stopped");
    while (this.noOverlap && state.running.size > 0) await settled(state);
    return start(state, event);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const state of this.states.values()) clearTimeout(state.timer);
    await Promise.all([...this.states.values()].map((s) => settled(s)));
  }

  names(): string[] {
    return [...this.states.keys()];
  }

  private arm(name: string, state: JobState): void {
    if (this.stopped) return;
    const wait = Math.min(Math.max(0, state.dueAt - this.clock.now()), MAX_TIMER_MS);
    state.timer = setTimeout(() => this.tick(name, state), wait);
    // A schedule alone must not keep the process alive.
    state.timer.unref();
  }

  private tick(name: string, state: JobState): void {
    const now = this.clock.now();
    if (now >= state.dueAt) {
      // Like a rate schedule, the next run is one interval after this one began, not after it ends.
      state.dueAt = now + state.job.everyMs;
      // With noOverlap a tick while the job still runs is skipped; otherwise it starts beside it, as in AWS.
      if (!this.noOverlap || state.running.size === 0) {
        start(state).catch((err) => console.error(`[scheduler] job ${name} failed: ${errorText(err)}`));
      }
    }
    this.arm(name, state);
  }
}

function start(state: JobState, event?: unknown): Promise<unknown> {
  const run = Promise.resolve().then(() => state.job.run(event));
  state.running.add(run);
  const clear = () => void state.running.delete(run);
  run.then(clear, clear);
  return run;
}

/** Resolves once every run under way now has ended, whatever each returned. */
async function settled(state: JobState): Promise<void> {
  await Promise.all([...state.running].map((r) => r.catch(() => undefined)));
}
