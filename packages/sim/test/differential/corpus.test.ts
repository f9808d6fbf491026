import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { startDynamoDbLocal } from "@eo/local/emulators/dynamodb-local";
import { freePort } from "@eo/local/emulators/free-port";
import type { ManagedProcess } from "@eo/local/emulators/managed-process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keptCaseOf, loadKeptCases, writeKeptCase } from "../../src/differential/kept-case";
import { modelTarget } from "../../src/differential/model-target";
import type { Op } from "../../src/differential/op";
import { firstDisagreement } from "../../src/differential/play";
import { type DifferentialResult, recordRun, runDifferential } from "../../src/differential/runner";
import { dynamoLocalTarget } from "../../src/differential/targets";

/** The corpus's fixed seed; `EO_DIFF_SEED=<n> npm test -- packages/sim/test/differential` plays another. */
const DEFAULT_SEED = 4242;
const SEED = Number(process.env.EO_DIFF_SEED ?? DEFAULT_SEED);
/**
 * Runs of up to OPS_PER_RUN ops, about 45 on average: 230 runs played 10,412 ops for the default seed (measured,
 * 36 s with DynamoDB Local on both sides); 250 keep other seeds above 10,000 too, and a run's setup (three fresh
 * tables, a Scan of each) is paid once per ~45 ops.
 */
const RUNS = 250;
const OPS_PER_RUN = 100;
const KEPT = join(fileURLToPath(new URL(".", import.meta.url)), "kept-cases");

let local: ManagedProcess | undefined;
let endpoint = "";

beforeAll(async () => {
  const port = await freePort();
  local = await startDynamoDbLocal(port);
  endpoint = `http://127.0.0.1:${port}`;
});
afterAll(async () => local?.stop());

describe("differential corpus: the DynamoDB model against DynamoDB Local", () => {
  it("agrees with DynamoDB Local on every reply and on every table over at least 10,000 generated operations", async () => {
    // prepare / act
    const result = await runDifferential({
      seed: SEED,
      numRuns: RUNS,
      opsPerRun: OPS_PER_RUN,
      dynamoLocalEndpoint: endpoint,
    });
    const perSecond = Math.round(result.ops / (result.elapsedMs / 1000));
    console.log(
      `differential corpus: seed ${SEED}, ${result.ops} ops in ${result.runs} runs, ${perSecond} ops/s`,
    );
    keepIfAsked(result);

    // assess
    expect(report(result)).toBe("no disagreement");
    expect(result.ops).toBeGreaterThanOrEqual(10_000);
  }, 240_000);

  it("finds a disagreement when the model ignores every condition", async () => {
    // prepare: disagreements the switch does not cause (the honest model answers those ops alike) are passed over,
    // so that the model's other open cases cannot stand in for the one this test is about
    const unsafe = modelTarget({ conditionsIgnored: true });
    const causedBySwitch = async (played: Op[]) =>
      firstDisagreement(played, await recordRun(modelTarget(), played), await recordRun(unsafe, played)) !==
      undefined;

    // act: the same corpus against a model whose conditions always pass
    const result = await runDifferential({
      seed: SEED,
      numRuns: 50,
      opsPerRun: OPS_PER_RUN,
      dynamoLocalEndpoint: endpoint,
      subject: unsafe,
      tolerate: async (_d, played) => !(await causedBySwitch(played)),
    });

    // assess: it fails, on ops that the switch decides (the honest model answers them otherwise)
    expect(result.failure, "the corpus cannot tell a model that ignores conditions").toBeDefined();
    expect(await causedBySwitch(result.failure?.recorded.ops ?? [])).toBe(true);
    expect(JSON.stringify(result.failure?.disagreement.reference)).toMatch(/ConditionalCheckFailed/);
  }, 120_000);

  it("still gets from DynamoDB Local the answers each kept case recorded", async () => {
    // prepare
    const cases = loadKeptCases(KEPT);

    // act
    const stale: string[] = [];
    for (const { file, kept } of cases) {
      const run = await recordRun(dynamoLocalTarget(endpoint), kept.ops);
      if (
        !isDeepStrictEqual(run.replies, kept.dynamoLocal.replies) ||
        !isDeepStrictEqual(run.tables, kept.dynamoLocal.tables)
      )
        stale.push(file);
    }

    // assess
    expect(cases.length).toBeGreaterThan(0);
    expect(stale).toEqual([]);
  }, 60_000);
});

/** The disagreement in a form a failing assertion prints whole: the shrunk ops and both answers. */
function report(result: DifferentialResult): string {
  if (!result.failure) return "no disagreement";
  const { disagreement, recorded, numShrinks } = result.failure;
  return JSON.stringify({ seed: result.seed, numShrinks, disagreement, ops: recorded.ops }, null, 2);
}

/** With EO_DIFF_KEEP=<name>, a disagreement found is written to kept-cases/<name>.json (see the README). */
function keepIfAsked(result: DifferentialResult): void {
  const name = process.env.EO_DIFF_KEEP;
  const kept = name
    ? keptCaseOf(result, `found by seed ${result.seed}: describe the disagreement here`)
    : undefined;
  if (name && kept) writeKeptCase(join(KEPT, `${name}.json`), kept);
}
