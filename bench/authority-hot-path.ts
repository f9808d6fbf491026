// npm run bench:hot-path [-- --n 20 --rtt-ms 0,15,70 --psp-ms 400 --gap-ms 300]
// The authority on the request path (issue 40, item 8), on one local stack in one run: reads of the authority per
// request and what they add to its latency, for a payment whose PSP answers in --psp-ms and for the void of an
// unknown key, with the shipped request view (one read per request) against the read per check it replaced (the
// baseline, EO_TEST_UNSAFE_AUTHORITY_READ_PER_CHECK=1), under a model of MRSC's latency.
//
// The model: AWS publishes no millisecond figure for an MRSC table. It says a write and a strongly consistent read
// "require cross-Region communication", that MRSC has "higher write and strongly consistent read latencies" than
// MREC, and that the added latency follows the round trip to the nearest other Region of the set, while an eventually
// consistent read adds nothing (docs.aws.amazon.com/amazondynamodb/latest/developerguide/V2globaltables_HowItWorks.html;
// docs.aws.amazon.com/prescriptive-guidance/latest/dynamodb-global-tables/overview.html). So each read here costs one
// round trip (--rtt-ms, added on the Region's authority link) on top of DynamoDB Local's own. The round trips are
// assumptions to replace with your Region pair's, measured for example with awslabs/amazon-dynamodb-tools' tester.
import { parseArgs } from "node:util";
import { loadTunables } from "@eo/core";
import { mintToken } from "../packages/local/src/runtime/jwt";
import { type LocalStack, startLocalStack } from "../packages/local/src/stack/start-stack";

const { values } = parseArgs({
  options: {
    n: { type: "string", default: "20" },
    "rtt-ms": { type: "string", default: "0,15,70" },
    "psp-ms": { type: "string", default: "400" },
    "gap-ms": { type: "string", default: "300" },
  },
});
const N = count("n", values.n);
const RTTS = String(values["rtt-ms"])
  .split(",")
  .map((v) => count("rtt-ms", v, true));
const PSP_MS = count("psp-ms", values["psp-ms"], true);
const GAP_MS = count("gap-ms", values["gap-ms"], true);
const SWITCH = "EO_TEST_UNSAFE_AUTHORITY_READ_PER_CHECK";

function count(name: string, raw: string | undefined, zeroOk = false): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < (zeroOk ? 0 : 1))
    throw new Error(`--${name} ${raw}: must be a whole number`);
  return n;
}

interface Cell {
  reads: number;
  p50: number;
  p99: number;
  wrong: number;
}

type Path = "pay" | "void";

