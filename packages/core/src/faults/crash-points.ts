/**
 * The places between two writes or calls where a test may end an invocation (the `crash_at` fault), named so that
 * a generated schedule can pick one. Each name says what has already happened when the invocation dies.
 */
export const CRASH_POINTS = [
  "pay.after_claim",
  "pay.after_guard",
  "pay.after_psp",
  "pay.after_settle",
  "pay.after_completion",
  "cancel.after_psp",
  "webhook.after_apply",
  "relay.after_publish",
  "relay.after_delete",
  "worker.after_commit",
  "worker.after_send",
  "worker.after_sent_mark",
] as const;
export type CrashPoint = (typeof CRASH_POINTS)[number];

/** The `crash_at` fault's value for a point's name, or a TypeError that lists the points. */
export function crashPointIndex(name: unknown): number {
  const index = CRASH_POINTS.indexOf(name as CrashPoint);
  if (index < 0)
    throw new TypeError(
      `crash_at must name a crash point (${JSON.stringify(name)} is none): ${CRASH_POINTS.join(", ")}`,
    );
  return index;
}
