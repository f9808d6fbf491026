import { WorldBudgetExceeded, WorldStalled } from "./world-errors.js";

/** What the world knows when it must stop: the virtual time, its open tasks and what is in flight outside it. */
export interface StopContext {
  readonly nowMs: number;
  readonly openTasks: readonly string[];
  readonly realIo: readonly string[];
  readonly realTimers: number;
  readonly pendingTimers: number;
}

const iso = (ms: number) => new Date(ms).toISOString();
const names = (xs: readonly string[]) => xs.join(", ") || "none";

/** The error for real I/O alive when virtual time would jump: its reply would land at a moment no seed decides. */
export function realIoError(c: StopContext): WorldStalled {
  return new WorldStalled(
    `real I/O in flight inside the world (${c.realIo.join(", ")}) while virtual time would jump from ` +
      `${iso(c.nowMs)}; open tasks: ${names(c.openTasks)}. ` +
      "Real I/O completes at a moment no seed decides: route it to an in-process model.",
    c.openTasks,
    c.realIo,
  );
}

/** The error for open tasks with no virtual timer pending, with the likeliest reason. */
export function stallError(c: StopContext): WorldStalled {
  const why =
    c.realIo.length > 0
      ? `real I/O in flight: ${c.realIo.join(", ")}`
      : c.realTimers > 0
        ? `${c.realTimers} real timer(s) made outside the world (a setTimeout captured before install?)`
        : "they await a promise nothing in the world will settle (real I/O, or a missing wake-up)";
  return new WorldStalled(
    `world stalled at ${iso(c.nowMs)}: no virtual timer pending while tasks are open (${names(c.openTasks)}); ${why}`,
    c.openTasks,
    c.realIo,
  );
}

/** The error for a run that outlived its virtual-time budget. */
export function overTimeError(what: string, maxMs: number, c: StopContext): WorldBudgetExceeded {
  return new WorldBudgetExceeded(
    `${what} did not finish within ${maxMs} ms of virtual time; open tasks: ${names(c.openTasks)}; ` +
      `${c.pendingTimers} timer(s) pending`,
  );
}

/** The error for too many events at one virtual instant. */
export function busyLoopError(maxPerInstant: number, c: StopContext): WorldBudgetExceeded {
  return new WorldBudgetExceeded(
    `over ${maxPerInstant} events at virtual ${iso(c.nowMs)}: a busy loop of immediates or zero-delay tasks ` +
      `(open tasks: ${names(c.openTasks)})`,
  );
}

/** A one-line description of a thrown value, for the trace. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}
