/**
 * The simulated runs `npm test` plays in the background (issue 42): the fault checker's schedules on one seed and
 * each `--unsafe` guard switch at the seed and index it is first caught at. They start with the suite at the lowest
 * CPU priority, so they take only the cores the emulator files leave idle (about half: those files wait on
 * deadlines, lags and pollers more than they compute), and the files in test/sim/background/ judge their reports.
 */
export interface PlannedRun {
  /** The report's file name (`<name>.json`) and the test that judges it. */
  name: string;
  /** `npm run sim`'s arguments (the plan adds `--out`). */
  args: string[];
  /** The run's environment beside the suite's (the PSP's dialect). */
  env?: Record<string, string>;
}

/**
 * The seed of the suite's schedules: fixed, so the suite plays the same schedules on every machine (its first 10,000
 * played clean: `npm run sim -- --seed 20261207 --runs 10000`). 1,000, not the 10,000: 10,000 cost about 30
 * core-minutes and took the suite past 30 minutes; 3,000 slowed the emulator files for 23 minutes and a timing
 * counterfactual that ran then missed its race (docs/fault-checker.md, "In `npm test`, in the background").
 */
export const SUITE_SEED = 20261207;
export const SUITE_SCHEDULES = 1_000;

/**
 * Each guard switch the simulation catches, with the seed, the nemesis and the PSP it was measured with, the index
 * it first fails at, and the failure the seed describes for it. A run is the same on every machine (byte for byte),
 * so `within` is the first failing index with a little room, not a hope. The guards no seed has caught yet
 * (trust-own-copy, worker-ignores-authority, no-resolver-recheck, rows-last-writer-wins, operator-clock-stamp, and
 * active-keeps-dead-letters outside its kept file) are in docs/fault-checker.md.
 */
export const GUARDS = [
  { guard: "no-durable-guard", seed: 4242, at: 1, failure: /nothing-unknown|one-charge-per/ },
  { guard: "random-event-id", seed: 4242, at: 2, failure: /credited-once/ },
  { guard: "new-key-per-retry", seed: 4242, at: 5, failure: /one-charge-per-order/ },
  { guard: "no-notification-record", seed: 4242, at: 8, failure: /alerts-bounded/ },
  { guard: "unconditional-completion", seed: 4242, at: 12, failure: /one-first-answer/ },
  { guard: "void-on-lagging-not-found", seed: 1, at: 4, failure: /answers-agree/, realWorld: true },
  {
    guard: "no-refund-mark",
    seed: 5,
    at: 39,
    failure: /no-state-backwards|no-lost-payment/,
    realWorld: true,
  },
  { guard: "no-refund-failed-notice", seed: 4242, at: 33, failure: /emails-bounded/, stripe: true },
  { guard: "no-refund-take-back", seed: 1, at: 5, failure: /credited-once/, stripe: true },
  { guard: "take-early-events", seed: 4242, at: 136, failure: /no-lost-payment/, stripe: true },
] as const;

export type GuardCase = (typeof GUARDS)[number];

/** How many schedules a guard's run plays: its first failing index with a quarter's room. */
export const guardWithin = (g: GuardCase): number => Math.ceil((g.at + 1) * 1.25) + 4;

/** The run that takes `g` away. */
export function guardRun(g: GuardCase): PlannedRun {
  const realWorld = "realWorld" in g || "stripe" in g;
  return {
    name: `guard-${g.guard}`,
    args: [
      ...["--seed", String(g.seed), "--runs", String(guardWithin(g)), "--unsafe", g.guard],
      ...["--parallel", "2", "--no-shrink"],
      ...(realWorld ? ["--regions", "2", "--nemesis", "real-world"] : []),
    ],
    env: "stripe" in g ? { PSP: "stripe" } : {},
  };
}

/**
 * The schedules the simulation found a resolve answering PROCESSING after SUCCEEDED with (a lookup that lagged after
 * one that found the charge), each replayed as found, with the kept finding (found-at-psp.ts) and without it.
 */
export const ANSWERS_TAKEN_BACK = [
  { seed: 99, index: 351 },
  { seed: 882501, index: 3470 },
] as const;

export type TakenBack = (typeof ANSWERS_TAKEN_BACK)[number];

/** Replays a schedule of `ANSWERS_TAKEN_BACK`, with its guard (`kept`) or without it. */
export function takenBackRun(f: TakenBack, kept: boolean): PlannedRun {
  return {
    name: `taken-back-${f.seed}-${f.index}${kept ? "" : "-forgot"}`,
    args: [
      ...[
        "--seed",
        String(f.seed),
        "--regions",
        "mixed",
        "--nemesis",
        "mixed",
        "--replay-index",
        String(f.index),
      ],
      ...(kept ? [] : ["--unsafe", "forget-psp-find"]),
    ],
  };
}

/** The whole plan, in the order it plays: the guards and the replays first (minutes), then the schedules. */
export const PLAN: PlannedRun[] = [
  ...GUARDS.map(guardRun),
  ...ANSWERS_TAKEN_BACK.flatMap((f) => [takenBackRun(f, true), takenBackRun(f, false)]),
  {
    name: "suite-schedules",
    args: ["--seed", String(SUITE_SEED), "--runs", String(SUITE_SCHEDULES), "--parallel", "2", "--no-shrink"],
  },
];
