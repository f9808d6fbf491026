import type { ClientEvent } from "@eo/client";
import { afterEach, describe, expect, it } from "vitest";
import { useLocalStack } from "../support/local-stack";
import { anOrder, armFaults, charges, clearFaults, phone, until } from "./support/phone";

const stack = useLocalStack();
const api = () => stack().apiUrl;
// The PSP's delayed charge lands 12 s after the first send; a double charge can only be counted after it.
const DELAYED_CHARGE_LANDED_MS = 13_000;

afterEach(() => clearFaults(api()));

describe("Tapped once, charged twice (Part 0), with the payments client", () => {
  it("charges once and ends SUCCEEDED when the PSP takes 12 s and the phone's timeout is 10 s", async () => {
    // prepare
    const order = anOrder();
    const events: ClientEvent[] = [];
    const client = phone(api(), { onEvent: (e) => events.push(e) });
    const before = await charges(api());
    await armFaults(api(), { psp_delay_ms: 12_000, n: 1 });
    const started = Date.now();
    // act: one tap; the client polls the 202 with the same key until the PSP's webhook settles it
    const result = await client.pay(order);
    // assess
    await until(started, DELAYED_CHARGE_LANDED_MS);
    const charged = await charges(api(), before);
    expect(charged).toHaveLength(1);
    expect(result).toMatchObject({ kind: "succeeded", order_id: order.order_id });
    const paymentId = result.kind === "succeeded" ? result.payment_id : "";
    expect(charged[0]).toMatchObject({ reference: paymentId, idempotency_key: `${paymentId}:charge` });
    const answers = events.filter((e) => e.type === "answer");
    expect(answers[0]).toMatchObject({ status: 202, payment_id: paymentId });
    expect(new Set(events.flatMap((e) => (e.type === "attempt" ? [e.key] : []))).size).toBe(1);
  }, 45_000);

  it("charges twice when the client makes a new key per retry (the unsafe test-only switch): proof the count can fail", async () => {
    // prepare
    const order = anOrder();
    const client = phone(api(), { unsafeTestOnly: { newKeyPerRetry: true } });
    const before = await charges(api());
    await armFaults(api(), { psp_delay_ms: 12_000, n: 1 });
    const started = Date.now();
    // act: the first retry of the 202 goes out under a new key, a new payment that charges at once
    const result = await client.pay(order);
    // assess: then the first key's delayed charge lands too
    await until(started, DELAYED_CHARGE_LANDED_MS);
    const charged = await charges(api(), before);
    expect(result.kind).toBe("succeeded");
    expect(charged).toHaveLength(2);
    expect(new Set(charged.map((c) => c.reference)).size).toBe(2);
  }, 45_000);
});
