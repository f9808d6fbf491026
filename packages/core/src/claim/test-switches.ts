/**
 * Test-only switches that take the claim's guards apart (Part 3), read from the environment on every call so
 * that a test can flip them. Never set them anywhere else: each one lets a request overrule another's claim.
 */
export interface ClaimUnsafeSwitches {
  /** EO_TEST_UNSAFE_UNCONDITIONAL_COMPLETION: Powertools' completion, without the owner check (trace 3c). */
  unconditionalCompletion: boolean;
  /** EO_TEST_UNSAFE_NO_TAKEOVER_MARGIN: a dead owner's claim may be taken the moment its lease ends (trace 3b). */
  noTakeoverMargin: boolean;
  /** EO_TEST_UNSAFE_TAKEOVER_WITHOUT_OWNER_CHECK: a takeover that does not check the owner it read. */
  takeoverWithoutOwnerCheck: boolean;
  /** EO_TEST_UNSAFE_UNCONDITIONAL_CLAIM_SWEEP: the MRSC sweep deletes what its scan found, renewed or not. */
  unconditionalClaimSweep: boolean;
}

/** The switches as the environment sets them now. */
export function claimSwitches(env: NodeJS.ProcessEnv = process.env): ClaimUnsafeSwitches {
  const on = (name: string) => env[name] === "1" || env[name] === "true";
  return {
    unconditionalCompletion: on("EO_TEST_UNSAFE_UNCONDITIONAL_COMPLETION"),
    noTakeoverMargin: on("EO_TEST_UNSAFE_NO_TAKEOVER_MARGIN"),
    takeoverWithoutOwnerCheck: on("EO_TEST_UNSAFE_TAKEOVER_WITHOUT_OWNER_CHECK"),
    unconditionalClaimSweep: on("EO_TEST_UNSAFE_UNCONDITIONAL_CLAIM_SWEEP"),
  };
}
