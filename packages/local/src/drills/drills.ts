import type { LocalStack, StackOptions } from "../stack/start-stack";
import { type DrillResult, drillF } from "./drill-f";
import { drillF2 } from "./drill-f2";
import { drillStaleRegion } from "./drill-stale-region";

/** One runnable drill: the stack it needs and how it runs. */
export interface Drill {
  description: string;
  /** Whether the seed's count is what this drill should end with (a counterfactual should not). */
  seedCount: boolean;
  stack: StackOptions;
  run(stack: LocalStack, print?: (line: string) => void): Promise<DrillResult>;
}

const twoRegions: StackOptions = {
  standby: true,
  replicationLagMs: 1_000,
  resolverEveryMs: 0,
  sweepsEveryMs: 0,
};

/** The drills of Part 9 and their counterfactuals, by the name `npm run drill -- <name>` takes. */
export const DRILLS: Record<string, Drill> = {
  F: {
    description: "a Region fails in the middle of replication; failover; the phone retries in R2",
    seedCount: true,
    stack: twoRegions,
    run: (s, p) => drillF(s, "main", p),
  },
  "F-attempt-key": {
    description: "counterfactual of F: R2 replays with a per-Region attempt key (pay_7:R2:1)",
    seedCount: false,
    stack: { ...twoRegions, standbyEnv: { EO_TEST_UNSAFE_REGION_ATTEMPT_KEY: "1" } },
    run: (s, p) => drillF(s, "region-attempt-key", p),
  },
  "F-random-event-id": {
    description: "counterfactual of F: R1's outbox row carries a random event id",
    seedCount: false,
    stack: twoRegions,
    run: (s, p) => drillF(s, "random-event-id", p),
  },
  F3: {
    description:
      "the old Region dies after its durable guard, is failed over away from, and comes back by itself; nobody runs the failover again",
    seedCount: true,
    stack: twoRegions,
    run: (s, p) => drillStaleRegion(s, "F3", "authority", p),
  },
  "F3-own-copy": {
    description: "counterfactual of F3: each Region trusts its own copy of the control, not the authority",
    seedCount: false,
    stack: { ...twoRegions, standbyEnv: { EO_TEST_UNSAFE_TRUST_OWN_COPY: "1" } },
    run: (s, p) => drillStaleRegion(s, "F3", "own-copy", p),
  },
  F4: {
    description:
      "the old Region is partitioned (it runs, but reaches neither the authority nor the other Region)",
    seedCount: true,
    stack: twoRegions,
    run: (s, p) => drillStaleRegion(s, "F4", "authority", p),
  },
  "F4-operator-reaches": {
    description:
      "F4 in AWS's shape of a partition: the old Region is cut off from its peer and the authority, but the operator still reaches it; the failover is forced",
    seedCount: true,
    stack: twoRegions,
    run: (s, p) => drillStaleRegion(s, "F4-operator-reaches", "authority", p),
  },
  "F4-own-copy": {
    description: "counterfactual of F4: each Region trusts its own copy of the control, not the authority",
    seedCount: false,
    stack: { ...twoRegions, standbyEnv: { EO_TEST_UNSAFE_TRUST_OWN_COPY: "1" } },
    run: (s, p) => drillStaleRegion(s, "F4", "own-copy", p),
  },
  F2: {
    description: "two Regions see the same key within the lag; one home Region",
    seedCount: true,
    stack: twoRegions,
    run: (s, p) => drillF2(s, "home", p),
  },
  "F2-mrsc": {
    description:
      "F2 with both Regions active, but claims in one multi-Region strongly consistent (MRSC) store",
    seedCount: true,
    stack: { ...twoRegions, claimMode: "mrsc", standbyEnv: { EO_TEST_UNSAFE_TRUST_OWN_COPY: "1" } },
    run: (s, p) => drillF2(s, "both-active-mrsc", p),
  },
  "F2-both-active": {
    description: "counterfactual of F2: both Regions active on an MREC claim table",
    seedCount: false,
    stack: {
      ...twoRegions,
      unsafeReplicateClaims: true,
      standbyEnv: { EO_TEST_UNSAFE_TRUST_OWN_COPY: "1" },
    },
    run: (s, p) => drillF2(s, "both-active-mrec", p),
  },
};
