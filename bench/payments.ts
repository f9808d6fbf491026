// npm run bench:payments [-- --n 500 --concurrency 8]
// Runs N payments through the design and two baselines on one local stack, in one run, and prints
// DynamoDB calls and write units per payment and p50/p99 latency, as ratios to "no idempotency".
import { parseArgs } from "node:util";
import { documentClient, loadConfig } from "@eo/core";
import { mintToken } from "../packages/local/src/runtime/jwt";
import { startLocalStack } from "../packages/local/src/stack/start-stack";
import { front } from "./baseline-front";
import { noIdempotency, powertoolsOnly } from "./baselines";
import { DdbMeter } from "./ddb-meter";

const { values } = parseArgs({
  options: { n: { type: "string", default: "500" }, concurrency: { type: "string", default: "8" } },
});
const N = Number(values.n);
const C = Number(values.concurrency);

interface Result {
  name: string;
  calls: number;
  wcu: number;
  reported: number;
  p50: number;
  p99: number;
  errors: number;
}

async function drive(name: string, url: string, meter: DdbMeter, token: string): Promise<Result> {
  const body = JSON.stringify({
    order_id: "42",
    amount: 3000,
    currency: "USD",
    payment_method: "pm_1",
    merchant_id: "m1",
  });
  const send = async (i: number) => {
    const t = performance.now();
    const res = await fetch(`${url}/payments`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "idempotency-key": `bench-${name}-${i}-${Date.now()}`,
        "content-type": "application/json",
      },
      body,
    });
    await res.arrayBuffer();
    return { ms: performance.now() - t, ok: res.status === 201 };
  };
  for (let i = 0; i < 20; i++) await send(-i - 1);
  meter.reset();
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: C }, async () => {
      while (next < N) {
        const r = await send(next++);
        latencies.push(r.ms);
        if (!r.ok) errors += 1;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
  return {
    name,
    calls: meter.calls / N,
    wcu: meter.writeUnits / N,
    reported: meter.reportedUnits / N,
    p50: pct(0.5),
    p99: pct(0.99),
    errors,
  };
}

const stack = await startLocalStack({
  resolverEveryMs: 0,
  sweepsEveryMs: 0,
  asyncHalf: false,
  psp: { rateLimits: { perAccount: 1e6, perEndpoint: 1e6 } },
});
try {
  stack.psp.setWebhookUrl(undefined);
  const config = loadConfig();
  const token = await mintToken("bench-user", { expiresInS: 3600 });
  const designMeter = new DdbMeter();
  designMeter.attach(documentClient());
  const ptMeter = new DdbMeter();
  const noneMeter = new DdbMeter();
  const pt = await front(powertoolsOnly(config, ptMeter));
  const none = await front(noIdempotency(config, noneMeter));
  console.log(
    `bench:payments  N=${N} concurrency=${C}  (local stack: DynamoDB Local, fake PSP; happy path, webhooks off)`,
  );
  const results = [
    await drive("none", none.url, noneMeter, token),
    await drive("powertools-only", pt.url, ptMeter, token),
    await drive("design", stack.apiUrl, designMeter, token),
  ];
  const base = results[0] as Result;
  const r2 = (x: number, b: number) => (b > 0 ? `${(x / b).toFixed(2)}x` : "-");
  console.log(
    "variant           ddb calls/pay  WCU/pay (AWS rules)  WCU/pay (emulator)  p50 ms   p99 ms   errors",
  );
  for (const r of results) {
    console.log(
      `${r.name.padEnd(17)} ${r.calls.toFixed(2).padStart(6)} (${r2(r.calls, base.calls)})  ${r.wcu.toFixed(2).padStart(6)} (${r2(r.wcu, base.wcu)})     ${r.reported.toFixed(2).padStart(6)}            ${r.p50.toFixed(1).padStart(6)} (${r2(r.p50, base.p50)})  ${r.p99.toFixed(1).padStart(6)} (${r2(r.p99, base.p99)})  ${r.errors}`,
    );
  }
  console.log(
    "ratios are against 'none' measured in this same run; latency ratios involving transactions are DynamoDB Local's (it runs transactions one at a time).",
  );
  pt.server.close();
  none.server.close();
} finally {
  await stack.stop();
}
