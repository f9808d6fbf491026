// npm run bench:cost [-- --n 5]
// One payment's whole life, from the tap to the notification, priced by AWS's billing rules per path and per step,
// with Powertools idempotency alone and no idempotency as baselines measured in the same run.
import { parseArgs } from "node:util";
import { DescribeTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { documentClient, loadConfig } from "@eo/core";
import { currentInvocation } from "../packages/local/src/runtime/current-invocation";
import { mintToken } from "../packages/local/src/runtime/jwt";
import { startLocalStack } from "../packages/local/src/stack/start-stack";
import { front } from "./baseline-front";
import { noIdempotency, powertoolsOnly } from "./baselines";
import { CostMeter, type MeteredTable, noCost, type StepCost } from "./cost/cost-meter";
import { meanOf, monthlyCost, pathTable, totalOf, twoRegionWritesOf, writesOf } from "./cost/cost-report";
import {
  addUse,
  type FunctionUse,
  LambdaMeter,
  lambdaMonthLine,
  lambdaTable,
  meanUse,
} from "./cost/lambda-meter";
import { paymentSteps } from "./cost/payment-steps";
import { targetReport } from "./cost/target-report";

const { values } = parseArgs({ options: { n: { type: "string", default: "5" } } });
const N = Number(values.n);
if (!Number.isInteger(N) || N < 1) {
  console.error("usage: npm run bench:cost [-- --n <payments per path, 1 or more>]");
  process.exit(2);
}

process.env.EVENTS_VISIBILITY_TIMEOUT_S ??= "2";
const stack = await startLocalStack({
  resolverEveryMs: 0,
  sweepsEveryMs: 0,
  standby: false,
  psp: { rateLimits: { perAccount: 1e6, perEndpoint: 1e6 } },
});
const api = stack.apiUrl;
// Every handler invocation of the local runtime, billed as Lambda bills it (reset with the DynamoDB meter).
const lambda = new LambdaMeter();
try {
  const config = loadConfig();
  const names = { claim: config.claimTable, ledger: config.ledgerTable, consumer: config.consumerTable };
  const t = { ...names, control: config.controlTable, totals: process.env.TOTALS_TABLE ?? "totals" };
  // The ledger and consumer tables are global tables; each Region's stream job writes its own totals.
  const tables = await describeTables([t.claim, t.control], [t.ledger, t.consumer, t.totals]);
  const images = DynamoDBDocumentClient.from(new DynamoDBClient({}));
  // The API request is what its invocation sent; the relay and the stream job start before its answer returns.
  const meter = new CostMeter(tables, paymentSteps(t), images, () => currentInvocation()?.functionName);
  meter.attach(documentClient());
  const token = await buyer();
  console.log(
    `bench:cost  N=${N} per path  (local stack, one Region metered; AWS's billing rules, not the emulator's)`,
  );
  const happy = await measurePath(meter, N, {
    fn: "CreatePayment",
    act: async () => void (await pay(token, crypto.randomUUID())),
  });
  // The PSP's webhook comes late, so that the resolver is what settles the payment, as in the seed's story.
  const lost = await measurePath(meter, N, {
    fn: "CreatePayment",
    act: async () => {
      await local("POST", "/faults", { psp_lose_reply: 1, psp_webhook_late_ms: 8_000 });
      await pay(token, crypto.randomUUID());
    },
    after: async () => {
      await local("POST", "/clock", { advance_s: 10 });
      await local("POST", "/run/resolver");
    },
  });
  const refund = await measurePath(meter, N, {
    fn: "CancelPayment",
    act: async () => void (await cancel(token, await settledPayment(meter, token))),
    prepared: true,
  });
  const repeat = await measurePath(meter, N, {
    fn: "CreatePayment",
    act: async () => void (await pay(token, await settledKey(meter, token))),
    prepared: true,
  });
  for (const [title, r] of [
    ["happy path", happy],
    ["a lost PSP reply, settled by the resolver", lost],
    ["a refund (POST /payments/{id}/cancel), after the payment settled", refund],
    ["a repeat (the same key again), after the payment settled", repeat],
  ] as const) {
    console.log(`\n${pathTable(`${title} (mean of ${N})`, r.sync, r.life)}`);
    console.log(
      lambdaTable(
        "  Lambda, per payment (arm64; durations measured on this machine, not on Lambda)",
        r.lambda,
      ),
    );
  }
  await baselines(config, token, happy.sync);
  const life = totalOf(happy.life);
  const cost = monthlyCost(life, 50_000);
  console.log(
    `\n50,000 payments a day, 30 days, on-demand (us-east-1: $0.625 per million writes, $0.125 per million reads):` +
      ` one Region $${cost.oneRegion.toFixed(2)}/month, two Regions $${cost.twoRegions.toFixed(2)}/month` +
      ` (${writesOf(life).toFixed(1)} WU and ${twoRegionWritesOf(life).toFixed(1)} WU with the replica per payment)`,
  );
  console.log(lambdaMonthLine(happy.lambda, 50_000));
  console.log(targetReport(happy.syncSteps, happy.sync, life));
} finally {
  lambda.close();
  await stack.stop();
}
process.exit(0);

/** A fresh buyer with a phone and an email, as the story's buyer. */
async function buyer(): Promise<string> {
  const caller = `cost-${crypto.randomUUID().slice(0, 8)}`;
  const token = await mintToken(caller, { email: `${caller}@example.com`, expiresInS: 3600 });
  await send("POST", "/devices", token, { platform: "apns", token: `tok-${caller}` });
  return token;
}

/**
 * A path to measure: the API request (`act`, served by the function `fn`), what follows it (`after`), and whether
 * `act` resets the meter. The PSP's webhook is another API function, so it counts in the life, not the request.
 */
interface PathRun {
  fn: string;
  act: () => Promise<void>;
  after?: () => Promise<void>;
  prepared?: boolean;
}

/** Runs a path N times; each run's synchronous part is what `fn`'s invocations sent, its life all until quiet. */
async function measurePath(meter: CostMeter, n: number, run: PathRun) {
  const sync = new Map<string, StepCost>();
  const life = new Map<string, StepCost>();
  const fns = new Map<string, FunctionUse>();
  for (let i = 0; i < n; i++) {
    if (!run.prepared) {
      await quiet(meter);
      meter.reset();
      lambda.reset();
    }
    await run.act();
    await run.after?.();
    await quiet(meter);
    add(sync, meter.snapshot(run.fn));
    add(life, meter.snapshot());
    addUse(fns, lambda.snapshot());
  }
  return {
    sync: totalOf(meanOf(sync, n)),
    syncSteps: meanOf(sync, n),
    life: meanOf(life, n),
    lambda: meanUse(fns, n),
  };
}

/** Pays, waits until the payment's whole life is over, and resets the meter: what a refund starts from. */
async function settledPayment(meter: CostMeter, token: string): Promise<string> {
  const paid = await pay(token, crypto.randomUUID());
  await quiet(meter);
  meter.reset();
  lambda.reset();
  return String(paid.payment_id);
}

/** The key of a payment whose life is over, with the meter reset: what a repeat starts from. */
async function settledKey(meter: CostMeter, token: string): Promise<string> {
  const key = crypto.randomUUID();
  await pay(token, key);
  await quiet(meter);
  meter.reset();
  lambda.reset();
  return key;
}

/**
 * Waits until the PSP has delivered every webhook and no request has gone to DynamoDB for 2 s (the relay, worker,
 * webhook and stream job are done), so that each payment's life is billed to its own run.
 */
async function quiet(meter: CostMeter): Promise<void> {
  const stop = Date.now() + 30_000;
  await new Promise((r) => setTimeout(r, 300));
  const busy = () => stack.psp.webhooksPending() > 0 || Date.now() - meter.lastCallAt < 2_000;
  while (busy() && Date.now() < stop) await new Promise((r) => setTimeout(r, 100));
}

function add(into: Map<string, StepCost>, from: Map<string, StepCost>): void {
  for (const [name, c] of from) {
    const t = into.get(name) ?? noCost();
    for (const k of Object.keys(c) as Array<keyof StepCost>) t[k] += c[k];
    into.set(name, t);
  }
}

async function pay(token: string, key: string): Promise<Record<string, unknown>> {
  const body = {
    order_id: `o-${key}`,
    amount: 3000,
    currency: "USD",
    payment_method: "pm_1",
    merchant_id: "m1",
  };
  return send("POST", "/payments", token, body, { "idempotency-key": key });
}

function cancel(token: string, paymentId: string) {
  return send("POST", `/payments/${paymentId}/cancel`, token);
}

function local(method: string, path: string, body?: unknown) {
  return send(method, `/_local${path}`, undefined, body);
}

async function send(
  method: string,
  path: string,
  token?: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${api}${path}`, {
    method,
    headers: {
      "content-type": "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 200)}`);
  return (text ? JSON.parse(text) : {}) as Record<string, unknown>;
}

