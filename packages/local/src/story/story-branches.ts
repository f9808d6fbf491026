import type { StackOptions } from "../stack/start-stack";
import { conditionOnTheLocator, versionsFromOneCounter } from "./scenes-devices";
import { crashedAfterCharge, crashedAfterClaim, pausedOwner } from "./scenes-owners";
import { keyWithAnotherMeaning, readyMeansNotified } from "./scenes-repeats";
import type { StoryCount } from "./story-count";
import type { StoryScene } from "./story-scenes";

/** A branch of the story: the main line played with one guard taken away, and the failure the seed says it shows. */
export interface StoryBranch {
  description: string;
  /** The test-only switches that take the guard away (the primary Region runs in the story's process). */
  env: Record<string, string>;
  /** The seed's failure, in words. */
  failure: string;
  /** Whether the count shows that failure. */
  shows: (c: StoryCount) => boolean;
}

/** The branches `npm run story -- --branch <name>` plays on the main line. */
export const STORY_BRANCHES: Record<string, StoryBranch> = {
  X: {
    description: "no durable guard: the buyer's return after two hours looks new (Part 4)",
    env: { EO_TEST_UNSAFE_NO_DURABLE_GUARD: "1" },
    failure: "two charges for one order, both told succeeded",
    shows: (c) => c.orderCharges === 2,
  },
  N: {
    description: "no notification record and no replace id: the worker's redelivery pushes again (Part 7)",
    env: { EO_TEST_UNSAFE_NO_NOTIFICATION_RECORD: "1", EO_TEST_UNSAFE_NO_REPLACE_ID: "1" },
    failure: "two notifications stacked on the phone",
    shows: (c) => c.onScreen >= 2,
  },
  S: {
    description: "the stream job restores without the full flush (Part 8)",
    env: { EO_TEST_UNSAFE_NO_FULL_FLUSH: "1" },
    failure: "m2 = 500 stays in the sink for ever",
    shows: (c) => c.m2Total === 500,
  },
};

/** The branches that are scenes of their own, each played with its guard and then with its switch. */
export const STORY_SCENES: Record<string, StoryScene> = {
  "3a": crashedAfterClaim,
  "3b": crashedAfterCharge,
  "3c": pausedOwner,
  "3d": keyWithAnotherMeaning,
  R: readyMeansNotified,
  V: versionsFromOneCounter,
  M: conditionOnTheLocator,
};

/** The Region drills the story's branches F and F2 are (Part 9), by the name `npm run drill` knows them. */
export const DRILL_BRANCHES: Record<string, string> = { F: "F", F2: "F2" };

/** The story's stack: both Regions, the seed's 1 s lag, its jobs run by the story itself. */
export const STORY_STACK: StackOptions = {
  standby: true,
  replicationLagMs: 1_000,
  resolverEveryMs: 0,
  sweepsEveryMs: 0,
};
