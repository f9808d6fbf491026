import type { RegionRole } from "../config/switches";
import type { RegionControl } from "./region-control";

/**
 * The longest one delivery can run after the check that let it start: the relay's Lambda timeout (30 s, the
 * worker's is 20 s; stacks/handlers.ts). Tunable as DELIVERY_TIMEOUT_MS.
 */
export const DELIVERY_TIMEOUT_MS = 30_000;

/** What bounds a delivery started on a read of the authority: its run time, the read's age and the clock margin. */
export interface DeliveryTimes {
  deliveryTimeoutMs?: number;
  controlCacheMs: number;
  clockMarginMs?: number;
}

/**
 * Test-only: EO_TEST_UNSAFE_DRAIN_UNTIL_SWITCH=1 lets a drained Region start deliveries until `active_from`
 * itself, as before issue 40: one started just before runs on after the new Region's resume sweep has re-sent the
 * same event (a second receipt). Read on every call, never set in AWS.
 */
export const unsafeDrainUntilSwitch = (): boolean => process.env.EO_TEST_UNSAFE_DRAIN_UNTIL_SWITCH === "1";

/**
 * Test-only: EO_TEST_UNSAFE_RELAY_DROPS_UNREAD=1 answers "do not deliver" when the authority cannot be read, as
 * before issue 40: the relay returns success and its stream batch (and the refund catch-up in it) is dropped to
 * the sweep, minutes late. Read on every call, never set in AWS.
 */
export const unsafeRelayDropsUnread = (): boolean => process.env.EO_TEST_UNSAFE_RELAY_DROPS_UNREAD === "1";

/** The moment a drained Region stops starting deliveries: `active_from` less the longest delivery, the read's age and the clock margin. */
export function drainStopMs(activeFrom: number, t: DeliveryTimes): number {
  return (
    activeFrom - (t.deliveryTimeoutMs ?? DELIVERY_TIMEOUT_MS) - t.controlCacheMs - (t.clockMarginMs ?? 0)
  );
}

/**
 * Whether `c` lets `role`, which a planned failover drains, start a delivery at `now`: only one that has ended
 * before the new Region acts (and its resume sweep re-sends what is left) may start.
 */
export function mayDrainDeliver(
  c: RegionControl | undefined,
  role: RegionRole,
  now: number,
  t: DeliveryTimes,
): boolean {
  if (c?.drains !== role) return false;
  const from = c.active_from ?? 0;
  return now < (unsafeDrainUntilSwitch() ? from : drainStopMs(from, t));
}

/**
 * Test-only: EO_TEST_UNSAFE_TRUST_READ_FROM_THE_FUTURE=1 reuses a read of the authority stamped after now (the
 * clock stepped back) as if it were fresh, so a Region acts on a view from before the step (issue 42).
 */
export const unsafeTrustReadFromTheFuture = (): boolean =>
  process.env.EO_TEST_UNSAFE_TRUST_READ_FROM_THE_FUTURE === "1";
