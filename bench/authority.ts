// npm run bench:authority [-- --n 2000 --rate 50 --seconds 10]
// What one read of the Region authority adds to a request, in one run on DynamoDB Local (loopback, in memory):
// the cheapest read a request makes (a strongly consistent GetItem of a ledger item) as the baseline, one uncached
// authority read (what a cache miss costs), and the gate as the request path and the jobs use it, with the shipped
// caches, at an open-loop rate for a bounded time. Prints ratios to the baseline and the reads and read units per
// warm container that the caches imply.
import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import {
  activeRegion,
  CONTROL_KEY,
  DynamoRegionControlStore,
  loadTunables,
  type PaymentRow,
  paymentKey,
  type RegionControlStore,
} from "@eo/core";
import { startDynamoDbLocal } from "../packages/local/src/emulators/dynamodb-local";
import { freePort } from "../packages/local/src/emulators/free-port";
import { stopAllServices } from "../packages/local/src/emulators/managed-process";
import {
  authorityRegion,
  CONTROL_TABLE,
  createControlTables,
} from "../packages/local/src/region/control-table";
import { createTables } from "../packages/local/src/stack/create-resources";
import { LOCAL_CREDENTIALS, localRegions } from "../packages/local/src/stack/regions";
import { itemBytes, readUnits } from "./cost/billing-rules";

const { values } = parseArgs({
  options: {
    n: { type: "string", default: "2000" },
    rate: { type: "string", default: "50" },
    seconds: { type: "string", default: "10" },
  },
});
const N = positive("n", values.n);
const RATE = positive("rate", values.rate);
const SECONDS = positive("seconds", values.seconds);
const WARM_UP = 200;
/** The on-demand price of docs/cost.md (us-east-1): dollars per million read request units. */
const USD_PER_MILLION_READS = 0.125;

