import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Op, Outcome } from "./op";
import { type Disagreement, firstDisagreement, type Tables } from "./play";
import { type DifferentialResult, recordRun } from "./runner";
import type { Target } from "./targets";

/**
 * A disagreement kept for good: the shrunk ops and what DynamoDB Local answered to each, with the tables it left.
 * Replaying it needs no DynamoDB Local; the corpus test also checks that Local still answers what was recorded.
 */
export interface KeptCase {
  title: string;
  /** Where it came from, e.g. "seed 42, model of 2026-12-06": enough to find the run again. */
  found: string;
  ops: Op[];
  dynamoLocal: { replies: Outcome[]; tables: Tables };
}

/** Reads every kept case of a folder (`*.json`), sorted by file name. */
export function loadKeptCases(dir: string): { file: string; kept: KeptCase }[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((file) => ({ file, kept: JSON.parse(readFileSync(join(dir, file), "utf8")) as KeptCase }));
}

/** Plays a kept case's ops on a target's fresh tables; answers where it departs from the recorded answers. */
export async function replayKeptCase(target: Target, kept: KeptCase): Promise<Disagreement | undefined> {
  const run = await recordRun(target, kept.ops);
  return firstDisagreement(kept.ops, kept.dynamoLocal, run);
}

/** Turns a runner's failure into a kept case; undefined when the run found none. */
export function keptCaseOf(result: DifferentialResult, title: string): KeptCase | undefined {
  if (!result.failure) return undefined;
  const { recorded } = result.failure;
  return {
    title,
    found: `seed ${result.seed}`,
    ops: recorded.ops,
    dynamoLocal: { replies: recorded.replies, tables: recorded.tables },
  };
}

/** Writes a kept case as pretty JSON (one file per case, named by the caller). */
export function writeKeptCase(path: string, kept: KeptCase): void {
  writeFileSync(path, `${JSON.stringify(kept, null, 2)}\n`);
}
