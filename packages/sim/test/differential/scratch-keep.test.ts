import { startDynamoDbLocal } from "@eo/local/emulators/dynamodb-local";
import { freePort } from "@eo/local/emulators/free-port";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, it } from "vitest";
import { writeKeptCase } from "../../src/differential/kept-case";
import { recordRun } from "../../src/differential/runner";
import { dynamoLocalTarget } from "../../src/differential/targets";

let stop: () => Promise<void>;
let endpoint: string;
beforeAll(async () => {
  const port = await freePort();
  const p = await startDynamoDbLocal(port);
  stop = () => p.stop();
  endpoint = `http://127.0.0.1:${port}`;
});
afterAll(async () => stop?.());

it("keep", async () => {
  const cases = JSON.parse(readFileSync(process.env.CASES ?? "/tmp/diffscratch/to-keep.json", "utf8"));
  for (const [name, { title, ops }] of Object.entries(cases as Record<string, { title: string; ops: never[] }>)) {
    const run = await recordRun(dynamoLocalTarget(endpoint), ops);
    writeKeptCase(`packages/sim/test/differential/kept-cases/${name}.json`, {
      title,
      found: "differential corpus, seeds 1-4, model of 2026-12-06",
      ops,
      dynamoLocal: { replies: run.replies, tables: run.tables },
    });
  }
}, 600_000);
