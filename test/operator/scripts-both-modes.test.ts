import { GetQueueAttributesCommand, PurgeQueueCommand, SendMessageCommand } from "@aws-sdk/client-sqs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqsOf } from "../async/support/async-stack";
import { ApiClient, newKey, order42 } from "../support/api-client";
import { fakeStage } from "../support/fake-stage";
import { useLocalStack } from "../support/local-stack";
import { localScriptEnv } from "../support/regions";
import { runScript } from "../support/run-script";

// reconcile, resolve-unknowns and redrive-dlq, each run both ways an operator can: `--local` (the running stack,
// found by its port) and `--stage` (a stage's outputs file; here one that names the same stack's tables and queues,
// reached through an AWS wire that records every request, which the stage's on-call policy must allow).
const stack = useLocalStack();
const api = () => new ApiClient(stack().apiUrl);
let stage: Awaited<ReturnType<typeof fakeStage>>;
beforeAll(async () => {
  stage = await fakeStage(stack());
});
afterAll(async () => {
  await stage?.stop();
});

const local = (script: string, ...args: string[]) =>
  runScript(`scripts/${script}.ts`, ["--local", ...args], localScriptEnv(stack()));
/** Pays and settles what the PSP has not answered yet (a busy machine's first payments may outrun the deadline). */
async function paid(n: number): Promise<void> {
  const token = await api().token("u-both");
  for (let i = 0; i < n; i++)
    // An order id each: one order paid twice is a discrepancy (duplicate-order).
    expect([201, 202]).toContain((await api().pay(token, newKey(), order42({ order_id: newKey() }))).status);
  await api().local("POST", "/run/resolver");
}

/** A run with `--stage`; `refused` lists its requests the on-call policy would not allow. */
async function staged(script: string, ...args: string[]) {
  const from = stage.calls.length;
  const run = await runScript(`scripts/${script}.ts`, ["--stage", "test", "--outputs", stage.file, ...args], {
    ...stage.env,
  });
  const calls = stage.calls.slice(from);
  return { ...run, calls, refused: stage.refused(calls) };
}

describe("npm run reconcile, --local and --stage", () => {
  it("after some payments, both read the active Region's ledger and the PSP, match, and exit 0", async () => {
    // prepare
    const since = new Date(Date.now() - 1_000).toISOString();
    await paid(3);
    // act
    const byPort = await local("reconcile", "--since", since);
    const byStage = await staged("reconcile", "--since", since);
    // assess
    const counts = (out: string) =>
      /PSP charges (\d+), ledger payments (\d+), matched (\d+)/.exec(out)?.slice(1);
    for (const run of [byPort, byStage]) {
      expect(run.code, run.out).toBe(0);
      expect(run.out).toMatch(
        /the primary ledger \(ledger in us-east-1; active per the authority, epoch \d+\)/,
      );
      expect(Number(counts(run.out)?.[2])).toBeGreaterThanOrEqual(3);
      expect(run.out).toMatch(/result: the PSP and the ledger match \(exit 0\)/);
    }
    expect(counts(byStage.out)).toEqual(counts(byPort.out));
    expect(byPort.out).toMatch(/of the local stack \(API http:\/\/127\.0\.0\.1:\d+\)/);
    expect(byStage.out).toMatch(/of stage test \(.*outputs\.json\)/);
    expect(byStage.calls.map((c) => c.action)).toContain("dynamodb:Scan");
    expect(byStage.refused).toEqual([]);
  }, 90_000);
});