/** Each table's keys and indexes, read from DynamoDB (Local), as the meter bills them. */
async function describeTables(regional: string[], global: string[]): Promise<Map<string, MeteredTable>> {
  const ddb = new DynamoDBClient({});
  const out = new Map<string, MeteredTable>();
  for (const name of [...regional, ...global]) {
    const d = (await ddb.send(new DescribeTableCommand({ TableName: name }))).Table;
    out.set(name, {
      name,
      global: global.includes(name),
      keys: (d?.KeySchema ?? []).map((k) => String(k.AttributeName)),
      indexes: (d?.GlobalSecondaryIndexes ?? []).map((g) => ({
        name: String(g.IndexName),
        keys: (g.KeySchema ?? []).map((k) => String(k.AttributeName)),
        projection: (g.Projection?.ProjectionType ?? "ALL") as "ALL" | "KEYS_ONLY" | "INCLUDE",
        include: g.Projection?.NonKeyAttributes,
      })),
    });
  }
  ddb.destroy();
  return out;
}

/** The synchronous request of Powertools idempotency alone and of no idempotency, metered the same way. */
async function baselines(
  config: ReturnType<typeof loadConfig>,
  token: string,
  design: StepCost,
): Promise<void> {
  console.log(`\nbaselines: the API request alone (mean of ${N}), ratios against no idempotency`);
  const rows: Array<[string, StepCost]> = [];
  for (const [name, make] of [
    ["no idempotency", noIdempotency],
    ["Powertools idempotency alone", powertoolsOnly],
  ] as const) {
    const tables = await describeTables([config.claimTable], [config.ledgerTable]);
    const meter = new CostMeter(tables, () => name, DynamoDBDocumentClient.from(new DynamoDBClient({})));
    const served = await front(make(config, meter));
    const sync = new Map<string, StepCost>();
    for (let i = 0; i < N; i++) {
      meter.reset();
      await fetch(`${served.url}/payments`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          "idempotency-key": crypto.randomUUID(),
          "content-type": "application/json",
        },
        body: JSON.stringify({
          order_id: "42",
          amount: 3000,
          currency: "USD",
          payment_method: "pm_1",
          merchant_id: "m1",
        }),
      }).then((r) => r.arrayBuffer());
      add(sync, meter.snapshot());
    }
    served.server.close();
    rows.push([name, totalOf(meanOf(sync, N))]);
  }
  rows.push(["the design", design]);
  const base = rows[0]?.[1] as StepCost;
  const ratio = (x: number, b: number) => (b > 0 ? `${(x / b).toFixed(2)}x` : "-");
  for (const [name, c] of rows)
    console.log(
      `  ${name.padEnd(30)} ${c.calls.toFixed(2)} calls (${ratio(c.calls, base.calls)})  ${writesOf(c).toFixed(2)} WU incl. index (${ratio(writesOf(c), writesOf(base))})  ${c.readUnits.toFixed(2)} RU`,
    );
}
