import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { afterEach, describe, expect, it } from "vitest";
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
  delete process.env.EO_TEST_UNSAFE_UNCONDITIONAL_COMPLETION;
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

describe("3b: a crashed owner", () => {
  it("is taken over only after the lease + 1 s margin, and the PSP sees the same key: one charge", async () => {
    // prepare: A1 claims, records PENDING, charges, and dies before it can answer
    const key = newKey();
    const paymentId = paymentIdOf("u1", key);
    const crashed = gatedPsp(paymentDeps().psp, true);
    const a1 = makeTakePayment({ ...paymentDeps(), psp: crashed.psp });
    void a1({ caller: "u1", key, request, arrivalMs: clock.now() });
    await crashed.atGate;
    const token = await api().token("u1");
    // act
    const tooSoon = await api().pay(token, key, order42());
    await api().local("POST", "/clock", { advance_s: 6.2 });
    const takeover = await api().pay(token, key, order42());
    // assess
    expect(tooSoon.status).toBe(409);
    expect(takeover.status).toBe(201);
    expect(takeover.body.payment_id).toBe(paymentId);
    expect(chargesFor(paymentId)).toHaveLength(1);
    expect(takeover.body.psp_charge).toBe(chargesFor(paymentId)[0]?.id);
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