describe("npm run resolve-unknowns, --local and --stage", () => {
  it("lists in a dry run by the port, settles through the stage's outputs, and refuses the passive Region", async () => {
    // prepare: two payments whose replies were lost, and no webhook to settle them first
    await api().local("POST", "/run/resolver");
    stack().psp.setWebhookUrl(undefined);
    const token = await api().token("u-both");
    await api().local("POST", "/faults", { psp_lose_reply: 2 });
    const a = await api().pay(token, newKey(), order42());
    const b = await api().pay(token, newKey(), order42());
    const pspCalls = stack().psp.requests();
    // act
    const dry = await local("resolve-unknowns", "--dry-run");
    const callsAfterDryRun = stack().psp.requests();
    const passive = await local("resolve-unknowns", "--region", "standby");
    const real = await staged("resolve-unknowns");
    // assess
    expect(dry.code, dry.out).toBe(0);
    expect(dry.out).toMatch(
      /\d+ payment\(s\) to examine in the primary Region \(us-east-1; active per the authority/,
    );
    expect(dry.out).toContain(`would replay ${a.body.payment_id}`);
    expect(callsAfterDryRun).toBe(pspCalls);
    expect(passive.code, passive.out).toBe(2);
    expect(passive.out).toMatch(/this Region \(standby\) is passive: the primary Region is active/);
    expect(real.code, real.out).toBe(0);
    expect(real.out).toMatch(new RegExp(`${b.body.payment_id}\\s+UNKNOWN -> SUCCEEDED`));
    expect(real.out).toMatch(new RegExp(`${a.body.payment_id}\\s+UNKNOWN -> SUCCEEDED`));
    expect(real.out).toMatch(/summary: examined (\d+), settled \1, still unknown 0/);
    expect(real.refused).toEqual([]);
    stack().psp.setWebhookUrl(`${stack().apiUrl}/webhooks/psp`);
  }, 90_000);
});

describe("npm run redrive-dlq, --local and --stage", () => {
  it("previews by the port (nothing moves) and moves through the stage's outputs, the active Region's DLQ", async () => {
    // prepare: one dead letter in the primary's DLQ
    const sqs = sqsOf(stack());
    const dlq = stack().emulators.regions.primary.queues.eventsDlq;
    await sqs.send(new PurgeQueueCommand({ QueueUrl: dlq }));
    await sqs.send(
      new SendMessageCommand({
        QueueUrl: dlq,
        MessageBody: JSON.stringify({ note: "a dead letter" }),
        MessageGroupId: "m-both",
        MessageDeduplicationId: `dead-${Date.now()}`,
      }),
    );
    // act
    const dry = await local("redrive-dlq", "--dry-run", "--dedup-window-s", "0");
    const depthAfterDryRun = await depth(sqs, dlq);
    const real = await staged("redrive-dlq", "--dedup-window-s", "0");
    // assess
    expect(dry.code, dry.out).toBe(0);
    expect(dry.out).toMatch(
      /dry run: redriving .*primary-events-dlq\.fifo -> .*primary-events\.fifo, the primary Region/,
    );
    expect(dry.out).toMatch(/summary: examined 1, would move 1, left 0/);
    expect(depthAfterDryRun).toBe(1);
    expect(real.code, real.out).toBe(0);
    expect(real.out).toMatch(/summary: examined 1, moved 1, left 0/);
    expect(await depth(sqs, dlq)).toBe(0);
    expect(real.calls.map((c) => c.action)).toContain("sqs:SendMessage");
    expect(real.refused).toEqual([]);
    sqs.destroy();
  }, 90_000);
});

describe("the on-call policy check of the stage runs", () => {
  it("objects when an action the runs made is taken out of the policy", () => {
    // prepare: the stage's policy without the ledger's Scan
    const broken = structuredClone(stage.policy);
    for (const st of broken.Statement)
      st.Action = st.Action.filter((a) => a !== "dynamodb:Scan" || st.Sid !== "Ledger");
    // act
    const refused = stage.refused(stage.calls, broken);
    // assess
    expect(stage.refused()).toEqual([]);
    expect(refused).toContain("dynamodb:Scan on arn:aws:dynamodb:us-east-1:000000000000:table/ledger");
  });
});

async function depth(sqs: ReturnType<typeof sqsOf>, url: string): Promise<number> {
  const out = await sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: url,
      AttributeNames: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"],
    }),
  );
  const a = out.Attributes ?? {};
  return Number(a.ApproximateNumberOfMessages) + Number(a.ApproximateNumberOfMessagesNotVisible);
}
