import { crashIfArmed } from "../inbox/injected-crash";
import { foldEvents } from "./fold-events";
import { type FlushReport, fullFlush } from "./full-flush";
import { type JobRecord, jobEventsOf } from "./job-input";
import { type JobState, openingState, stateFrom } from "./job-state";
import {
  unsafeDedupOutsideState,
  unsafeNoFullFlush,
  unsafeNoWatermarkFloor,
} from "./stream-job-test-switches";
import type { TotalsSink } from "./totals-sink";

/** One invocation of the job as the mapping makes it: a shard's window, its records and the committed state. */
export interface StreamJobInput {
  shard: string;
  /** The window's start (ISO time), the same for every invocation of the window. */
  window: string;
  records: readonly JobRecord[];
  /** The state the mapping committed last for this window ({} on its first invocation). */
  state: unknown;
  /** The window's last invocation: its state is dropped afterwards, so what the next window needs is carried. */
  final: boolean;
  /** The 1 MB state limit ended the window early: the same window goes on with a fresh state. */
  cutShort?: boolean;
}

/** What an invocation came to: the state to commit with the stream position, and what it did. */
export interface StreamJobResult {
  state: JobState | Record<string, never>;
  counted: number;
  duplicates: number;
  late: number;
  flushed?: FlushReport;
}

/**
 * Runs one invocation of the merchants' daily totals job: exactly-once state (the mapping's, restored on a retry),
 * an absolute sink tagged by barrier, and a full flush when the sink shows that a restore erased a run (Part 8).
 */
export async function runStreamJob(sink: TotalsSink, input: StreamJobInput): Promise<StreamJobResult> {
  const at = { shard: input.shard, window: input.window };
  const state =
    stateFrom(input.state) ?? openingState(await sink.carryBefore(at.shard, at.window), at.window);
  // Keys tagged with this state's barrier or later were written by a run after it: that run was erased.
  const written = await sink.taggedSince(at.shard, at.window, state.checkpoint);
  const flushed =
    written.length > 0 && !unsafeNoFullFlush() ? await fullFlush(sink, at, state, written) : undefined;
  const outside = unsafeDedupOutsideState() ? await sink.outsideSeen(at.shard) : undefined;
  const events = jobEventsOf(input.records);
  const folded = foldEvents(state, events, { floor: !unsafeNoWatermarkFloor(), outsideSeen: outside });
  const totals = folded.touched.map((k): [string, number] => [k, folded.state.totals[k] ?? 0]);
  await sink.setTotals(at.shard, at.window, totals, state.checkpoint);
  if (outside) await sink.rememberOutside(at.shard, [...outside]);
  // "After the sink": a batch that wrote nothing (a PENDING row) has not reached that point.
  if (totals.length > 0) crashIfArmed("stream_job_crash_after_sink");
  const next: JobState = { ...folded.state, checkpoint: state.checkpoint + 1 };
  const closes = input.final || input.cutShort === true;
  if (closes) await sink.closeWindow(at.shard, at.window, carryOf(next, at.window, input.cutShort === true));
  return {
    state: closes ? {} : next,
    counted: events.length - folded.late.length - folded.duplicates.length,
    duplicates: folded.duplicates.length,
    late: folded.late.length,
    ...(flushed ? { flushed } : {}),
  };
}

function carryOf(state: JobState, window: string, cutShort: boolean) {
  const carry = { checkpoint: state.checkpoint, seen: state.seen, watermark: state.watermark };
  return cutShort ? { ...carry, window, totals: state.totals } : carry;
}
