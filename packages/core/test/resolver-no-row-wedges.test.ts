import { afterEach, describe, expect, it, vi } from "vitest";
import { armFault, clearFaults } from "../src/faults/faults";
import { POISON_AFTER, settleUnknowns } from "../src/payment/settle-unknowns";
import { setSignalSink } from "../src/signals/signal-sink";
import { MemoryLedger, memoryDeps, openRow } from "./support/memory-ledger";
import { chargeOf, type StripeRig, startStripeRig } from "./support/stripe-fake";

// Issue 39, item 3: no row can stop the resolver. A pass runs against the fake PSP in Stripe's dialect through the
// real SDK, on a ledger held in memory.
let rig: StripeRig | undefined;
afterEach(async () => {
  delete process.env.EO_TEST_UNSAFE_NO_RESOLVER_ISOLATION;
  delete process.env.EO_TEST_UNSAFE_DEFINITE_REFUSAL_WAITS;
  setSignalSink();
  clearFaults();
  vi.restoreAllMocks();
  await rig?.psp.stop();
  rig = undefined;
});

/** Counts what the domain signals for on-call, by name. */
function signals(): Map<string, number> {
  const seen = new Map<string, number>();
  setSignalSink({ count: (name, n) => seen.set(name, (seen.get(name) ?? 0) + n) });
  return seen;
}

/** Two lost replies: `pay_a` ahead in the index, `pay_b` behind it; Stripe charged both. */
async function twoLostReplies(ledger: MemoryLedger, stripeRig: StripeRig) {
  for (const [id, agoMs] of [
    ["pay_a", 20_000],
    ["pay_b", 10_000],
  ] as const) {
    await stripeRig.stripe.charge(`${id}:charge`, { ...chargeOf(id), bodyVersion: 2 }, 5_000);
    ledger.put(openRow(id, {}, agoMs));
  }
}

/** Makes every settle of `paymentId` throw, as a row the code cannot read or a store's error would. */
function settleThrowsFor(ledger: MemoryLedger, paymentId: string) {
  const port = ledger.port();
  const move = port.move.bind(port);
  vi.spyOn(port, "move").mockImplementation(async (m) => {
    if (m.paymentId === paymentId) throw new TypeError("cannot read the row's amount");
    return move(m);
  });
  return port;
}

describe("a row whose settle throws", () => {
  it("goes to the back of the index with its failure counted, and the rows behind it are settled in the same pass", async () => {
    // prepare
    rig = await startStripeRig();
    const ledger = new MemoryLedger();
    await twoLostReplies(ledger, rig);
    const deps = { ...memoryDeps(ledger, rig.stripe), ledger: settleThrowsFor(ledger, "pay_a") };
    // act
    const first = await settleUnknowns(deps);
    const next = await settleUnknowns(deps);
    // assess
    expect(first.settled).toEqual([{ payment_id: "pay_b", from: "UNKNOWN", to: "SUCCEEDED" }]);
    expect(first.failed).toEqual([
      expect.objectContaining({ payment_id: "pay_a", failures: 1, poison: false, error: expect.any(String) }),
    ]);
    expect(ledger.get("pay_a")).toMatchObject({ state: "UNKNOWN", resolver_failures: 1 });
    expect(ledger.get("pay_a")?.sweepAt).toBeGreaterThan(Date.now());
    expect(next.examined).toBe(0);
  });

  it("is a poison row once it has failed POISON_AFTER times: counted for its alarm (ResolverPoisonRows)", async () => {
    // prepare
    rig = await startStripeRig();
    const ledger = new MemoryLedger();
    await twoLostReplies(ledger, rig);
    ledger.put(openRow("pay_a", { resolver_failures: POISON_AFTER - 1 }, 20_000));
    const deps = { ...memoryDeps(ledger, rig.stripe), ledger: settleThrowsFor(ledger, "pay_a") };
    const seen = signals();
    // act
    const pass = await settleUnknowns(deps);
    // assess
    expect(pass.failed).toEqual([
      expect.objectContaining({ payment_id: "pay_a", failures: POISON_AFTER, poison: true }),
    ]);
    expect(seen.get("ResolverPoisonRows")).toBe(1);
    expect(pass.settled).toContainEqual({ payment_id: "pay_b", from: "UNKNOWN", to: "SUCCEEDED" });
  });

  it("without isolation (EO_TEST_UNSAFE_NO_RESOLVER_ISOLATION=1) stops every pass there: the row behind stays unsettled", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_NO_RESOLVER_ISOLATION = "1";
    rig = await startStripeRig();
    const ledger = new MemoryLedger();
    await twoLostReplies(ledger, rig);
    const deps = { ...memoryDeps(ledger, rig.stripe), ledger: settleThrowsFor(ledger, "pay_a") };
    // act
    const passes = [await settleUnknowns(deps).catch((e) => e), await settleUnknowns(deps).catch((e) => e)];
    // assess
    for (const pass of passes) expect(pass).toBeInstanceOf(TypeError);
    expect(ledger.get("pay_b")?.state).toBe("UNKNOWN");
  });
});

