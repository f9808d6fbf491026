import type { WindowCarry } from "./job-state";

/** One sink key as the flush reads it back from the tag index. */
export interface TaggedKey {
  /** The state key it holds (merchant and day). */
  key: string;
  tag: number;
}

/** A merchant's day as `GET /_local/totals/{merchant}` shows it: the sum of its windows' absolute totals. */
export interface DayTotal {
  day: string;
  total: number;
  /** The highest barrier tag among the day's writes. */
  tag: number;
}

/**
 * The stream job's idempotent sink (Part 8): absolute totals per (merchant, day, window, shard), each write tagged with
 * the last barrier the sink has passed, and a sparse index on the tag that lists the keys of open windows only.
 */
export interface TotalsSink {
  /** SET each key = its total, tag = `tag`, listed in the window's tag index. */
  setTotals(
    shard: string,
    window: string,
    totals: ReadonlyArray<[string, number]>,
    tag: number,
  ): Promise<void>;
  /** The window's keys tagged `tag` or later: what a run the restore erased may have written. */
  taggedSince(shard: string, window: string, tag: number): Promise<TaggedKey[]>;
  /** Deletes the window's sink items for these state keys. */
  deleteTotals(shard: string, window: string, keys: readonly string[]): Promise<void>;
  /** Saves what the next window opens with and takes the closed window's keys out of the tag index (unless cut short). */
  closeWindow(shard: string, window: string, carry: WindowCarry): Promise<void>;
  /** The carry of the latest window before `window`, if any. */
  carryBefore(shard: string, window: string): Promise<WindowCarry | undefined>;
  /** A merchant's totals by day. */
  totalsOf(merchant: string): Promise<DayTotal[]>;
  /** The counterfactual's outside dedup store: the ids it holds for a shard, and adding some. */
  outsideSeen(shard: string): Promise<Set<string>>;
  rememberOutside(shard: string, ids: readonly string[]): Promise<void>;
}
