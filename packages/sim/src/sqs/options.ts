import type { SimClock } from "../world/clock";

/** Timers in virtual time; when given, the model wakes itself at its next event (a visibility end, a wait's end). */
export interface ModelTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** How a model is built: its clock, where it lives, and how it makes ids (never from Math.random). */
export interface MessagingModelOptions {
  clock: SimClock;
  region?: string;
  account?: string;
  /** Message ids; by default a counter shaped like a UUID. */
  ids?: () => string;
  timers?: ModelTimers;
}

/** A message as a checker sees it, without touching its delivery state. */
export interface QueuedMessage {
  messageId: string;
  body: string;
  groupId?: string;
  dedupId?: string;
  receiveCount: number;
  state: "visible" | "in-flight" | "delayed";
}

/** A counter-based id shaped like a UUID (version 4 layout), so logs look like AWS's. */
export function counterIds(prefix = "0000"): () => string {
  let n = 0;
  return () => `${prefix}0000-0000-4000-8000-${(++n).toString(16).padStart(12, "0")}`;
}
