import { describe, expect, it } from "vitest";
import { check, DeviceRequest, IdempotencyKey, PaymentId, PaymentRequest, PspEvent } from "../src";

const order = { order_id: "42", amount: 3000, currency: "USD", payment_method: "pm_1", merchant_id: "m1" };
const detailOf = (r: ReturnType<typeof check>) => (r.ok ? "(accepted)" : r.detail);

describe("the payment request schema", () => {
  it("accepts the contract's example and strips fields outside the five", () => {
    const r = check(PaymentRequest, { ...order, tip: 5, note: "x" });
    expect(r).toEqual({ ok: true, value: order });
  });

  it.each([
    [
      "amount 30.5",
      { ...order, amount: 30.5 },
      /amount must be an integer number of minor units \(e\.g\. 3000/,
    ],
    ["amount as text", { ...order, amount: "3000" }, /amount must be an integer/],
    ["amount 0", { ...order, amount: 0 }, /between 1 and 99999999/],
    ["amount 10^8", { ...order, amount: 100_000_000 }, /between 1 and 99999999/],
    ["lower-case currency", { ...order, currency: "usd" }, /ISO 4217 code in upper case, such as USD/],
    ["an unknown currency", { ...order, currency: "XYZ" }, /currency XYZ is not an ISO 4217 code/],
    ["no order_id", { ...order, order_id: undefined }, /order_id must be a non-empty string/],
    [
      "a 129-character method",
      { ...order, payment_method: "p".repeat(129) },
      /payment_method is longer than 128/,
    ],
    ["a merchant with a slash", { ...order, merchant_id: "m/1" }, /merchant_id may only hold/],
    ["an array", [order], /the body must be a JSON object/],
    ["null", null, /the body must be a JSON object/],
  ])("refuses %s, naming the field, the rule and an example", (_what, body, detail) => {
    expect(detailOf(check(PaymentRequest, body))).toMatch(detail);
  });

  it("takes its currencies from the platform, not a hand-kept list", () => {
    for (const code of Intl.supportedValuesOf("currency"))
      expect(check(PaymentRequest, { ...order, currency: code }).ok).toBe(true);
  });
});

describe("keys and ids", () => {
  it.each([
    [undefined, /header is required/],
    ["k".repeat(256), /256 characters; at most 255/],
    ["two words", /may only hold A-Z a-z 0-9 - _ \. :/],
  ])("refuses the Idempotency-Key %s", (key, detail) => {
    expect(detailOf(check(IdempotencyKey, key))).toMatch(detail);
  });

  it("shows a long payment id shortened, with its length", () => {
    const detail = detailOf(check(PaymentId, `pay_${"a".repeat(2_096)}`));
    expect(detail).toMatch(/32 lowercase hex digits.*got pay_a{36}… \(2100 characters\)/);
  });
});

describe("devices and webhooks", () => {
  it("refuses an unknown platform and a token with a space", () => {
    expect(detailOf(check(DeviceRequest, { platform: "sms", token: "t" }))).toMatch(
      /platform must be "apns" or "fcm"/,
    );
    expect(detailOf(check(DeviceRequest, { platform: "fcm", token: "a b" }))).toMatch(
      /token must be 1 to 4096/,
    );
  });

  it("needs a charge reference or key on a PSP event, and names unknown types", () => {
    const charge = { id: "ch_1" };
    expect(detailOf(check(PspEvent, { id: "evt_1", type: "charge.succeeded", data: { charge } }))).toMatch(
      /needs idempotency_key or reference/,
    );
    expect(detailOf(check(PspEvent, { id: "evt_1", type: "charge.exploded", data: { charge } }))).toMatch(
      /type must be one of charge\.succeeded, charge\.failed, refund\.succeeded; got "charge\.exploded"/,
    );
    expect(detailOf(check(PspEvent, { id: "evt_1", type: "charge.failed", data: {} }))).toMatch(
      /data\.charge must be an object/,
    );
  });
});
