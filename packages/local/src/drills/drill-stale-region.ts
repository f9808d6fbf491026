import { randomUUID } from "node:crypto";
import { paymentIdOf } from "@eo/core";
import type { LocalStack } from "../stack/start-stack";
import { DrillApi, drillParties } from "./drill-api";
import type { DrillResult } from "./drill-f";
import { drillFailover } from "./drill-failover";
import { finalCount } from "./final-count";
import { Timeline } from "./timeline";

/** Whether the Regions read the one authority (the design), or each its own copy (the counterfactual). */
export type BeliefVariant = "authority" | "own-copy";

/**
 * The old Region's way of being out of the picture: failed and back by itself (F3), or cut off and running (F4),
 * hidden from the operator too or, in AWS's shape, still answering the operator's machine (F4-operator-reaches).
 */
export type StaleRegionCase = "F3" | "F4" | "F4-operator-reaches";

/**
 * F3 and F4: the old Region R1 is failed over away from, then acts again with nobody having run the failover
 * command for it: in F3 it comes back by itself after dying right after its durable guard for K; in F4 it is
 * partitioned and keeps running. Meanwhile the app asked R2 about K (VOID) and paid with K2. A phone on stale
 * routing retries K in R1, and R1's resolver runs. With the authority, R1 is passive: one charge. Trusting its
 * own copy, R1 settles or takes K: two charges for one order.
 */
export async function drillStaleRegion(
  stack: LocalStack,
  which: StaleRegionCase,
  variant: BeliefVariant,
  print?: (l: string) => void,
): Promise<DrillResult> {
  const T = new Timeline(print);
  const api = new DrillApi({ R1: stack.apiUrl, R2: stack.standbyUrl ?? "" });
  const { caller, token, merchant } = await drillParties(api);
  // The standby's switch is in its environment (the drill's stack); the primary's is set for the run alone.
  if (variant === "own-copy") process.env.EO_TEST_UNSAFE_TRUST_OWN_COPY = "1";
  try {
    const keys = { K: randomUUID(), K2: randomUUID() };
    const body = {
      order_id: which,
      amount: 3_000,
      currency: "USD",
      payment_method: "pm_1",
      merchant_id: merchant,
    };
    await stack.replicator?.awaitIdle(20_000);
    T.mark(
      "-",
      "setup",
      `R1 active (epoch 1); ${variant === "authority" ? "both Regions read the one authority" : "COUNTERFACTUAL: each Region trusts its own copy"}`,
    );
    await loseR1(stack, api, T, which, { token, key: keys.K, body });
    const switched = await failOver(stack, T);
    const voided = await resolveWhenFinal(api, T, token, keys.K);
    T.mark(
      "R2",
      "app",
      `did K go through? → ${voided.status} ${String(voided.body.state ?? voided.body.detail)}`,
    );
    const paid = voided.body.state === "VOID" ? await api.pay("R2", token, keys.K2, body) : undefined;
    T.mark(
      "R2",
      "app",
      `pays again with K2 → ${paid?.status ?? "not sent"} ${String(paid?.body.state ?? "")}`,
    );
    const back = await r1ActsAgain(stack, api, T, which, { token, key: keys.K, body });
    const references = [paymentIdOf(caller, keys.K), paymentIdOf(caller, keys.K2)];
    await stack.replicator?.awaitIdle(30_000);
    const count = await finalCount(stack, api, { paymentId: references[1] ?? "", merchant, caller });
    const charges = (stack.psp.charges() as Array<{ id: string; reference: string }>).filter((c) =>
      references.includes(c.reference),
    );
    count.charges = charges.map((c) => c.id);
    T.mark(
      "-",
      "count",
      `${charges.length} charge(s) for the order (${charges.map((c) => c.reference).join(", ") || "none"})`,
    );
    return {
      name: `${which} (${variant})`,
      timeline: T,
      count,
      expected: "1 charge for the order; R1 passive: its resolver does nothing and the stale retry gets 503",
      // A failover that did not happen (exit 1) is not the seed's story, whatever the charges.
      matchesSeed: switched && charges.length === 1 && back.retryStatus === 503 && back.resolverPassive,
    };
  } finally {
    delete process.env.EO_TEST_UNSAFE_TRUST_OWN_COPY;
  }
}

interface Pay {
  token: string;
  key: string;
  body: Record<string, unknown>;
}

