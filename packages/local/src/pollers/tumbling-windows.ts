import { takeFault } from "@eo/core";
import type { DynamoDBRecord } from "aws-lambda";
import type { Invocation } from "./invoke-handler";
import { MAX_RETRY_DELAY_MS } from "./stream-delivery";
import { sleep } from "./timing";

/** Lambda's limit on a window's state per shard; past it the window is terminated early. */
export const WINDOW_STATE_LIMIT_BYTES = 1024 * 1024;
/** Lambda's longest tumbling window. */
export const MAX_WINDOW_S = 900;
/** How many delivered records a shard keeps for the `stream_job_redeliver` fault (a source re-reading). */
const REDELIVERY_MEMORY = 100;

/** The fields Lambda adds to a stream event when its mapping has a tumbling window. */
export interface WindowFields {
  window: { start: string; end: string };
  state: Record<string, unknown>;
  shardId: string;
  eventSourceARN: string;
  isFinalInvokeForWindow: boolean;
  isWindowTerminatedEarly: boolean;
}

/** Invokes the function with one windowed event. */
export type InvokeWindowed = (
  event: { Records: DynamoDBRecord[] } & WindowFields,
) => Promise<Invocation<unknown>>;

/**
 * One shard's tumbling windows, as a Lambda event source mapping keeps them: records belong to the window of their
 * stream time (ApproximateCreationDateTime, windows aligned on multiples of their length); every invocation gets the
 * state the last successful one returned (so a failed batch is retried with the last committed state); a response
 * without `state` is a failure; a state over 1 MB ends the window early; once a window has ended, a final invocation
 * (`isFinalInvokeForWindow`) runs, retried until it succeeds, before anything of the next window.
 */
export class ShardWindows {
  private open: { startMs: number; state: Record<string, unknown> } | undefined;
  private readonly delivered: DynamoDBRecord[] = [];

  constructor(
    private readonly o: {
      shardId: string;
      eventSourceARN: string;
      windowMs: number;
      invoke: InvokeWindowed;
      signal: AbortSignal;
      log: (line: string) => void;
    },
  ) {}

  /** The end of the last window closed: nothing is ever assigned to a window before it. */
  private closedUntil = Number.NEGATIVE_INFINITY;

  /**
   * The start of the window a record belongs to, in ms. DynamoDB Local rounds ApproximateCreationDateTime down
   * further than AWS (to the minute; AWS to the second), so a record whose rounded time falls in a window already
   * closed belongs to the window after it, as a record read after the close does in AWS.
   */
  windowOf(record: DynamoDBRecord): number {
    const at = (record.dynamodb?.ApproximateCreationDateTime ?? Date.now() / 1000) * 1000;
    const start = Math.floor(at / this.o.windowMs) * this.o.windowMs;
    if (start >= this.closedUntil) return start;
    return Math.max(this.open?.startMs ?? start, Math.floor(Date.now() / this.o.windowMs) * this.o.windowMs);
  }

  /** Closes the open window first if `startMs` is a later one, then opens `startMs` if nothing is open. */
  async enter(startMs: number): Promise<boolean> {
    if (this.open && this.open.startMs < startMs && !(await this.close())) return false;
    this.open ??= { startMs, state: {} };
    return true;
  }

  /** Runs the final invocation of the open window if its end has passed; answers false if the poller stopped. */
  async closeIfEnded(nowMs = Date.now()): Promise<boolean> {
    if (!this.open || nowMs < this.open.startMs + this.o.windowMs) return true;
    return this.close();
  }

  /** The invocation of a batch within the open window, for deliverInOrder: it commits the state on success. */
  readonly invokeBatch = async (records: DynamoDBRecord[]): Promise<Invocation<unknown>> => {
    const open = this.open;
    if (!open) return { ok: false, error: "no window is open for this batch" };
    const again = takeFault("stream_job_redeliver");
    const batch = again === undefined ? records : [...this.delivered.slice(-Math.max(1, again)), ...records];
    const invocation = await this.o.invoke({ Records: batch, ...this.fields(open, false, false) });
    if (!invocation.ok) return invocation;
    const state = stateOf(invocation.result);
    if (!state)
      return { ok: false, error: "the response has no state object: Lambda counts the invocation as failed" };
    this.remember(records);
    if (Buffer.byteLength(JSON.stringify(state)) <= WINDOW_STATE_LIMIT_BYTES) open.state = state;
    else if (!(await this.cutShort(open, state))) return { ok: false, error: "the poller stopped" };
    return invocation;
  };

  private async close(): Promise<boolean> {
    const open = this.open;
    if (!open) return true;
    const ok = await this.untilSuccess({ Records: [], ...this.fields(open, true, false) });
    if (ok) {
      this.open = undefined;
      this.closedUntil = open.startMs + this.o.windowMs;
    }
    return ok;
  }

  // Over the limit, Lambda terminates the window early: one invocation with the flag, then the same window afresh.
  private async cutShort(
    open: { startMs: number; state: Record<string, unknown> },
    state: Record<string, unknown>,
  ) {
    this.o.log(`window state over ${WINDOW_STATE_LIMIT_BYTES} bytes: the window is terminated early`);
    const ok = await this.untilSuccess({ Records: [], ...this.fields({ ...open, state }, false, true) });
    if (ok) open.state = {};
    return ok;
  }

  // A window's closing invocation holds the shard until it succeeds, as Lambda pauses processing.
  private async untilSuccess(event: { Records: DynamoDBRecord[] } & WindowFields): Promise<boolean> {
    for (let attempt = 0; !this.o.signal.aborted; attempt++) {
      const invocation = await this.o.invoke(event);
      if (invocation.ok && stateOf(invocation.result)) return true;
      this.o.log(`final invocation failed (${invocation.ok ? "no state" : invocation.error}); retrying`);
      await sleep(Math.min(100 * 2 ** attempt, MAX_RETRY_DELAY_MS), this.o.signal);
    }
    return false;
  }

  private fields(open: { startMs: number; state: Record<string, unknown> }, final: boolean, early: boolean) {
    return {
      window: {
        start: new Date(open.startMs).toISOString(),
        end: new Date(open.startMs + this.o.windowMs).toISOString(),
      },
      state: open.state,
      shardId: this.o.shardId,
      eventSourceARN: this.o.eventSourceARN,
      isFinalInvokeForWindow: final,
      isWindowTerminatedEarly: early,
    };
  }

  private remember(records: DynamoDBRecord[]): void {
    this.delivered.push(...records);
    this.delivered.splice(0, Math.max(0, this.delivered.length - REDELIVERY_MEMORY));
  }
}

function stateOf(result: unknown): Record<string, unknown> | undefined {
  const state = (result as { state?: unknown } | null | undefined)?.state;
  return typeof state === "object" && state !== null && !Array.isArray(state)
    ? (state as Record<string, unknown>)
    : undefined;
}

/** Splits records, in order, into runs of the same window. */
export function byWindow(
  records: DynamoDBRecord[],
  windows: ShardWindows,
): Array<[number, DynamoDBRecord[]]> {
  const runs: Array<[number, DynamoDBRecord[]]> = [];
  for (const r of records) {
    const start = windows.windowOf(r);
    const last = runs[runs.length - 1];
    if (last && last[0] === start) last[1].push(r);
    else runs.push([start, [r]]);
  }
  return runs;
}
