import { type Clock, clock as sharedClock } from "@eo/core";
import { errorText } from "./invoke-handler";

/** One scheduled function: what EventBridge Scheduler's rate(...) expression and a Lambda target do in AWS. */
export interface ScheduledJob {
  everyMs: number;
  run: () => Promise<unknown>;
}

/** The running local scheduler. */
export interface Scheduler {
  /** Runs one job now (after its current run, if any) and returns what it returned; an unknown name rejects. */
  runNow(name: string): Promise<unknown>;
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

interface JobState {
  job: ScheduledJob;
  /** When the next run is due, on the scheduler's clock. */
  dueAt: number;
  current: Promise<unknown> | undefined;
  timer: NodeJS.Timeout | undefined;
}

// Due times are on the shared clock, so a test that moves it forward (POST /_local/clock) sees the job run; a
// timer never sleeps longer than this, so that such a move is noticed promptly.
const MAX_TIMER_MS = 1000;

/** Starts running each job every `everyMs` (first run one interval after start); a run never overlaps the job's last. */
export function startScheduler(
  jobs: Record<string, ScheduledJob>,
  options: { clock?: Clock } = {},
): Scheduler {
  return new LocalScheduler(jobs, options.clock ?? sharedClock);
}

class LocalScheduler implements Scheduler {
  private readonly states = new Map<string, JobState>();
  private stopped = false;

  constructor(
    jobs: Record<string, ScheduledJob>,
    private readonly clock: Clock,
  ) {
    for (const [name, job] of Object.entries(jobs)) {
      if (!(job.everyMs > 0)) throw new RangeError(`job ${name}: everyMs must be a positive number`);
      this.states.set(name, { job, dueAt: clock.now() + job.everyMs, current: undefined, timer: undefined });
    }
    for (const [name, state] of this.states) this.arm(name, state);
  }

  async runNow(name: string): Promise<unknown> {
    const state = this.states.get(name);
    if (!state) throw new UnknownJobError(name);
    if (this.stopped) throw new Error("the scheduler is stopped");
    while (state.current) await state.current.catch(() => undefined);
    return start(state);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const state of this.states.values()) clearTimeout(state.timer);
    await Promise.all([...this.states.values()].map((s) => s.current?.catch(() => undefined)));
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
      // A tick while the job still runs is skipped, so that a slow job never overlaps itself.
      if (!state.current) {
        start(state).catch((err) => console.error(`[scheduler] job ${name} failed: ${errorText(err)}`));
      }
    }
    this.arm(name, state);
  }
}

function start(state: JobState): Promise<unknown> {
  const run = Promise.resolve().then(() => state.job.run());
  state.current = run;
  const clear = () => {
    if (state.current === run) state.current = undefined;
  };
  run.then(clear, clear);
  return run;
}
