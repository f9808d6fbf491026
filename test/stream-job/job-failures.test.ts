import { PurgeQueueCommand, ReceiveMessageCommand, SendMessageCommand } from "@aws-sdk/client-sqs";
import { afterEach, describe, expect, it } from "vitest";
import { sqsOf } from "../async/support/async-stack";
import { useLocalStack } from "../support/local-stack";
import { localScriptEnv } from "../support/regions";
import { runScript } from "../support/run-script";
import { eventually } from "../support/tables";
import { totalsTrace } from "./support/totals";

// The relay and the stream job share the ledger stream's one mapping (issue 41): the job has its own failure
// accounting, so that it never holds the relay's events, and its own failure queue, which `recompute-totals` drains.
const stack = useLocalStack({ standby: false });
const SWITCHES = ["EO_TEST_UNSAFE_JOB_FAILS_BATCH", "EO_TEST_UNSAFE_SKIP_FORGETS_SEEN"];
afterEach(async () => {
  // Faults first: a held shard then goes on with the switches still as the test had them.
  await fetch(`${stack().apiUrl}/_local/faults`, { method: "DELETE" });
  await stack().regions.primary.idle();
  for (const s of SWITCHES) delete process.env[s];
  const sqs = sqsOf(stack());
  await sqs.send(new PurgeQueueCommand({ QueueUrl: queueUrl() }));
  sqs.destroy();
});

const queueUrl = () => stack().emulators.regions.primary.queues.streamJobFailures;
const recompute = (...args: string[]) =>
  runScript(
    "scripts/recompute-totals.ts",
    ["--local", "--region", "primary", ...args],
    localScriptEnv(stack()),
  );

/** The bodies on the job's failure queue, left visible. */
async function failures(): Promise<string[]> {
  const sqs = sqsOf(stack());
  try {
    const out = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: queueUrl(), MaxNumberOfMessages: 10, VisibilityTimeout: 0 }),
    );
    return (out.Messages ?? []).map((m) => m.Body ?? "");
  } finally {
    sqs.destroy();
  }
}

/** A merchant's credits as the worker applied them (the relay's events reached the queue). */
async function credited(t: ReturnType<typeof totalsTrace>, m: string): Promise<number> {
  const body = await t.api.local<{ credits?: number }>("GET", `/merchants/${t.merchant(m)}`);
  return Number(body.credits ?? 0);
}

/** Pays while the job's sink refuses every write; waits until the job gave that batch up. */
async function payWhileTheSinkIsDown(t: ReturnType<typeof totalsTrace>, m: string, amount: number) {
  await t.api.local("POST", "/faults", { stream_job_sink_down: 1, n: 1_000 });
  const paymentId = await t.pay(m, amount);
  // Three attempts with backoff behind 1 s stream polls take a few seconds alone; a CI run on two busy cores took
  // more than 20 s once (2026-12-07), so the wait allows 45.
  await eventually(
    async () => ((await failures()).some((b) => b.includes(paymentId)) ? true : undefined),
    45_000,
    "the job to give the batch up to its failure queue",
  );
  await t.api.local("DELETE", "/faults");
  return paymentId;
}

describe("a stream job that cannot write its totals", () => {
  it("gives the batch up to its own failure queue, while the relay's events are credited", async () => {
    // prepare
    const t = totalsTrace(stack(), "sink-down");
    // act
    const paymentId = await payWhileTheSinkIsDown(t, "m1", 2_500);
    // assess: the merchant is credited (the relay went on), the totals are short, the batch is described
    await eventually(async () => ((await credited(t, "m1")) === 1 ? true : undefined), 15_000, "the credit");
    await t.settled();
    expect(await t.sum("m1")).toBe(0);
    const batch = JSON.parse((await failures()).find((b) => b.includes(paymentId)) ?? "{}");
    expect(batch).toMatchObject({ kind: "stream-job-batch-skipped", attempts: 3 });
    expect(batch.events).toEqual([
      expect.objectContaining({
        eventId: `${paymentId}:SUCCEEDED`,
        merchant: t.merchant("m1"),
        amount: 2_500,
      }),
    ]);
  }, 90_000);

  it("counterfactual: without its own accounting, a failing job holds the next payment's credit", async () => {
    // prepare: the job's failure fails the whole invocation, as one mapping without a dispatcher would
    process.env.EO_TEST_UNSAFE_JOB_FAILS_BATCH = "1";
    const t = totalsTrace(stack(), "held");
    await t.api.local("POST", "/faults", { stream_job_sink_down: 1, n: 100_000 });
    await t.pay("m1", 1_000);
    // The shard is held once the job has failed m1's batch: m2's records must come after it, not in the same batch
    // (whose relay part would send them before the job part fails it).
    await eventually(
      async () => {
        const armed = await t.api.local<Record<string, { remaining: number }>>("GET", "/faults");
        return (armed.stream_job_sink_down?.remaining ?? 100_000) < 100_000 ? true : undefined;
      },
      20_000,
      "the job's first failure of m1's batch",
    );
    // act: a later payment's events are behind the failing batch on the shard
    await t.pay("m2", 700);
    await new Promise((r) => setTimeout(r, 6_000));
    // assess
    expect(await credited(t, "m2")).toBe(0);
  }, 90_000);
});

