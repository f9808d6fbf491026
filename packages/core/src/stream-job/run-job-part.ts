import { takeFault } from "../faults/faults";
import { InjectedCrash } from "../inbox/injected-crash";
import { openingState, stateFrom } from "./job-state";
import { runStreamJob, type StreamJobInput, type StreamJobResult } from "./run-stream-job";
import { type SkippedBatch, skipBatch } from "./skipped-batch";
import { unsafeJobFailsBatch } from "./stream-job-test-switches";
import type { TotalsSink } from "./totals-sink";

/** Where the job describes a batch it gave up on (its own failure queue; the recompute command reads it). */
export interface StreamJobFailures {
  report(batch: SkippedBatch): Promise<void>;
}

/** The job's own retry budget inside one invocation of the shared ledger-stream mapping. */
export interface JobRetryPolicy {
  attempts: number;
  firstBackoffMs: number;
  /** The invocation's time left: no try starts with less than `reserveMs`, which the give-up needs. */
  timeLeftMs: () => number;
  reserveMs: number;
}

/** Three tries 250 ms and 500 ms apart: a throttled sink write recovers in that, a table that is down does not. */
export const JOB_RETRY_POLICY: Omit<JobRetryPolicy, "timeLeftMs"> = {
  attempts: 3,
  firstBackoffMs: 250,
  reserveMs: 5_000,
};

/** What the job's part of an invocation came to: the state to commit, and either its run or the batch it gave up. */
export type JobPartOutcome =
  | { kind: "ran"; state: StreamJobResult["state"]; result: StreamJobResult }
  | { kind: "skipped"; state: StreamJobResult["state"]; skipped: SkippedBatch };

/**
 * Runs the stream job's part of a ledger stream invocation with its own failure accounting: retried in place, then
 * given up to its failure queue, so that a failing job never holds the relay's events (they share the mapping). A
 * window's close is never given up (it holds the shard, as Lambda's final invocation does), nor is a crash.
 */
export async function runJobPart(
  sink: TotalsSink,
  failures: StreamJobFailures,
  input: StreamJobInput,
  policy: JobRetryPolicy,
): Promise<JobPartOutcome> {
  let error: unknown;
  let attempts = 0;
  while (attempts < policy.attempts && (attempts === 0 || policy.timeLeftMs() > policy.reserveMs)) {
    if (attempts > 0) await pause(policy.firstBackoffMs * 2 ** (attempts - 1));
    attempts += 1;
    try {
      if (takeFault("stream_job_sink_down") !== undefined)
        throw new Error("injected: the totals table refused the job's write");
      const result = await runStreamJob(sink, input);
      return { kind: "ran", state: result.state, result };
    } catch (err) {
      if (err instanceof InjectedCrash || unsafeJobFailsBatch()) throw err;
      error = err;
    }
  }
  if (input.final || input.cutShort === true || input.records.length === 0) throw error;
  const at = { shard: input.shard, window: input.window };
  // A carry that cannot be read gives the batch up from an empty opening: its events are still reported once.
  const carry = await sink.carryBefore(at.shard, at.window).catch(() => undefined);
  const opening = stateFrom(input.state) ?? openingState(carry, at.window);
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const { state, skipped } = skipBatch(opening, at, input.records, { error: text, attempts });
  // A report that cannot be sent throws: the mapping retries the whole batch, so nothing is given up unreported. A
  // batch with nothing to count (a pending row, a late or repeated copy) leaves no total short: nothing to report.
  if (skipped.events.length > 0) await failures.report(skipped);
  return { kind: "skipped", state, skipped };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
