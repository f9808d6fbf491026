// Test-only switches of the failover command: each restores an answer that overstated what was done (issue 40,
// item 5). Read on every call, never set in AWS, named UNSAFE on purpose.

/** EO_TEST_UNSAFE_FAILOVER_SKIPPED_VERIFY_IS_DONE=1: a verify skipped for want of the PSP's secrets still ends "DONE, verified" (exit 0). */
export const unsafeSkippedVerifyIsDone = (): boolean =>
  process.env.EO_TEST_UNSAFE_FAILOVER_SKIPPED_VERIFY_IS_DONE === "1";

/** EO_TEST_UNSAFE_FAILOVER_RESUME_IGNORES_PASSIVE=1: a target job that answered `{passive: true}` counts as resumed. */
export const unsafeResumeIgnoresPassive = (): boolean =>
  process.env.EO_TEST_UNSAFE_FAILOVER_RESUME_IGNORES_PASSIVE === "1";

/** EO_TEST_UNSAFE_FAILOVER_VERIFY_PRESENCE_ONLY=1: a charge counts as verified when any row names it, whatever its state. */
export const unsafeVerifyPresenceOnly = (): boolean =>
  process.env.EO_TEST_UNSAFE_FAILOVER_VERIFY_PRESENCE_ONLY === "1";

/** EO_TEST_UNSAFE_FAILOVER_FENCE_NO_READ_BACK=1: a fence whose condition failed is "nothing was changed", unread. */
export const unsafeFenceNoReadBack = (): boolean =>
  process.env.EO_TEST_UNSAFE_FAILOVER_FENCE_NO_READ_BACK === "1";

/**
 * EO_TEST_UNSAFE_FORCE_IGNORED_WHEN_REACHABLE=1: `--force` is ignored when the old Region answers the operator (the
 * planned path runs, whose canary never arrives from a Region cut off from its peer), as before issue 40 item 4.
 */
export const unsafeForceIgnoredWhenReachable = (): boolean =>
  process.env.EO_TEST_UNSAFE_FORCE_IGNORED_WHEN_REACHABLE === "1";