async function loseR1(stack: LocalStack, api: DrillApi, T: Timeline, which: StaleRegionCase, p: Pay) {
  await api.local("R1", "POST", "/replication", { paused: true });
  T.mark("-", "chaos", "replication paused: nothing R1 writes now reaches R2");
  if (which === "F3") {
    await api.local("R1", "POST", "/faults", { crash_at: "pay.after_guard", n: 1 });
    const died = await api.pay("R1", p.token, p.key, p.body);
    T.mark(
      "R1",
      "phone",
      `POST /payments K → ${died.status}: R1 wrote the durable guard for K and died before the PSP`,
    );
    await api.local("R1", "POST", "/regions/primary/fail");
    T.mark("R1", "chaos", "R1 fails");
  } else if (which === "F4") {
    await api.local("R1", "POST", "/regions/primary/partition");
    T.mark(
      "R1",
      "chaos",
      "R1 is partitioned: it runs, but reaches neither the authority nor R2 (K's first send was lost)",
    );
  } else {
    await api.local("R1", "POST", "/regions/primary/partition", { operator_reaches: true });
    T.mark(
      "R1",
      "chaos",
      "R1 is partitioned as in AWS: it reaches neither the authority nor R2, but the on-call engineer's machine still reaches its tables",
    );
  }
  stack.psp.setWebhookUrl(`${stack.standbyUrl}${stack.webhookPath}`);
}

/** The on-call engineer forces the failover to R2; whether it switched (exit 0 or 3). */
async function failOver(stack: LocalStack, T: Timeline): Promise<boolean> {
  const out = await drillFailover(stack, "standby", true, (l) =>
    T.mark("R2", "on-call", l.replace(/^\s*\[\s*[\d.]+ s\] /, "  ")),
  );
  T.mark(
    "R2",
    "on-call",
    `npm run failover -- --to standby --force → exit ${out.code} (${out.mode}, epoch ${out.epoch})`,
  );
  return out.code === 0 || out.code === 3;
}

/** R1 is back in the picture with nobody having run the failover command: its resolver and a stale phone act. */
async function r1ActsAgain(stack: LocalStack, api: DrillApi, T: Timeline, which: StaleRegionCase, p: Pay) {
  if (which === "F3") {
    await api.local("R1", "POST", "/regions/primary/recover");
    T.mark("R1", "chaos", "R1 comes back by itself; nobody runs the failover command again");
  }
  // Any read R1 made before it was cut off has aged out of its cache by now.
  await new Promise((r) => setTimeout(r, 2_500));
  const resolver = (await api.local("R1", "POST", "/run/resolver")).body.result as Record<string, unknown>;
  const resolverPassive = resolver?.passive === true;
  T.mark(
    "R1",
    "resolver",
    resolverPassive
      ? "passive: the authority does not name R1"
      : `acted: ${JSON.stringify(resolver?.settled ?? [])}`,
  );
  const retry = await api.pay("R1", p.token, p.key, p.body);
  T.mark(
    "R1",
    "stale phone",
    `retries K on old routing → ${retry.status} ${String(retry.body.state ?? retry.body.type ?? "")}`,
  );
  if (which !== "F3") {
    await api.local("R1", "POST", "/regions/primary/heal");
    T.mark("R1", "chaos", "R1's partition heals; replication resumes");
  }
  await api.local("R1", "POST", "/replication", { paused: false });
  await stack.replicator?.awaitIdle(30_000);
  return { retryStatus: retry.status, resolverPassive };
}

/** The not-found settle time of the drill's stack (`PSP_NOT_FOUND_SETTLE_S`, its default). */
const NOT_FOUND_SETTLE_S = 600;

// The generic PSP's lookup may lag: R2's "not found" is final only once the settle time has passed since its epoch
// began (issue 40), and until then resolve answers PROCESSING; the app asks again at Retry-After until it is final.
async function resolveWhenFinal(api: DrillApi, T: Timeline, token: string, key: string) {
  const first = await api.resolve("R2", token, key);
  if (first.body.state !== "PROCESSING") return first;
  T.mark(
    "R2",
    "app",
    `did K go through? → ${first.status} PROCESSING: R2's "not found" may be a lagging lookup`,
  );
  await api.local("R2", "POST", "/clock", { advance_s: NOT_FOUND_SETTLE_S });
  T.mark(
    "-",
    "clock",
    `+${NOT_FOUND_SETTLE_S} s: the not-found settle time since R2's epoch began has passed`,
  );
  return api.resolve("R2", token, key);
}
