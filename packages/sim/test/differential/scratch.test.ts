import { startDynamoDbLocal } from "@eo/local/emulators/dynamodb-local";
import { freePort } from "@eo/local/emulators/free-port";
import { writeFileSync } from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { keptCaseOf } from "../../src/differential/kept-case";
import type { Disagreement } from "../../src/differential/play";
import { runDifferential } from "../../src/differential/runner";
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

const msg = (o: unknown) => (o as { error?: { message: string } })?.error?.message ?? "";
const KNOWN: [string, string][] = JSON.parse(process.env.KNOWN ?? "[]");
const skipOk = (d: Disagreement) => { const op = d.op; if (!op) return false; const u = String(op.input.UpdateExpression ?? ""); if (op.kind === "UpdateItem" && /REMOVE #n0\[/.test(u)) return true; if (op.kind === "Query" && op.input.TableName === "claims" && op.input.Limit) return true; return false; };
const tolerate = (d: Disagreement, _p: unknown) => skipOk(d) || KNOWN.some(([r, s]) => msg(d.reference).startsWith(r) && msg(d.subject).startsWith(s));

it("model vs local", async () => {
  const subject = process.env.SELF ? dynamoLocalTarget(endpoint, "second") : undefined;
  const r = await runDifferential({ seed: Number(process.env.SEED ?? 1), numRuns: Number(process.env.RUNS ?? 20), opsPerRun: Number(process.env.OPS ?? 100), dynamoLocalEndpoint: endpoint, tolerate, subject });
  console.log(JSON.stringify({ ...r, failure: r.failure && { ...r.failure.disagreement, ops: r.failure.recorded.ops, shrinks: r.failure.numShrinks } }, null, 1).slice(0, 8000));
  const kept = keptCaseOf(r, "x");
  if (kept) writeFileSync(`/tmp/diffscratch/case-${process.env.TAG ?? "last"}.json`, JSON.stringify(kept, null, 2));
  expect(r.failure).toBeUndefined();
}, 600_000);
