import { randomUUID } from "node:crypto";
import { paymentIdOf } from "@eo/core";
import type { LocalStack } from "../stack/start-stack";
import { DrillApi, drillParties, lagOf, until } from "./drill-api";
import { drillFailover } from "./drill-failover";
import { type FinalCount, finalCount } from "./final-count";
import { Timeline } from "./timeline";

/** Branch F and its counterfactuals (Part 9): which guard, if any, the drill removes. */
export type DrillFVariant = "main" | "region-attempt-key" | "random-event-id";

/** What a drill came to: its timeline, its final count, and whether that is the seed's count. */
export interface DrillResult {
  name: string;
  timeline: Timeline;
  count: FinalCount;
  expected: string;
  matchesSeed: boolean;
}

/**
 * Branch F: the main line with the standby 1.0 s behind. The PSP charges and its reply is lost; the PSP's webhook
 * settles the payment in R1, whose relay publishes and whose worker credits; R1 fails within the lag, before its
 * inbox item replicates; the on-call engineer fails over; the phone retries against R2; R1 recovers and the
 * Regions reconcile. The seed's count: one charge, one credit (m1 12,000 → 15,000), one notification shown.
 */
export async function drillF(
  stack: LocalStack,
  variant: DrillFVariant,
  print?: (l: string) => void,
): Promise<DrillResult> {
  const T = new Timeline(print);
  const api = new DrillApi({ R1: stack.apiUrl, R2: stack.standbyUrl ?? "" });
  const { caller, token, merchant } = await drillParties(api);
  await setUp(stack, api, T, merchant);
  if (variant === "random-event-id") process.env.EO_TEST_UNSAFE_RANDOM_EVENT_ID = "1";
  try {
    const key = randomUUID();
    const paymentId = paymentIdOf(caller, key);
    await mainLine(api, T, { token, key, paymentId, merchant });
    await failAndFailOver(stack, api, T, paymentId);
    delete process.env.EO_TEST_UNSAFE_RANDOM_EVENT_ID;
    await retryInR2(api, T, { token, key, paymentId, merchant });
    await recover(stack, api, T);
    const count = await finalCount(stack, api, { paymentId, merchant, caller });
    T.mark(
      "-",
      "count",
      `${count.charges.length} charge(s), m1 = ${count.merchant.R1.balance} in R1 and ${count.merchant.R2.balance} in R2, ${count.shown} shown`,
    );
    const matchesSeed =
      count.charges.length === 1 &&
      count.merchant.R1.balance === 15_000 &&
      count.merchant.R2.balance === 15_000 &&
      count.shown === 1;
    return {
      name: `F (${variant})`,
      timeline: T,
      count,
      expected: "1 charge, m1 12,000 → 15,000 in both Regions, 1 notification shown",
      matchesSeed,
    };
  } finally {
    delete process.env.EO_TEST_UNSAFE_RANDOM_EVENT_ID;
  }
}

async function setUp(stack: LocalStack, api: DrillApi, T: Timeline, merchant: string) {
  // Another buyer's payment, so that this buyer's screen and mailbox hold only the main line's.
  const other = await api.token(`earlier-${randomUUID().slice(0, 8)}`);
  const earlier = await api.pay("R1", other, randomUUID(), order(merchant, 12_000, "earlier"));
  await until("the earlier credit", async () =>
    (await api.local("R1", "GET", `/merchants/${merchant}`)).body.balance === 12_000 ? true : undefined,
  );
  await stack.replicator?.awaitIdle(20_000);
  T.mark(
    "-",
    "setup",
    `m1 holds 12,000 in both Regions (earlier payment ${earlier.body.payment_id}); R2 is ${lagOf(stack)} s behind`,
  );
}

async function mainLine(api: DrillApi, T: Timeline, p: Payment) {
  await api.local("R1", "POST", "/faults", { psp_lose_reply: 1 });
  const first = await api.pay("R1", p.token, p.key, order(p.merchant, 3_000, "main"));
  T.mark(
    "R1",
    "phone",
    `POST /payments → ${first.status} ${String(first.body.state)} (the PSP charged; its reply was lost)`,
  );
  await until("the webhook's settlement in R1", async () =>
    (await api.get("R1", p.token, p.paymentId)).body.state === "SUCCEEDED" ? true : undefined,
  );
  T.mark("R1", "psp webhook", "charge.succeeded → SUCCEEDED; journal and outbox written in one transaction");
  await until("R1's credit", async () =>
    (await api.local("R1", "GET", `/merchants/${p.merchant}`)).body.balance === 15_000 ? true : undefined,
  );
  T.mark("R1", "relay+worker", "event published; inbox item and credit written (m1 = 15,000 in R1)");
}

async function failAndFailOver(stack: LocalStack, api: DrillApi, T: Timeline, paymentId: string) {
  await api.local("R1", "POST", "/regions/primary/fail");
  const inR2 = (await api.local("R2", "GET", "/regions")).body as { replication?: { pending?: number } };
  T.mark(
    "R1",
    "chaos",
    `R1 fails within the lag: ${inR2.replication?.pending ?? "?"} change(s) unshipped, its inbox item and credit among them (${paymentId} is UNKNOWN in R2)`,
  );
  stack.psp.setWebhookUrl(`${stack.standbyUrl}${stack.webhookPath}`);
  T.mark("-", "on-call", "the PSP's webhook endpoint now points at R2 (the manual step, or DNS)");
  // The failover's own progress lines, without their clock (the timeline has one).
  const out = await drillFailover(stack, "standby", true, (l) =>
    T.mark("R2", "on-call", l.replace(/^\s*\[\s*[\d.]+ s\] /, "  ")),
  );
  T.mark(
    "R2",
    "on-call",
    `npm run failover -- --to standby --force → exit ${out.code} (${out.mode}, epoch ${out.epoch})`,
  );
}

async function retryInR2(api: DrillApi, T: Timeline, p: Payment) {
  const retry = await api.pay("R2", p.token, p.key, order(p.merchant, 3_000, "main"));
  T.mark(
    "R2",
    "phone",
    `retry, same key → ${retry.status} ${String(retry.body.state ?? retry.body.detail)} ${String(retry.body.psp_charge ?? "")}`,
  );
  await until("R2's credit", async () =>
    (await api.local("R2", "GET", `/merchants/${p.merchant}`)).body.balance !== 12_000 ? true : undefined,
  );
  T.mark(
    "R2",
    "relay+worker",
    `event published from R2; the inbox applies it (m1 = ${(await api.local("R2", "GET", `/merchants/${p.merchant}`)).body.balance} in R2)`,
  );
}

async function recover(stack: LocalStack, api: DrillApi, T: Timeline) {
  await api.local("R1", "POST", "/regions/primary/recover");
  T.mark(
    "R1",
    "chaos",
    "R1 recovers, passive (the authority names R2); replication ships its last second, last writer wins per item",
  );
  const check = await drillFailover(stack, "standby", false, () => undefined);
  T.mark(
    "R1",
    "on-call",
    `npm run failover -- --to standby → exit ${check.code} (${check.mode}: nothing to switch, checked, epoch ${check.epoch})`,
  );
}

interface Payment {
  token: string;
  key: string;
  paymentId: string;
  merchant: string;
}

function order(merchant: string, amount: number, id: string) {
  return { order_id: id, amount, currency: "USD", payment_method: "pm_1", merchant_id: merchant };
}