/** Sends one request of the path with a new key; answers whether it got the path's answer. */
async function once(stack: LocalStack, path: Path, token: string, i: number): Promise<boolean> {
  const key = `hot-path-${path}-${i}-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const headers = {
    authorization: `Bearer ${token}`,
    "idempotency-key": key,
    "content-type": "application/json",
  };
  if (path === "pay") {
    await local(stack, "POST", "/faults", { psp_delay_ms: PSP_MS, n: 1 });
    const body = {
      order_id: `hp-${i}`,
      amount: 3000,
      currency: "USD",
      payment_method: "pm_1",
      merchant_id: "m1",
    };
    const res = await fetch(`${stack.apiUrl}/payments`, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
    });
    await res.arrayBuffer();
    return res.status === 201;
  }
  const res = await fetch(`${stack.apiUrl}/payments/resolve`, { method: "POST", headers });
  const answer = (await res.json()) as { state?: string };
  return answer.state === "VOID";
}

async function local(stack: LocalStack, method: string, path: string, body?: unknown): Promise<void> {
  const res = await fetch(`${stack.apiUrl}/_local${path}`, {
    method,
    headers: { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  await res.arrayBuffer();
}

/**
 * One warm container at a time, a request every --gap-ms after the last answer: past the fence cache, so each
 * request meets no read to reuse (a container with fewer calls than that reads on each one).
 */
async function measure(stack: LocalStack, path: Path, token: string): Promise<Cell> {
  const ms: number[] = [];
  let wrong = 0;
  const before = stack.authority.reads("primary");
  for (let i = 0; i < N; i++) {
    await new Promise((r) => setTimeout(r, GAP_MS));
    const t = performance.now();
    const right = await once(stack, path, token, i);
    ms.push(performance.now() - t);
    if (!right) wrong += 1;
  }
  ms.sort((a, b) => a - b);
  const pct = (p: number) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))] ?? 0;
  return { reads: (stack.authority.reads("primary") - before) / N, p50: pct(0.5), p99: pct(0.99), wrong };
}

const stack = await startLocalStack({
  resolverEveryMs: 0,
  sweepsEveryMs: 0,
  asyncHalf: false,
  standby: false,
  psp: { rateLimits: { perAccount: 1e6, perEndpoint: 1e6 } },
});
try {
  stack.psp.setWebhookUrl(undefined);
  const token = await mintToken("bench-hot-path", { expiresInS: 3600 });
  const t = loadTunables();
  const results: Array<{ rtt: number; path: Path; design: Cell; baseline: Cell }> = [];
  for (const rtt of RTTS) {
    stack.authority.setLatencyMs(rtt);
    for (const path of ["pay", "void"] as const) {
      process.env[SWITCH] = "1";
      const baseline = await measure(stack, path, token);
      delete process.env[SWITCH];
      const design = await measure(stack, path, token);
      results.push({ rtt, path, design, baseline });
      process.stderr.write(`  rtt ${rtt} ms, ${path}: done\n`);
    }
  }
  report(results, t);
} finally {
  delete process.env[SWITCH];
  await stack.stop();
}

function report(
  results: Array<{ rtt: number; path: Path; design: Cell; baseline: Cell }>,
  t: ReturnType<typeof loadTunables>,
): void {
  const f = (v: number) => v.toFixed(1).padStart(7);
  const x = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}x` : "-").padStart(7);
  console.log(
    `npm run bench:hot-path -- --n ${N} --rtt-ms ${RTTS.join(",")} --psp-ms ${PSP_MS} --gap-ms ${GAP_MS}   (local stack, one Region, a request at a time)`,
  );
  console.log(
    `${"model rtt".padEnd(10)}${"path".padEnd(6)}${"reads/req".padStart(10)}${"baseline".padStart(9)}${"ratio".padStart(7)}${"p50 ms".padStart(9)}${"baseline".padStart(9)}${"ratio".padStart(7)}${"p99 ms".padStart(9)}${"baseline".padStart(9)}${"+p50 vs rtt 0".padStart(15)}${"wrong".padStart(7)}`,
  );
  for (const r of results) {
    const zero = results.find((z) => z.rtt === 0 && z.path === r.path);
    const added = zero
      ? `${f(r.design.p50 - zero.design.p50)} / ${(r.baseline.p50 - zero.baseline.p50).toFixed(1)}`
      : "-";
    console.log(
      `${`${r.rtt} ms`.padEnd(10)}${r.path.padEnd(6)}${r.design.reads.toFixed(2).padStart(10)}${r.baseline.reads.toFixed(2).padStart(9)}${x(r.design.reads, r.baseline.reads)}${f(r.design.p50)}  ${f(r.baseline.p50)}${x(r.design.p50, r.baseline.p50)}${f(r.design.p99)}  ${f(r.baseline.p99)}${added.padStart(15)}${String(r.design.wrong + r.baseline.wrong).padStart(7)}`,
    );
  }
  const budget = Math.min(t.authorityReadMs, Math.max(500, t.deadlineMs / 2));
  console.log(
    `  baseline: a read per check (the fence cache ${t.fenceCacheMs} ms, a fresh read for a void's epoch); ratios are design / baseline in this run.`,
  );
  console.log(
    `  "+p50 vs rtt 0": what the modelled round trips add to the median, design / baseline; "wrong": requests without the path's answer (201, VOID).`,
  );
  console.log(
    `  the read's bound: ${budget} ms of a ${t.deadlineMs} ms deadline (half of what is left, at most REGION_AUTHORITY_READ_MS=${t.authorityReadMs}); past it the request is a 503 region-passive and writes nothing.`,
  );
}