function positive(name: string, raw: string | undefined): number {
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} ${raw}: must be a positive number`);
  return n;
}

interface Stats {
  p50: number;
  p99: number;
  mean: number;
}

function stats(ms: number[]): Stats {
  const s = [...ms].sort((a, b) => a - b);
  const pct = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0;
  return { p50: pct(0.5), p99: pct(0.99), mean: s.reduce((a, b) => a + b, 0) / Math.max(1, s.length) };
}

async function timed(call: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await call();
  return performance.now() - t;
}

/**
 * The baseline and the uncached read, one call at a time and interleaved (the order alternating), so that both see
 * the same machine: on a shared one a slow second falls on both rather than on whichever ran then.
 */
async function pair(a: () => Promise<unknown>, b: () => Promise<unknown>, n: number) {
  const out = { a: [] as number[], b: [] as number[] };
  for (let i = 0; i < n; i++) {
    if (i % 2 === 0) {
      out.a.push(await timed(a));
      out.b.push(await timed(b));
    } else {
      out.b.push(await timed(b));
      out.a.push(await timed(a));
    }
  }
  return out;
}

interface GateRun {
  calls: number;
  reads: number;
  overlapping: number;
  /** The reads the gate made, timed on the store. */
  readMs: Stats;
  expectedReads: number;
  errors: number;
  added: Stats;
  /** The latest a call started after its due time (the load generator's own lag). */
  maxLagMs: number;
}

/**
 * Calls `call` at `rate` a second for `seconds`, open loop (each call starts on time whether or not the ones
 * before have answered), and answers each call's own duration: what the gate adds to the request that makes it.
 */
async function openLoop(
  call: () => Promise<unknown>,
  counter: { reads: () => number; overlapping: () => number; readMs: () => number[] },
  cacheMs: number,
): Promise<GateRun> {
  const total = Math.round(RATE * SECONDS);
  const periodMs = 1000 / RATE;
  const added: number[] = [];
  const pending: Promise<void>[] = [];
  let errors = 0;
  let maxLagMs = 0;
  const start = performance.now();
  for (let i = 0; i < total; i++) {
    const due = start + i * periodMs;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    maxLagMs = Math.max(maxLagMs, performance.now() - due);
    pending.push(
      timed(call).then(
        (ms) => void added.push(ms),
        () => {
          errors += 1;
        },
      ),
    );
  }
  await Promise.all(pending);
  // A read is reused while it is at most cacheMs old: the first call after that reads again, so one read serves
  // floor(cacheMs / period) + 1 arrivals, the first call of all included.
  const perRead = Math.floor(cacheMs / periodMs) + 1;
  return {
    calls: total,
    reads: counter.reads(),
    overlapping: counter.overlapping(),
    readMs: stats(counter.readMs()),
    expectedReads: Math.ceil(total / perRead),
    errors,
    added: stats(added),
    maxLagMs,
  };
}

/**
 * The authority store with its reads counted: each one is a GetItem on the control table. `overlapping` counts the
 * reads that started while another was in flight (the gate does not share a read in flight between its callers).
 */
function counted(store: RegionControlStore) {
  let reads = 0;
  let inFlight = 0;
  let overlapping = 0;
  const readMs: number[] = [];
  const read = async () => {
    reads += 1;
    if (inFlight > 0) overlapping += 1;
    inFlight += 1;
    const t = performance.now();
    try {
      return await store.read();
    } finally {
      inFlight -= 1;
      readMs.push(performance.now() - t);
    }
  };
  return {
    store: { read, write: store.write.bind(store) } satisfies RegionControlStore,
    reads: () => reads,
    overlapping: () => overlapping,
    readMs: () => readMs,
  };
}

async function main(): Promise<void> {
  const tunables = loadTunables();
  const port = await freePort();
  const ddbLocal = await startDynamoDbLocal(port);
  const endpoint = `http://127.0.0.1:${port}`;
  const regions = localRegions();
  const primary = regions.primary;
  // As documentClient() builds the handlers' own client.
  const ledgerDb = DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint, region: primary.region, credentials: LOCAL_CREDENTIALS, maxAttempts: 3 }),
    { marshallOptions: { removeUndefinedValues: true } },
  );
  // As regionGate() builds the authority's client (few retries, bounded timeouts), straight to the authority's
  // Region: the local stack's authority link (a proxy that can cut a Region off) is not in the way.
  const authorityDb = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint,
      region: authorityRegion(),
      credentials: LOCAL_CREDENTIALS,
      maxAttempts: 2,
      requestHandler: { connectionTimeout: 1_000, requestTimeout: 5_000, throwOnRequestTimeout: true },
    }),
  );
  try {
    await createTables(endpoint, primary);
    // createControlTables uses only the DynamoDB endpoint and the Regions' names; no queue is started.
    const noQueues = { events: "", eventsDlq: "", relayFailures: "", streamJobFailures: "" };
    await createControlTables({
      endpoints: { dynamodb: endpoint, sqs: "", ses: "" },
      regions: {
        primary: { ...primary, queues: noQueues },
        standby: { ...regions.standby, queues: noQueues },
      },
    });
    const authority = new DynamoRegionControlStore(authorityDb, CONTROL_TABLE);
    const control = await authority.read();
    if (control?.active !== "primary") throw new Error(`authority reads ${JSON.stringify(control)}`);

    // A payment row as the pay path writes it, so that the baseline reads an item of the real size.
    const now = Date.now();
    const row: PaymentRow = {
      payment_id: "pay_01JBENCHAUTHORITY0000000000",
      caller: "bench-user",
      client_key: "bench-authority-key-0000000000000000",
      fingerprint: "f".repeat(64),
      order_id: "42",
      amount: 3000,
      currency: "USD",
      payment_method: "pm_1",
      merchant_id: "m1",
      email: "buyer@example.com",
      state: "SUCCEEDED",
      psp_charge: "ch_0000000000000000000000",
      epoch: 1,
      created_at: now,
      updated_at: now,
    };
    const ledgerItem = { ...paymentKey(row.payment_id), ...row };
    await ledgerDb.send(new PutCommand({ TableName: primary.ledgerTable, Item: ledgerItem }));
    const getLedger = async () => {
      const out = await ledgerDb.send(
        new GetCommand({
          TableName: primary.ledgerTable,
          Key: paymentKey(row.payment_id),
          ConsistentRead: true,
        }),
      );
      if (!out.Item) throw new Error("the ledger item is gone");
    };
    const readAuthority = () => authority.read();

    await pair(getLedger, readAuthority, WARM_UP);
    const { a: baseMs, b: authMs } = await pair(getLedger, readAuthority, N);
    const base = stats(baseMs);
    const uncached = stats(authMs);

    // A fresh gate per run, as in a new container: its first call reads.
    const fenceCount = counted(authority);
    const fenceGate = activeRegion("primary", fenceCount.store, Date.now, tunables);
    const fence = await openLoop(() => fenceGate.assertActive(), fenceCount, tunables.fenceCacheMs);
    const controlCount = counted(authority);
    const controlGate = activeRegion("primary", controlCount.store, Date.now, tunables);
    const jobs = await openLoop(
      async () => {
        if (!(await controlGate.isActive())) throw new Error("the gate says passive");
      },
      controlCount,
      tunables.controlCacheMs,
    );

    report({
      base,
      uncached,
      fence,
      jobs,
      ledgerBytes: itemBytes(ledgerItem),
      controlBytes: itemBytes({ ...CONTROL_KEY, ...control }),
      fenceCacheMs: tunables.fenceCacheMs,
      controlCacheMs: tunables.controlCacheMs,
    });
  } finally {
    ledgerDb.destroy();
    authorityDb.destroy();
    await ddbLocal.stop();
  }
}

