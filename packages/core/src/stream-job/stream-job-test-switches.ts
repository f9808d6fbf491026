/**
 * Test-only switches of the stream job, read on every call, never set in AWS, named UNSAFE on purpose: each removes
 * one guard of Part 8 so that a test can show the failure the seed describes.
 */

import { peekFault } from "../faults/faults";

/**
 * EO_TEST_UNSAFE_STREAM_JOB_V1=1 is the job's buggy v1: it counts a declined payment (branch S's m2 = 500). With
 * `until-crash`, v1 runs only while `stream_job_crash_after_sink` is armed: the run that crashes is v1's, and the
 * restore runs v2, as in the seed's trace.
 */
export const unsafeCountDeclined = (): boolean => {
  const v1 = process.env.EO_TEST_UNSAFE_STREAM_JOB_V1;
  return v1 === "1" || (v1 === "until-crash" && peekFault("stream_job_crash_after_sink") !== undefined);
};

/** EO_TEST_UNSAFE_NO_FULL_FLUSH=1 restores without the full flush (branch S: a wrong total stays for ever). */
export const unsafeNoFullFlush = (): boolean => process.env.EO_TEST_UNSAFE_NO_FULL_FLUSH === "1";

/**
 * EO_TEST_UNSAFE_DEDUP_OUTSIDE_STATE=1 keeps the seen ids in an outside store that a restore does not rewind: the
 * replay of an event is then dropped as a duplicate, and the restore under-bills.
 */
export const unsafeDedupOutsideState = (): boolean => process.env.EO_TEST_UNSAFE_DEDUP_OUTSIDE_STATE === "1";

/** EO_TEST_UNSAFE_NO_WATERMARK_FLOOR=1 judges lateness by the live watermark alone, which a restore starts afresh. */
export const unsafeNoWatermarkFloor = (): boolean => process.env.EO_TEST_UNSAFE_NO_WATERMARK_FLOOR === "1";

/**
 * EO_TEST_UNSAFE_SKIP_FORGETS_SEEN=1 gives a batch up without marking its events seen: a later copy of one is then
 * counted by the job as well as by the recompute command (twice).
 */
export const unsafeSkipForgetsSeen = (): boolean => process.env.EO_TEST_UNSAFE_SKIP_FORGETS_SEEN === "1";

/**
 * EO_TEST_UNSAFE_JOB_FAILS_BATCH=1 is the shared mapping without the job's own failure accounting: a job failure
 * fails the whole invocation, so the relay's events wait for the job (the mapping retries until it succeeds).
 */
export const unsafeJobFailsBatch = (): boolean => process.env.EO_TEST_UNSAFE_JOB_FAILS_BATCH === "1";
