import { startDynamoDbLocal } from "@eo/local/emulators/dynamodb-local";
import { freePort } from "@eo/local/emulators/free-port";
import fc from "fast-check";
import { afterAll, beforeAll, it } from "vitest";
import { executeOp } from "../../src/differential/execute";
import { opsArb } from "../../src/differential/gen-ops";
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

it("timing", async () => {
  const t = dynamoLocalTarget(endpoint);
  const runs = fc.sample(opsArb(100), { numRuns: 40, seed: 3 });
  const per: Record<string, [number, number]> = {};
  const errs: Record<string, number> = {};
  const t0 = performance.now();
  let n = 0;
  for (const [r, ops] of runs.entries()) {
    const o = await t.open(`q${r}_`);
    for (const op of ops) {
      const s = performance.now();
      const out = await executeOp(o.client, `q${r}_`, op);
      const k = op.kind;
      per[k] ??= [0, 0];
      per[k][0]++; per[k][1] += performance.now() - s;
      n++;
      if ("error" in out && out.error.message.startsWith("Invalid attribute value type")) console.log(JSON.stringify(op.input).slice(0, 600));
      if ("error" in out) { const key = `${op.kind}: ${out.error.name}: ${out.error.message.slice(0, 90)}`; errs[key] = (errs[key] ?? 0) + 1; }
    }
    await o.close();
  }
  console.log(n, "ops", (performance.now() - t0).toFixed(0), "ms");
  console.log(Object.fromEntries(Object.entries(per).map(([k, [c, ms]]) => [k, `${c} ${(ms / c).toFixed(2)}ms`])));
  console.log(Object.entries(errs).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${v} ${k}`).join("\n"));
}, 600_000);
