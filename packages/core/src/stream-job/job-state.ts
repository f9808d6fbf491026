/** How long an event id is remembered, in event time: a copy later than this is late, not a duplicate (Part 8). */
export const ACCEPTANCE_HORIZON_MS = 7_200_000;

/**
 * The stream job's checkpointed state for one shard and one window, as the event source mapping carries it between
 * invocations and commits it with the stream position (so a failed batch is retried with the last committed state).
 */
export interface JobState {
  /** The id of the checkpoint this state is; every sink write of the next invocation carries it as its barrier tag. */
  checkpoint: number;
  /** This window's totals, by totalKey(merchant, day), in minor units: absolute values, written with SET. */
  totals: Record<string, number>;
  /** Event ids seen, each with its event-time timer (event time + the horizon); kept in state, never outside. */
  seen: Record<string, number>;
  /** The largest event time read: saved, so that a restored job rejects late copies from it (the watermark floor). */
  watermark: number;
  /** Copies rejected as late in this window, for a batch recount. */
  late: number;
}

/** What one window hands the next (the mapping drops a window's state when it closes): an immutable carry. */
export interface WindowCarry {
  checkpoint: number;
  seen: Record<string, number>;
  watermark: number;
  /** The window it was written in; with `totals` when the 1 MB limit ended it early and it goes on afresh. */
  window?: string;
  totals?: Record<string, number>;
}

/** The state a window opens with: the previous window's carry, or nothing at the very start of a shard. */
export function openingState(carry: WindowCarry | undefined, window?: string): JobState {
  return {
    checkpoint: carry?.checkpoint ?? 1,
    // Only a window cut short goes on with totals: its sink keys hold them, and a SET must not lose them.
    totals: carry?.window === window ? { ...(carry?.totals ?? {}) } : {},
    seen: { ...(carry?.seen ?? {}) },
    watermark: carry?.watermark ?? 0,
    late: 0,
  };
}

/** Reads the state the mapping passed in: an empty object is a window's first invocation. */
export function stateFrom(raw: unknown): JobState | undefined {
  const s = raw as Partial<JobState> | undefined;
  if (!s || typeof s.checkpoint !== "number") return undefined;
  return {
    checkpoint: s.checkpoint,
    totals: s.totals ?? {},
    seen: s.seen ?? {},
    watermark: s.watermark ?? 0,
    late: s.late ?? 0,
  };
}

/** The state key of a merchant's day. */
export const totalKey = (merchant: string, day: string): string => `${merchant}|${day}`;

/** The merchant and day of a state key. */
export function splitTotalKey(key: string): { merchant: string; day: string } {
  const at = key.lastIndexOf("|");
  return { merchant: key.slice(0, at), day: key.slice(at + 1) };
}
