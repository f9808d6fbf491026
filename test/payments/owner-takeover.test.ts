import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ClaimStore } from "../../packages/core/src/claim/claim-store";
import { clock } from "../../packages/core/src/clock/clock";
import { paymentIdOf } from "../../packages/core/src/ids/derive-ids";
import { paymentDeps } from "../../packages/core/src/payment/payment-wiring";
import { makeTakePayment } from "../../packages/core/src/payment/take-payment";
import type { PspPort } from "../../packages/core/src/psp/psp-port";
import { ApiClient, newKey, order42 } from "../support/api-client";
import { tablesOf } from "../support/ledger-reads";
import { useLocalStack } from "../support/local-stack";

const stack = useLocalStack();
const api = () => new ApiClient(stack().apiUrl);
const chargesFor = (paymentId: string) =>
  stack()
    .psp.charges()
    .filter((c) => c.reference === paymentId);
const request = { order_id: "42", amount: 3000, currency: "USD", payment_method: "pm_1", merchant_id: "m1" };

afterEach(() => {
  vi.restoreAllMocks();
  delete process.env.EO_TEST_UNSAFE_UNCONDITIONAL_COMPLETION;
  delete process.env.EO_TEST_UNSAFE_NO_TAKEOVER_MARGIN;
  delete process.env.EO_TEST_UNSAFE_TAKEOVER_WITHOUT_OWNER_CHECK;
});

/** A PSP port that waits at a gate before it forwards the call: a paused (or, never opened, a crashed) owner. */
function gatedPsp(real: PspPort, chargeFirst: boolean) {
  let open!: () => void;
  let reached!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  const atGate = new Promise<void>((r) => (reached = r));
  const psp: PspPort = {
    ...real,
    charge: async (key, params, timeoutMs) => {
      const reply = chargeFirst ? await real.charge(key, params, timeoutMs) : undefined;
      reached();
      await gate;
      return reply ?? real.charge(key, params, 5_000);
    },
  };
  return { psp, open, atGate };
}

/** A claim store whose completions are recorded, to see whose answer the key record keeps. */
function recordingClaimStore(completions: string[]) {
  const d = paymentDeps();
  const raw = new DynamoDBClient({});
  raw.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName !== "UpdateItemCommand") return next(args);
      try {
        const out = await next(args);
        completions.push("stored");
        return out;
      } catch (err) {
        completions.push((err as Error).name);
        throw err;
      }
    },
    { step: "initialize" },
  );
  return new ClaimStore(DynamoDBDocumentClient.from(raw), d.config.claimTable, {
    windowS: d.config.keyWindowS,
    takeoverMarginMs: d.config.takeoverMarginMs,
    clock,
  });
}

/** Moves the shared clock to `atMs` (never back). */
async function clockTo(atMs: number): Promise<void> {
  await api().local("POST", "/clock", { advance_s: Math.max(0, atMs - clock.now()) / 1000 });
}

/** A1 claims, records PENDING, charges, and dies before it can answer; `leaseEnd` is its claim's lease. */
async function crashedOwner() {
  const key = newKey();
  const arrivalMs = clock.now();
  const crashed = gatedPsp(paymentDeps().psp, true);
  const a1 = makeTakePayment({ ...paymentDeps(), psp: crashed.psp });
  void a1({ caller: "u1", key, request, arrivalMs });
  await crashed.atGate;
  const { deadlineMs, takeoverMarginMs } = paymentDeps().config;
  return {
    key,
    paymentId: paymentIdOf("u1", key),
    leaseEnd: arrivalMs + deadlineMs,
    marginMs: takeoverMarginMs,
  };
}

/** Counts the PSP charge calls made through the handlers' ports: each is a taker replaying the derived key. */
function countPspCharges(): { calls: number } {
  const seen = { calls: 0 };
  const psp = paymentDeps().psp;
  const real = psp.charge.bind(psp);
  vi.spyOn(psp, "charge").mockImplementation(async (...args) => {
    seen.calls += 1;
    return real(...args);
  });
  return seen;
}

/** Lets two callers through together: each waits until the other has arrived too (or `waitMs` passed). */
function barrierOfTwo(waitMs: number): () => Promise<void> {
  let arrived = 0;
  let release!: () => void;
  const both = new Promise<void>((r) => (release = r));
  return async () => {
    arrived += 1;
    if (arrived >= 2) release();
    await Promise.race([both, new Promise((r) => setTimeout(r, waitMs))]);
  };
}

/**
 * Makes the two takers race as tightly as the seed's trace: both read the dead owner (they meet at the ledger
 * read before the takeover), and both takeover writes land before either charges (they meet again after it).
 * Without the second meeting the first taker could charge and complete before the second wrote, which the
 * guard-off test would then see as one taker (CI saw it once on a loaded machine). The waits are long because
 * on a loaded machine the second request can take seconds to arrive.
 */
function holdTakersTogether(paymentId: string, waitMs = 25_000): void {
  const { ledger, claims } = paymentDeps();
  const readLedger = ledger.getPayment.bind(ledger);
  const atRead = barrierOfTwo(waitMs);
  vi.spyOn(ledger, "getPayment").mockImplementation(async (id) => {
    if (id === paymentId) await atRead();
    return readLedger(id);
  });
  const takeOver = claims.table.takeOver.bind(claims.table);
  const afterTakeover = barrierOfTwo(waitMs);
  vi.spyOn(claims.table, "takeOver").mockImplementation(async (...args) => {
    const taken = await takeOver(...args);
    await afterTakeover();
    return taken;
  });
}

