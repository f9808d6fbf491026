import fc from "fast-check";
import { isDeepStrictEqual } from "node:util";
import { executeOp } from "./execute";
import { opsArb } from "./gen-ops";
import { modelTarget } from "./model-target";
import type { Op, Outcome } from "./op";
import { type Disagreement, firstDisagreement, playAll, scanAll, type Tables } from "./play";
import { dynamoLocalTarget, type Target } from "./targets";

export interface DifferentialOptions {
  seed: number;
  numRuns: number;
  /** The most ops one run plays on its fresh tables (runs average a little over half of it). */
  opsPerRun: number;
  dynamoLocalEndpoint: string;
  /** What is checked against DynamoDB Local: the in-memory model unless told otherwise. */
  subject?: Target;
}

/** A run's ops with what DynamoDB Local answered: the content of a kept case. */
export interface RecordedRun {
  ops: Op[];
  replies: Outcome[];
  tables: Tables;
}

export interface DifferentialResult {
  seed: number;
  /** Runs and ops played against both targets, the shrinking's included. */
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
      return (await compareLive(reference, subject, ops, counts)) === undefined;
    }),
    { seed: opts.seed, numRuns: opts.numRuns },
  );
  const result: DifferentialResult = { seed: opts.seed, ...counts, elapsedMs: 0 };
  if (details.failed && details.counterexample) {
    const [ops] = details.counterexample;
    const recorded = await recordRun(reference, ops);
    const subjectRun = await recordRun(subject, ops);
    const disagreement = firstDisagreement(ops, recorded, subjectRun) ?? {
      at: "tables",
      reference: "agreed on replay",
      subject: "agreed on replay (the disagreement depends on more than the ops)",
    };
    result.failure = { disagreement, recorded, numShrinks: details.numShrinks };
  }
  result.elapsedMs = performance.now() - started;
  return result;
}

/** Plays the ops on both targets side by side on fresh tables; stops at the first reply that differs. */
async function compareLive(
  reference: Target,
  subject: Target,
  ops: Op[],
  counts: { ops: number },
): Promise<Disagreement | undefined> {
  const prefix = nextPrefix();
  const [ref, sub] = await Promise.all([reference.open(prefix), subject.open(prefix)]);
  try {
    for (const [i, op] of ops.entries()) {
      counts.ops++;
      const [a, b] = await Promise.all([executeOp(ref.client, prefix, op), executeOp(sub.client, prefix, op)]);
      if (!isDeepStrictEqual(a, b)) return { at: i, op, reference: a, subject: b };
    }
    const [ta, tb] = await Promise.all([scanAll(ref.client, prefix), scanAll(sub.client, prefix)]);
    return firstDisagreement([], { replies: [], tables: ta }, { replies: [], tables: tb });
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
