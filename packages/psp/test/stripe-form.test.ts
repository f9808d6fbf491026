import { describe, expect, it } from "vitest";
import { RequestError } from "../src/http-io";
import { nestForm } from "../src/stripe/form-params";

const form = (text: string) => nestForm(new URLSearchParams(text).entries());

describe("Stripe's form-encoded bodies", () => {
  it("nest bracketed keys into maps and lists", () => {
    // prepare
    const text =
      "amount=3000&metadata[payment_id]=pay_1&expand[0]=latest_charge&payment_method_types[]=card" +
      "&automatic_payment_methods[enabled]=true&created[gte]=10";
    // act
    const nested = form(text);
    // assess
    expect(nested).toEqual({
      amount: "3000",
      metadata: { payment_id: "pay_1" },
      expand: ["latest_charge"],
      payment_method_types: ["card"],
      automatic_payment_methods: { enabled: "true" },
      created: { gte: "10" },
    });
  });

  it("keep list order past ten items and sort map keys, so a fingerprint ignores field order", () => {
    // prepare
    const items = Array.from({ length: 12 }, (_, i) => `expand[${i}]=e${i}`).join("&");
    // act
    const nested = form(items);
    const a = JSON.stringify(form("metadata[b]=2&metadata[a]=1&amount=1"));
    const b = JSON.stringify(form("amount=1&metadata[a]=1&metadata[b]=2"));
    // assess
    expect(nested.expand).toEqual(Array.from({ length: 12 }, (_, i) => `e${i}`));
    expect(a).toBe(b);
  });

  it("refuse a key that is a value and a map at once", () => {
    expect(() => form("metadata=x&metadata[a]=1")).toThrow(RequestError);
  });
});