/**
 * Holds the settle of the payment until the PSP was asked `calls` times (or `waitMs` passed). With the guard off
 * both takers own the claim, but a taker slowed on a loaded machine would find the row already settled by the
 * other and send nothing (recordSend), so the trace would show one send: CI saw it once.
 */
function holdSettleUntilSent(
  paymentId: string,
  psp: { calls: number },
  calls: number,
  waitMs = 25_000,
): void {
  const { ledger } = paymentDeps();
  const move = ledger.move.bind(ledger);
  vi.spyOn(ledger, "move").mockImplementation(async (m) => {
    const until = Date.now() + waitMs;
    while (m.paymentId === paymentId && psp.calls < calls && Date.now() < until)
      await new Promise((r) => setTimeout(r, 20));
    return move(m);
  });
}

describe("3b: a crashed owner", () => {
  it("is not taken over before its lease + 1 s margin ends, and is taken over just after it: one charge", async () => {
    // prepare
    const { key, paymentId, leaseEnd, marginMs } = await crashedOwner();
    const token = await api().token("u1");
    // act
    const tooSoon = await api().pay(token, key, order42());
    await clockTo(leaseEnd + marginMs - 400);
    const insideMargin = await api().pay(token, key, order42());
    await clockTo(leaseEnd + marginMs + 200);
    const takeover = await api().pay(token, key, order42());
    // assess
    expect(tooSoon.status).toBe(409);
    expect(insideMargin.status).toBe(409);
    expect(takeover.status).toBe(201);
    expect(takeover.body.payment_id).toBe(paymentId);
    expect(chargesFor(paymentId)).toHaveLength(1);
    expect(takeover.body.psp_charge).toBe(chargesFor(paymentId)[0]?.id);
  });

  it("without the margin (guard off) a repeat just after the lease, inside the margin, takes over", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_NO_TAKEOVER_MARGIN = "1";
    const { key, leaseEnd, marginMs } = await crashedOwner();
    // act
    await clockTo(leaseEnd + marginMs - 400);
    const insideMargin = await api().pay(await api().token("u1"), key, order42());
    // assess
    expect(insideMargin.status).toBe(201);
  });

  async function twoTakersAtOnce(settleAfterBothSent = false) {
    const { key, paymentId, leaseEnd, marginMs } = await crashedOwner();
    const token = await api().token("u1");
    await clockTo(leaseEnd + marginMs + 200);
    const psp = countPspCharges();
    holdTakersTogether(paymentId);
    if (settleAfterBothSent) holdSettleUntilSent(paymentId, psp, 2);
    const takers = await Promise.all([api().pay(token, key, order42()), api().pay(token, key, order42())]);
    return { paymentId, takers, psp };
  }

  it("two takers at once: one takes over, the other gets 409 or the answer; the PSP is asked once, one charge", async () => {
    // act
    const { paymentId, takers, psp } = await twoTakersAtOnce();
    // assess
    const won = takers.filter((t) => t.status === 201 && !t.headers.get("idempotent-replayed"));
    const other = takers.find((t) => !won.includes(t));
    expect(won).toHaveLength(1);
    expect(other?.status === 409 || other?.headers.get("idempotent-replayed") === "true").toBe(true);
    expect(psp.calls).toBe(1);
    expect(chargesFor(paymentId)).toHaveLength(1);
  });

  it("without the owner check on the takeover (guard off) both takers take over and both replay the charge", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_TAKEOVER_WITHOUT_OWNER_CHECK = "1";
    // act
    const { paymentId, psp } = await twoTakersAtOnce(true);
    // assess: the derived key still makes it one charge; the guard is what keeps it one owner
    expect(psp.calls).toBe(2);
    expect(chargesFor(paymentId)).toHaveLength(1);
  });
});

describe("3c: a paused owner", () => {
  async function pausedOwnerWakesAfterTakeover() {
    const key = newKey();
    const paused = gatedPsp(paymentDeps().psp, false);
    const completions: string[] = [];
    const a1 = makeTakePayment({
      ...paymentDeps(),
      psp: paused.psp,
      claims: recordingClaimStore(completions),
    });
    const a1Answer = a1({ caller: "u1", key, request, arrivalMs: clock.now() });
    await paused.atGate;
    await api().local("POST", "/clock", { advance_s: 6.2 });
    const takeover = await api().pay(await api().token("u1"), key, order42());
    const newOwnersClaim = await tablesOf(stack()).claim(`payments:u1:${key}`);
    paused.open();
    const woke = await a1Answer;
    return { key, takeover, newOwnersClaim, woke, completions };
  }

  it("wakes after the takeover and cannot overwrite the new owner's answer", async () => {
    // act
    const { key, takeover, newOwnersClaim, woke, completions } = await pausedOwnerWakesAfterTakeover();
    // assess
    expect(takeover.status).toBe(201);
    expect(completions).toEqual(["ConditionalCheckFailedException"]);
    expect(await tablesOf(stack()).claim(`payments:u1:${key}`)).toEqual(newOwnersClaim);
    expect(woke.status).toBe(201);
    expect(woke.headers["idempotent-replayed"]).toBe("true");
    expect(chargesFor(String(takeover.body.payment_id))).toHaveLength(1);
  });

  it("with Powertools' unconditional completion (guard off) the paused owner overwrites the key record", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_UNCONDITIONAL_COMPLETION = "1";
    // act
    const { woke, completions } = await pausedOwnerWakesAfterTakeover();
    // assess: the zombie's write landed on a record it no longer owned, and it never noticed
    expect(completions).toEqual(["stored"]);
    expect(woke.headers["idempotent-replayed"]).toBeUndefined();
  });
});
