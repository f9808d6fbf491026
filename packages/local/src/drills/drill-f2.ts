import { randomUUID } from "node:crypto";
import { paymentIdOf } from "@eo/core";
import { controlStore } from "../region/control-table";
import type { LocalStack } from "../stack/start-stack";
import { DrillApi, drillParties, lagOf, until } from "./drill-api";
import type { DrillResult } from "./drill-f";
import { finalCount } from "./final-count";
import { Timeline } from "./timeline";

/** Branch F2 as the design runs it (one home Region), or its counterfactual: both Regions active on an MREC claim table. */
export type DrillF2Variant = "home" | "both-active-mrec" | "both-active-mrsc";

/**
 * Branch F2: A1 claims K1 in R1 at 0.02 s; the phone's resend A1′ reaches R2 at 0.45 s, before the claim could
 * have replicated (1.0 s). With one active Region, R2 refuses A1′ (503 region-passive) and the count is one charge,
 * one credit. With both Regions active on a replicated claim table, both run the whole path.
 */
export async function drillF2(
  stack: LocalStack,
  variant: DrillF2Variant,
  print?: (l: string) => void,
): Promise<DrillResult> {
  const T = new Timeline(print);
  const api = new DrillApi({ R1: stack.apiUrl, R2: stack.standbyUrl ?? "" });
  const { caller, token, merchant } = await drillParties(api);
  await stack.replicator?.awaitIdle(20_000);
  // A cold start of R2's payment function, as Lambda's first invocation: a bad body, which writes nothing.
  await api.pay("R2", token, randomUUID(), { warm: "up" });
  if (variant !== "home")
    await splitBrain(stack, T, variant === "both-active-mrsc" ? "one MRSC store" : "MREC, replicated");
  // With one strongly consistent claim store, A1 is still in progress when A1′ asks (the PSP takes 1 s here).
  if (variant === "both-active-mrsc") await api.local("R1", "POST", "/faults", { psp_delay_ms: 1_000, n: 1 });
  T.mark(
    "-",
    "setup",
    `${variant === "home" ? "R1 active, R2 passive" : "both Regions active"}; R2 is ${lagOf(stack)} s behind`,
  );
  const key = randomUUID();
  const paymentId = paymentIdOf(caller, key);
  const body = {
    order_id: "f2",
    amount: 3_000,
    currency: "USD",
    payment_method: "pm_1",
    merchant_id: merchant,
  };
  const started = Date.now();
  const a1 = api.pay("R1", token, key, body);
  T.mark("R1", "phone A1", "POST /payments K1: the claim is taken in R1");
  await new Promise((r) => setTimeout(r, Math.max(0, 450 - (Date.now() - started))));
  const a1b = await api.pay("R2", token, key, body);
  T.mark(
    "R2",
    "phone A1′",
    `the resend reaches R2 before the claim replicated → ${a1b.status} ${String(a1b.body.state ?? a1b.body.type ?? "")}`,
  );
  const first = await a1;
  T.mark("R1", "phone A1", `→ ${first.status} ${String(first.body.state)}`);
  await until("the credit", async () =>
    (await api.local("R1", "GET", `/merchants/${merchant}`)).body.credits ? true : undefined,
  );
  await new Promise((r) => setTimeout(r, 3_000));
  const count = await finalCount(stack, api, { paymentId, merchant, caller });
  T.mark(
    "-",
    "count",
    `${count.charges.length} charge(s), ${count.merchant.R1.credits} credit record(s), ${count.emails} receipt(s) emailed`,
  );
  delete process.env.EO_TEST_UNSAFE_TRUST_OWN_COPY;
  const refused = a1b.status === 503 || a1b.status === 409;
  const matchesSeed =
    refused &&
    count.charges.length === 1 &&
    count.merchant.R1.credits === 1 &&
    count.merchant.R2.credits === 1;
  return {
    name: `F2 (${variant})`,
    timeline: T,
    count,
    expected: "A1′ refused (409 or 503 region-passive); 1 charge, 1 credit",
    matchesSeed,
  };
}

/**
 * Both Regions act: each trusts its own copy of the control (EO_TEST_UNSAFE_TRUST_OWN_COPY, set in the standby's
 * environment by the drill's stack and in the primary's here), and each copy names its own Region. One authority
 * can never say this; the drill shows what the claim store alone makes of it.
 */
async function splitBrain(stack: LocalStack, T: Timeline, claims: string) {
  process.env.EO_TEST_UNSAFE_TRUST_OWN_COPY = "1";
  const now = Date.now();
  await controlStore(stack.emulators, "standby").write({
    active: "standby",
    epoch: 2,
    updated_at: now,
    reason: "drill: split brain",
  });
  await new Promise((r) => setTimeout(r, 2_200));
  T.mark(
    "R2",
    "drill",
    `R2's own copy names R2 while R1's names R1, and each trusts its own (claims: ${claims})`,
  );
}
