/**
 * Test-only switches that remove a guard of Part 9, so that the drills can show the seed's counterfactuals. They
 * are read on every call, never set in AWS (the stacks set no such variable), and named UNSAFE on purpose.
 */

/** `pay_7:R2:1` instead of `pay_7:charge`: a PSP key per Region and attempt (Part 9, first counterfactual). */
export function unsafeRegionAttemptKey(): boolean {
  return process.env.EO_TEST_UNSAFE_REGION_ATTEMPT_KEY === "1";
}

/** A random outbox event id instead of `pay_7:SUCCEEDED` (Part 9, second counterfactual). */
export function unsafeRandomEventId(): boolean {
  return process.env.EO_TEST_UNSAFE_RANDOM_EVENT_ID === "1";
}
