import type { JobState } from "./job-state";
import type { TaggedKey, TotalsSink } from "./totals-sink";

/** What a full flush did, for the job's log and the story's timeline. */
export interface FlushReport {
  rewritten: number;
  deleted: string[];
}

/**
 * FULL FLUSH (Part 8), after a restore and before any new output: every key the restored state holds is SET again
 * with the restored barrier's tag, then every key tagged at or after that barrier which the state does not hold is
 * deleted, since only a run the restore erased can have written it.
 */
export async function fullFlush(
  sink: TotalsSink,
  at: { shard: string; window: string },
  restored: JobState,
  written: readonly TaggedKey[],
): Promise<FlushReport> {
  const held = Object.entries(restored.totals);
  await sink.setTotals(at.shard, at.window, held, restored.checkpoint);
  const deleted = [...new Set(written.map((w) => w.key))].filter((key) => !(key in restored.totals));
  await sink.deleteTotals(at.shard, at.window, deleted);
  return { rewritten: held.length, deleted };
}
