import fc from "fast-check";
import { executeOp } from "./execute";
import { opsArb } from "./gen-ops";
import { dropUnneeded } from "./minimize";
import { modelTarget } from "./model-target";
import type { Op, Outcome } from "./op";
import { type Disagreement, firstDisagreement, playAll, scanAll, type Tables } from "./play";
import { sameOutcome } from "./same-outcome";
import { dynamoLocalTarget, type Target } from "./targets";

export interface DifferentialOptions {
  seed: number;
  numRuns: number;
  /** The most ops one run plays on its fresh tables (runs average a little over half of it). */
  opsPerRun: number;
  dynamoLocalEndpoint: string;
  /** What is checked against DynamoDB Local: the in-memory model unless told otherwise. */
  subject?: Target;
  /**
   * Disagreements to pass over, given with the ops played up to it: for triage, the ones already kept as cases
   * (so a run can look for the next one while a known one is open), and for the counterfactual, those an unsafe
   * switch does not cause. A run that meets one ends there, inconclusive.
   */
  tolerate?: Tolerate;
}

/** A run's ops with what DynamoDB Local answered: the content of a kept case. */
export type Tolerate = (d: Disagreement, played: Op[]) => boolean | Promise<boolean>;

export interface RecordedRun {
  ops: Op[];
  replies: Outcome[];
  tables: Tables;
}

export interface DifferentialResult {
  seed: number;
  /** Runs and ops played against both targets, the shrinking's and the minimizing's included. */
  runs: number;
  ops: number;
  elapsedMs: number;
  /** The first disagreement, its op list shrunk by fast-check, replayed whole on fresh tables. */
  failure?: { disagreement: Disagreement; recorded: RecordedRun; numShrinks: number };
}

let runCounter = 0;
/** A table prefix no earlier run in this process used, so runs never see each other's items. */
const nextPrefix = () => `d${process.pid}x${runCounter++}_`;

/** Plays fast-check-generated op lists on DynamoDB Local and the subject, comparing every reply and the tables. */
export async function runDifferential(opts: DifferentialOptions): Promise<DifferentialResult> {
  const reference = dynamoLocalTarget(opts.dynamoLocalEndpoint);
  const subject = opts.subject ?? modelTarget();
  const counts = { runs: 0, ops: 0 };
  const started = performance.now();
  const details = await fc.check(
    fc.asyncProperty(opsArb(opts.opsPerRun), async (ops) => {
      counts.runs++;
      return (await compareLive(reference, subject, ops, counts, opts.tolerate)) === undefined;
    }),
    { seed: opts.seed, numRuns: opts.numRuns },
  );
  const result: DifferentialResult = { seed: opts.seed, runs: 0, ops: 0, elapsedMs: 0 };
  if (details.failed && details.counterexample) {
    const ops = await dropUnneeded(
      details.counterexample[0],
      async (fewer) => (await compareLive(reference, subject, fewer, counts, opts.tolerate)) !== undefined,
    );
    const recorded = await recordRun(reference, ops);
    const subjectRun = await recordRun(subject, ops);
    const disagreement = firstDisagreement(ops, recorded, subjectRun) ?? {
      at: "tables",
      reference: "agreed on replay",
      subject: "agreed on replay (the disagreement depends on more than the ops)",
    };
    result.failure = { disagreement, recorded, numShrinks: details.numShrinks };
  }
  return { ...result, ...counts, elapsedMs: performance.now() - started };
}

/** Plays the ops on both targets side by side on fresh tables; stops at the first reply that differs. */
async function compareLive(
  reference: Target,
  subject: Target,
  ops: Op[],
  counts: { ops: number },
  tolerate: Tolerate = () => false,
): Promise<Disagreement | undefined> {
  const prefix = nextPrefix();
  const [ref, sub] = await Promise.all([reference.open(prefix), subject.open(prefix)]);
  try {
    for (const [i, op] of ops.entries()) {
      counts.ops++;
      const [a, b] = await Promise.all([
        executeOp(ref.client, prefix, op),
        executeOp(sub.client, prefix, op),
      ]);
      const d = sameOutcome(a, b, op) ? undefined : { at: i, op, reference: a, subject: b };
      // a tolerated disagreement leaves the two histories apart: the run ends there, inconclusive
      if (d) return (await tolerate(d, ops.slice(0, i + 1))) ? undefined : d;
    }
    const [ta, tb] = await Promise.all([scanAll(ref.client, prefix), scanAll(sub.client, prefix)]);
    const d = firstDisagreement([], { replies: [], tables: ta }, { replies: [], tables: tb });
    return d && !(await tolerate(d, ops)) ? d : undefined;
  } finally {
    await Promise.all([ref.close(), sub.close()]);
  }
}

/** Plays the ops on one target's fresh tables and records every reply and the tables left behind. */
export async function recordRun(target: Target, ops: Op[]): Promise<RecordedRun> {
  const prefix = nextPrefix();
  const open = await target.open(prefix);
  try {
    const replies = await playAll(open.client, prefix, ops);
    return { ops, replies, tables: await scanAll(open.client, prefix) };
  } finally {
    await open.close();
  }
}