function report(r: {
  base: Stats;
  uncached: Stats;
  fence: GateRun;
  jobs: GateRun;
  ledgerBytes: number;
  controlBytes: number;
  fenceCacheMs: number;
  controlCacheMs: number;
}): void {
  const ms = (v: number) => v.toFixed(2).padStart(8);
  const ratio = (a: number) => `${r.base.p50 > 0 ? (a / r.base.p50).toFixed(2) : "-"}x`.padStart(8);
  const share = (g: GateRun) => `${g.reads} (${((100 * g.reads) / g.calls).toFixed(1)}%)`;
  const row = (name: string, calls: number, reads: string, st: Stats, vs: number, note = "") =>
    console.log(
      `${name.padEnd(38)}${String(calls).padStart(6)}${reads.padStart(12)}${ms(st.p50)}${ms(st.p99)}${ms(st.mean)}${ratio(vs)}${note}`,
    );
  const rcu = readUnits(r.controlBytes, true);
  console.log(
    `npm run bench:authority -- --n ${N} --rate ${RATE} --seconds ${SECONDS}   (DynamoDB Local in memory, loopback, ${availableParallelism()} cores)`,
  );
  console.log(
    `${"ms per call".padEnd(38)}${"calls".padStart(6)}${"DDB reads".padStart(12)}${"p50".padStart(8)}${"p99".padStart(8)}${"mean".padStart(8)}${"ratio".padStart(8)}`,
  );
  row(
    "baseline: ledger GetItem, consistent",
    N,
    String(N),
    r.base,
    r.base.p50,
    `   p50 / baseline p50 (item ${r.ledgerBytes} B)`,
  );
  row(
    "authority read, uncached",
    N,
    String(N),
    r.uncached,
    r.uncached.p50,
    `   p50 / baseline p50 (item ${r.controlBytes} B)`,
  );
  row(
    `assertActive(), ${r.fenceCacheMs} ms fence cache`,
    r.fence.calls,
    share(r.fence),
    r.fence.added,
    r.fence.added.mean,
    "   mean / baseline p50",
  );
  row(
    `isActive(), ${r.controlCacheMs} ms control cache`,
    r.jobs.calls,
    share(r.jobs),
    r.jobs.added,
    r.jobs.added.mean,
    "   mean / baseline p50",
  );
  console.log(
    `  the first two: one call at a time, interleaved, after ${WARM_UP} warm-up pairs; the gates: ${RATE}/s open loop for ${SECONDS} s each,`,
  );
  console.log(
    `  a fresh gate each (one warm container), reads counted on the store: expected ${r.fence.expectedReads} and ${r.jobs.expectedReads}, of which overlapping another: ${r.fence.overlapping} and ${r.jobs.overlapping}; errors: ${r.fence.errors + r.jobs.errors}`,
  );
  console.log(
    `  a read the gates made took ${r.fence.readMs.mean.toFixed(2)} and ${r.jobs.readMs.mean.toFixed(2)} ms on average (p50 ${r.fence.readMs.p50.toFixed(2)} and ${r.jobs.readMs.p50.toFixed(2)}), against ${r.uncached.mean.toFixed(2)} back to back`,
  );
  const lag = Math.max(r.fence.maxLagMs, r.jobs.maxLagMs);
  if (lag > 1000 / RATE)
    console.log(`  (the load generator started a call up to ${lag.toFixed(1)} ms late: the machine is busy)`);
  console.log(
    `price per warm container with a call at least every cache period (a consistent read of the ${r.controlBytes} B item: ${rcu} read unit)`,
  );
  const priceRow = (name: string, cacheMs: number) => {
    const perS = 1000 / cacheMs;
    const month = perS * rcu * 86_400 * 30;
    console.log(
      `  ${name.padEnd(36)}${perS.toFixed(2).padStart(6)} reads/s = ${(perS * rcu).toFixed(2)} RCU, or ${(month / 1e6).toFixed(2)} M read units a month on demand ($${((month / 1e6) * USD_PER_MILLION_READS).toFixed(2)})`,
    );
  };
  priceRow(`fence (${r.fenceCacheMs} ms)`, r.fenceCacheMs);
  priceRow(`jobs, relay, worker (${r.controlCacheMs} ms)`, r.controlCacheMs);
  console.log(
    `  a container with fewer calls than that reads on each one and pays the uncached read each time.`,
  );
}

for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => void stopAllServices().finally(() => process.exit(130)));

await main();
