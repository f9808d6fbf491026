import { randomUUID } from "node:crypto";
import { type DrillApi, drillParties, until } from "../drills/drill-api";
import type { Timeline } from "../drills/timeline";
import type { LocalStack } from "../stack/start-stack";
import { type StoryCount, storyCount } from "./story-count";

/** The story's order: $30.00 to m1, whose balance and daily total start at 12,000 as in the seed. */
const ORDER = { amount: 3_000, currency: "USD", payment_method: "pm_card_visa" } as const;

/** The parties and keys of one playing of the story. */
export interface StoryCast {
  api: DrillApi;
  caller: string;
  token: string;
  merchant: string;
  k1: string;
  k2: string;
}

/** Sets the stage: m1 at 12,000 (an earlier buyer's payment, credited and totalled), the buyer's phone registered. */
export async function castOfTheStory(stack: LocalStack, api: DrillApi, t: Timeline): Promise<StoryCast> {
  const { caller, token, merchant } = await drillParties(api);
  const earlier = await api.token(`earlier-${randomUUID().slice(0, 6)}`);
  const body = { ...ORDER, amount: 12_000, order_id: "o-earlier", merchant_id: merchant };
  await api.pay("R1", earlier, randomUUID(), body);
  await until("m1 at 12,000", async () => ((await balance(api, merchant)) === 12_000 ? true : undefined));
  await until("m1's total at 12,000", async () =>
    (await dailyTotal(api, merchant)) === 12_000 ? true : undefined,
  );
  t.mark("R1", "setup", `m1 = 12,000 (balance and daily total); ${caller}'s phone registered`);
  void stack;
  return { api, caller, token, merchant, k1: `K1-${randomUUID()}`, k2: `K2-${randomUUID()}` };
}

/**
 * Part 13's payment timeline on the real local stack, with the faults armed at the seed's moments; answers the
 * final count once both Regions have reconciled.
 */
export async function playMainLine(stack: LocalStack, c: StoryCast, t: Timeline): Promise<StoryCount> {
  const { api } = c;
  const order = { ...ORDER, order_id: "o7", merchant_id: c.merchant };
  await api.local("R1", "POST", "/faults", {
    psp_lose_reply: 1,
    psp_webhook_late_ms: 8_000,
    psp_webhook_twice: 1,
  });
  t.mark(
    "R1",
    "phone",
    `tap: the app makes K1 before the first send and POSTs /payments (${c.k1.slice(0, 11)}…)`,
  );
  const first = await api.pay("R1", c.token, c.k1, order);
  const paymentId = String(first.body.payment_id);
  const charge = (stack.psp.charges() as Array<{ id: string; reference: string }>).find(
    (x) => x.reference === paymentId,
  );
  t.mark(
    "R1",
    "PSP",
    `charged ${charge?.id ?? "nothing"} (the seed's ch_1) and its reply was lost`,
    await holds(c, paymentId),
  );
  t.mark(
    "R1",
    "handler",
    `deadline: answered ${first.status} ${String(first.body.state)}, the row UNKNOWN`,
    await holds(c, paymentId),
  );
  await api.local("R1", "POST", "/clock", { advance_s: 10 });
  const retry = await api.pay("R1", c.token, c.k1, order);
  t.mark(
    "R1",
    "phone",
    `retry at 10 s with K1: ${retry.status} ${String(retry.body.state)}, rendered from the payment`,
  );
  await api.local("R1", "POST", "/faults", { relay_crash_after_publish: 2, worker_crash_after_send: 1 });
  await streamJobRestore(c, t);
  const resolver = await api.local("R1", "POST", "/run/resolver");
  t.mark(
    "R1",
    "resolver",
    `replayed ${paymentId.slice(0, 12)}…:charge, the PSP answered its saved ch_1 (settled ${String(settledOf(resolver.body))})`,
    await holds(c, paymentId),
  );
  t.mark(
    "R1",
    "relay",
    "armed: crash after publishing ev_7, twice (the queue's window drops the 2nd, the inbox the 3rd)",
  );
  t.mark(
    "R1",
    "worker",
    "armed: dies after the push; the notification record makes the next one finish with the same replace id",
  );
  await until(
    "m1 credited",
    async () => ((await balance(api, c.merchant)) === 15_000 ? true : undefined),
    30_000,
  );
  t.mark(
    "R1",
    "worker",
    "ev_7 applied once: m1 12,000 → 15,000; one notification shown",
    await holds(c, paymentId),
  );
  await until(
    "the late webhook, twice",
    async () => (stack.psp.webhooksPending() === 0 ? true : undefined),
    30_000,
  );
  t.mark(
    "R1",
    "PSP",
    "the late webhook evt_1, delivered twice: a compare-and-set, then the inbox, made both harmless",
    await holds(c, paymentId),
  );
  await until(
    "m1's total at 15,000",
    async () => ((await dailyTotal(api, c.merchant)) === 15_000 ? true : undefined),
    30_000,
  );
  t.mark("R1", "stream job", "ev_7 counted once: m1's total 15,000", await holds(c, paymentId));
  const left = (await api.local("R1", "DELETE", "/faults")).body.cleared as Record<string, unknown>;
  const armed = ["relay_crash_after_publish", "worker_crash_after_send"];
  const unfired = armed.filter((f) => f in (left ?? {}));
  t.mark(
    "-",
    "faults",
    unfired.length === 0 ? `all fired: ${armed.join(", ")}` : `NOT fired: ${unfired.join(", ")}`,
  );
  await api.local("R1", "POST", "/clock", { advance_s: 7_200 });
  const back = await api.pay("R1", c.token, c.k1, order);
  t.mark(
    "R1",
    "phone",
    `the buyer returns after two hours with K1: ${back.status} ${String(back.body.state)}; the key store forgot K1, the durable guard answered`,
  );
  const late = await lateOriginal(c, t);
  const count = await storyCount(stack, api, {
    paymentId,
    merchant: c.merchant,
    m2: `${c.merchant}-m2`,
    caller: c.caller,
    k2: late,
  });
  return { ...count, unfired };
}

