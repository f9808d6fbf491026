import { startDynamoDbLocal } from "@eo/local/emulators/dynamodb-local";
import { freePort } from "@eo/local/emulators/free-port";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runDifferential } from "../../src/differential/runner";

let stop: () => Promise<void>;
let endpoint: string;
beforeAll(async () => {
  const port = await freePort();
  const p = await startDynamoDbLocal(port);
  stop = () => p.stop();
  endpoint = `http://127.0.0.1:${port}`;
});
afterAll(async () => stop?.());

it("model vs local", async () => {
  const r = await runDifferential({ seed: Number(process.env.SEED ?? 1), numRuns: Number(process.env.RUNS ?? 20), opsPerRun: Number(process.env.OPS ?? 100), dynamoLocalEndpoint: endpoint });
  console.log(JSON.stringify({ ...r, failure: r.failure && { ...r.failure.disagreement, ops: r.failure.recorded.ops, shrinks: r.failure.numShrinks } }, null, 1).slice(0, 8000));
  expect(r.failure).toBeUndefined();
}, 600_000);
