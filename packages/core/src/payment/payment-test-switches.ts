import { takeFault } from "../faults/faults";

/**
 * EO_TEST_UNSAFE_NO_DEADLINE_CHECK=1 removes the check that a request which stalled after its claim
 * commits nothing past its deadline; tests use it to show the late row it would leave (Part 4).
 */
export const unsafeNoDeadlineCheck = (): boolean => process.env.EO_TEST_UNSAFE_NO_DEADLINE_CHECK === "1";

/** The `stall_after_claim_ms` fault: the claimed request freezes (a GC pause, a paused VM) before its guard. */
export async function stallIfArmed(): Promise<void> {
  const ms = takeFault("stall_after_claim_ms");
  if (ms !== undefined && ms > 0) await new Promise((r) => setTimeout(r, ms));
}