describe("Stripe's idempotency_error on a replay", () => {
  it("is settled by the authoritative lookup: the intent the key's first request made", async () => {
    // prepare: the key's first request sent the version-1 body; the row (wrongly) says version 2
    rig = await startStripeRig();
    await rig.stripe.charge("pay_c:charge", { ...chargeOf("pay_c"), bodyVersion: 1 }, 5_000);
    const ledger = new MemoryLedger();
    ledger.put(openRow("pay_c", { body_version: 2 }));
    // act
    const pass = await settleUnknowns(memoryDeps(ledger, rig.stripe));
    // assess
    expect(pass.settled).toEqual([{ payment_id: "pay_c", from: "UNKNOWN", to: "SUCCEEDED" }]);
    expect(ledger.get("pay_c")?.psp_charge).toBe(rig.psp.charges()[0]?.id);
    expect(rig.psp.charges()).toHaveLength(1);
  });
});

describe("Stripe refuses our key (401)", () => {
  it("raises the configuration signal with what to check, leaves the row as it is, and the pass goes on", async () => {
    // prepare
    rig = await startStripeRig();
    const ledger = new MemoryLedger();
    await twoLostReplies(ledger, rig);
    // a payment whose charge never reached Stripe, at the head of the index
    ledger.put(openRow("pay_e", {}, 30_000));
    armFault("psp_fail", 401, 1);
    const seen = signals();
    // act
    const pass = await settleUnknowns(memoryDeps(ledger, rig.stripe));
    // assess
    expect(pass.misconfigured).toEqual([
      { payment_id: "pay_e", reason: expect.stringMatching(/401.*pay_e:charge.*STRIPE_SECRET_KEY/) },
    ]);
    expect(seen.get("PspConfigErrors")).toBe(1);
    expect(ledger.get("pay_e")).toMatchObject({ state: "UNKNOWN" });
    expect(ledger.get("pay_e")?.resolver_failures).toBeUndefined();
    expect(pass.settled).toEqual([
      { payment_id: "pay_a", from: "UNKNOWN", to: "SUCCEEDED" },
      { payment_id: "pay_b", from: "UNKNOWN", to: "SUCCEEDED" },
    ]);
  });
});

describe("a definite 400 on create (issue 39, item 4)", () => {
  it("settles FAILED within the first pass, with Stripe's code, once the complete list finds no intent", async () => {
    // prepare: an amount Stripe refuses outright; no intent can exist
    rig = await startStripeRig();
    const ledger = new MemoryLedger();
    ledger.put(openRow("pay_d", { amount: 0 }));
    // act
    const pass = await settleUnknowns(memoryDeps(ledger, rig.stripe));
    // assess
    expect(pass.settled).toEqual([{ payment_id: "pay_d", from: "UNKNOWN", to: "FAILED" }]);
    expect(ledger.get("pay_d")?.decline_code).toBe("amount_too_small");
  });

  it("waits the not-found settle period with the guard off (EO_TEST_UNSAFE_DEFINITE_REFUSAL_WAITS=1)", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_DEFINITE_REFUSAL_WAITS = "1";
    rig = await startStripeRig();
    const ledger = new MemoryLedger();
    ledger.put(openRow("pay_d", { amount: 0 }));
    // act
    const pass = await settleUnknowns(memoryDeps(ledger, rig.stripe));
    // assess
    expect(pass.unresolved).toEqual([{ payment_id: "pay_d", state: "UNKNOWN" }]);
  });
});
