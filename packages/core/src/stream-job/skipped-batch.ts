import { foldEvents } from "./fold-events";
import { type JobEvent, type JobRecord, jobEventsOf } from "./job-input";
import type { JobState } from "./job-state";
import { unsafeNoWatermarkFloor, unsafeSkipForgetsSeen } from "./stream-job-test-switches";

/**
 * What the stream job hands its failure queue for a batch it gave up on: the events it would have counted (neither
 * duplicates nor late), so that the recompute command can add them to the merchants' days once.
 */
export interface SkippedBatch {
  kind: "stream-job-batch-skipped";
  shard: string;
  window: string;
  /** The batch's first and last stream sequence numbers: with the shard, the recompute's idempotency key. */
  firstSequence: string;
  lastSequence: string;
  records: number;
  error: string;
  attempts: number;
  events: JobEvent[];
}

/**
 * Gives a batch up without losing it: the events are marked seen and the watermark advanced (so a later copy is a
 * duplicate, not a second count, once the recompute has added them), the totals are left as they were, and the
 * checkpoint is not advanced, so that the next invocation's full flush undoes any sink write the failed tries made.
 */
export function skipBatch(
  opening: JobState,
  at: { shard: string; window: string },
  records: readonly JobRecord[],
  failure: { error: string; attempts: number },
): { state: JobState; skipped: SkippedBatch } {
  const all = jobEventsOf(records);
  const folded = foldEvents(opening, all, { floor: !unsafeNoWatermarkFloor() });
  // The fold hands back the very objects it dropped.
  const dropped = new Set([...folded.late, ...folded.duplicates]);
  const events = all.filter((e) => !dropped.has(e));
  const state: JobState = {
    ...opening,
    seen: unsafeSkipForgetsSeen() ? opening.seen : folded.state.seen,
    watermark: folded.state.watermark,
  };
  const sequences = records.map((r) => r.dynamodb?.SequenceNumber ?? "").filter((s) => s !== "");
  return {
    state,
    skipped: {
      kind: "stream-job-batch-skipped",
      ...at,
      firstSequence: sequences[0] ?? "",
      lastSequence: sequences[sequences.length - 1] ?? "",
      records: records.length,
      ...failure,
      events,
    },
  };
}
