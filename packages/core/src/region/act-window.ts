import type { Tunables } from "../config/config";

/**
 * What the SDK's own retries can add after a function's last check: three attempts with the standard strategy's
 * backoff (100 ms base, doubled) stay well under a second, rounded up.
 */
export const SDK_RETRY_MS = 1_000;

/**
 * The longest time an invocation can act on a read of the authority that has since changed: the oldest read a
 * job, relay or worker acts on (the control cache), plus the longest function timeout, plus the SDK's retries.
 * The failover lets the new Region act only once this much time has passed since it fenced the old one.
 */
export function actWindowMs(
  t: Pick<Tunables, "controlCacheMs" | "fenceCacheMs" | "functionTimeoutMs">,
): number {
  return Math.max(t.controlCacheMs, t.fenceCacheMs) + t.functionTimeoutMs + SDK_RETRY_MS;
}
/**
 * EO_TEST_UNSAFE_SWEEPS_ONE_CHECK=1 makes a sweep act on its one check at the start for its whole pass, as before
 * issue 40: a fence that arrives mid-pass does not stop it.
 */
export const unsafeSweepsOneCheck = (): boolean => process.env.EO_TEST_UNSAFE_SWEEPS_ONE_CHECK === "1";