/**
 * The stream job's parallel timeline (P5): its v1 counts m2's declined 500, writes the sink and crashes before its
 * state is committed; the restore runs v2 (which skips declined payments), whose full flush deletes m2's total.
 */
async function streamJobRestore(c: StoryCast, t: Timeline): Promise<void> {
  const { api } = c;
  const m2 = `${c.merchant}-m2`;
  process.env.EO_TEST_UNSAFE_STREAM_JOB_V1 = "until-crash";
  await api.local("R1", "POST", "/faults", { stream_job_crash_after_sink: 1 });
  t.mark("R1", "stream job", "v1 is running: it counts declined payments (the bug v2 fixes)");
  const buyer = await api.token(`${c.caller}-m2`);
  const declined = await api.pay("R1", buyer, `K-m2-${c.k1}`, {
    ...ORDER,
    amount: 500,
    payment_method: "pm_card_declined",
    order_id: "o-m2",
    merchant_id: m2,
  });
  t.mark(
    "R1",
    "PSP",
    `m2's card declined: ${declined.status}; v1 writes m2 = 500 to the sink and crashes before its checkpoint`,
  );
  await until("the stream job's crash", async () => {
    const armed = (await api.local("R1", "GET", "/faults")).body;
    return "stream_job_crash_after_sink" in armed ? undefined : true;
  });
  // The retry flushes within a few poll intervals; without the flush (branch S) m2 keeps v1's 500.
  let m2Total = await dailyTotal(api, m2);
  for (
    const stop = Date.now() + 5_000;
    m2Total !== 0 && Date.now() < stop;
    m2Total = await dailyTotal(api, m2)
  )
    await new Promise((r) => setTimeout(r, 100));
  delete process.env.EO_TEST_UNSAFE_STREAM_JOB_V1;
  t.mark(
    "R1",
    "stream job",
    `restored with v2: the full flush rewrote the restored keys and deleted m2's (m2 now ${m2Total})`,
  );
}

/** The late original that opened the seed: it stalls past its deadline, resolve voids its key, and it charges nothing. */
async function lateOriginal(c: StoryCast, t: Timeline): Promise<{ state: string; status: number }> {
  const { api } = c;
  await api.local("R1", "POST", "/faults", { stall_after_claim_ms: 6_000, n: 1 });
  const order = { ...ORDER, amount: 2_500, order_id: "o8", merchant_id: c.merchant };
  t.mark("R1", "phone", "a second tap (K2): its request stalls after its claim, past the server's deadline");
  const original = api.pay("R1", c.token, c.k2, order);
  await new Promise((r) => setTimeout(r, 6_500));
  const answered = await original;
  t.mark("R1", "handler", `the late original woke after its deadline: ${answered.status}, nothing written`);
  const resolved = await api.resolve("R1", c.token, c.k2);
  t.mark(
    "R1",
    "phone",
    `"did it go through?" for K2: ${String(resolved.body.state)}; the void keeps any late copy from charging`,
  );
  return { state: String(resolved.body.state), status: answered.status };
}

async function balance(api: DrillApi, merchant: string): Promise<number> {
  return Number((await api.local("R1", "GET", `/merchants/${merchant}`)).body.balance ?? 0);
}

async function dailyTotal(api: DrillApi, merchant: string): Promise<number> {
  const days = (await api.local("R1", "GET", `/totals/${merchant}`)).body as unknown as Array<{
    total: number;
  }>;
  return Array.isArray(days) ? days.reduce((a, d) => a + d.total, 0) : 0;
}

/** What each store holds, in a few words: the payment row, the merchant, the daily total. */
async function holds(c: StoryCast, paymentId: string): Promise<string> {
  const row = await c.api.get("R1", c.token, paymentId);
  return `row ${String(row.body.state ?? "-")} · m1 ${await balance(c.api, c.merchant)} · total ${await dailyTotal(c.api, c.merchant)}`;
}

function settledOf(body: Record<string, unknown>): unknown {
  return (body.result as { settled?: unknown[] } | undefined)?.settled?.length ?? 0;
}