describe("npm run recompute-totals", () => {
  it("adds a given-up batch once: the dry run writes nothing, the run adds it, the next run finds nothing", async () => {
    // prepare
    const t = totalsTrace(stack(), "recompute");
    await payWhileTheSinkIsDown(t, "m1", 4_000);
    await t.settled();
    // act
    const dry = await recompute("--dry-run");
    const totalAfterDry = await t.sum("m1");
    const run = await recompute();
    const again = await recompute();
    // assess
    expect(dry.code, dry.out).toBe(0);
    expect(dry.out).toMatch(/dry run: .*would add 1 event/s);
    expect(totalAfterDry).toBe(0);
    expect(run.code, run.out).toBe(0);
    expect(run.out).toMatch(
      /summary primary: examined 1, added 1 batch\(es\), 1 event\(s\) to 1 merchant-day/,
    );
    expect(await t.sum("m1")).toBe(4_000);
    expect(again.out).toMatch(/summary primary: the queue is empty/);
    expect(await t.sum("m1")).toBe(4_000);
  }, 120_000);

  it("counts a later copy of a given-up event once: the job remembers it as seen", async () => {
    // prepare: a batch given up and recomputed
    const t = totalsTrace(stack(), "copy");
    await payWhileTheSinkIsDown(t, "m1", 1_500);
    await t.settled();
    expect((await recompute()).code).toBe(0);
    // act: the source re-reads the given-up record, then a later payment shows the job has gone past it
    await t.api.local("POST", "/faults", { stream_job_redeliver: 100, n: 1 });
    await t.pay("m1", 100);
    // assess
    expect(await t.until("m1", 1_600)).toBe(1_600);
    await t.settled();
    expect(await t.sum("m1")).toBe(1_600);
  }, 120_000);

  it("counterfactual: a give-up that forgets the events it skipped counts the copy twice", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_SKIP_FORGETS_SEEN = "1";
    const t = totalsTrace(stack(), "forgets");
    await payWhileTheSinkIsDown(t, "m1", 1_500);
    await t.settled();
    expect((await recompute()).code).toBe(0);
    // act
    await t.api.local("POST", "/faults", { stream_job_redeliver: 100, n: 1 });
    await t.pay("m1", 100);
    // assess: 1,500 by the recompute, 1,500 again by the job, and the 100
    expect(await t.until("m1", 3_100)).toBe(3_100);
  }, 120_000);

  it("leaves a batch the ledger does not confirm on the queue and exits 1", async () => {
    // prepare: a batch naming a payment the ledger never had
    const sqs = sqsOf(stack());
    const forged = {
      kind: "stream-job-batch-skipped",
      shard: "shard-x",
      window: "2026-12-06T00:00:00.000Z",
      firstSequence: "1",
      lastSequence: "1",
      records: 1,
      error: "forged",
      attempts: 3,
      events: [
        { eventId: "pay_nope:SUCCEEDED", merchant: "m-x", day: "2026-12-06", amount: 9_999, eventTime: 1 },
      ],
    };
    await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl(), MessageBody: JSON.stringify(forged) }));
    sqs.destroy();
    // act
    const run = await recompute();
    // assess
    expect(run.code).toBe(1);
    expect(run.out).toMatch(/LEFT \(UNSAFE\): pay_nope:SUCCEEDED: no payment pay_nope in the ledger/);
    expect(run.out).toMatch(/UNSAFE: some batches were not added/);
    expect((await failures()).some((b) => b.includes("pay_nope"))).toBe(true);
  }, 60_000);
});
