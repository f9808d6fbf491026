import { type FakePsp, startFakePsp } from "@eo/psp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { externalPspOf } from "../../packages/local/src/stack/external-psp";
import { localSecrets } from "../../packages/local/src/stack/handler-env";
import { startBanner } from "../../packages/local/src/stack/start-banner";
import { type LocalStack, startLocalStack } from "../../packages/local/src/stack/start-stack";
import { ApiClient, newKey, order42 } from "../support/api-client";

// "npm start against a real PSP": a second, separate Stripe-dialect PSP stands for Stripe's test mode (nothing here
// reaches beyond loopback); the stack must call it, start no fake of its own, and say so.
describe("npm start with PSP_URL: the stack calls that PSP instead of its fake", () => {
  let real: FakePsp;
  let stack: LocalStack;
  beforeAll(async () => {
    real = await startFakePsp({
      dialect: "stripe",
      webhookSecret: localSecrets().StripeWebhookSecret ?? "",
      webhookRetry: { baseMs: 100, maxMs: 1_000, maxAttempts: 5, firstMs: 100 },
    });
    const env = { PSP_URL: real.url, STRIPE_SECRET_KEY: "sk_test_local" };
    const choice = externalPspOf(env, "stripe");
    if (!choice) throw new Error("PSP_URL was not read");
    stack = await startLocalStack({
      resolverEveryMs: 0,
      sweepsEveryMs: 0,
      standby: false,
      pspDialect: "stripe",
      externalPsp: choice,
    });
    // What `stripe listen --forward-to` does for the real one.
    real.setWebhookUrl(`${stack.apiUrl}${stack.webhookPath}`);
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    await real?.stop();
  }, 60_000);

  it("charges at the PSP that PSP_URL names, and its banner says a real PSP is called", async () => {
    // prepare
    const api = new ApiClient(stack.apiUrl);
    const token = await api.token("u1");
    // act
    const paid = await api.pay(token, newKey(), order42());
    const banner = startBanner(stack, 1, "TOKEN");
    // assess
    expect(paid.status).toBe(201);
    expect(real.charges().map((c) => c.reference)).toContain(paid.body.payment_id);
    expect(stack.psp.url).toBe(real.url);
    expect(banner).toContain(`REAL PSP       ${real.url}`);
    expect(banner).toContain(`stripe listen --forward-to ${stack.apiUrl}/webhooks/stripe`);
    expect(banner).not.toMatch(/^\s+fake PSP/m);
  });

  it("answers 501 for what only the fake keeps, naming where to look", async () => {
    // act
    const charges = await new ApiClient(stack.apiUrl).local("GET", "/psp/charges");
    // assess
    expect(charges.status).toBe(501);
    expect(String(charges.body.detail)).toMatch(/real PSP \(PSP_URL\).*Stripe dashboard/);
  });
});

describe("npm start refuses a real PSP it must not call", () => {
  it("refuses a Stripe live-mode key, a Stripe stage without its key, and a PSP_URL that is no URL", () => {
    expect(() =>
      externalPspOf({ PSP_URL: "https://api.stripe.com", STRIPE_SECRET_KEY: "sk_live_x" }, "stripe"),
    ).toThrow(/live-mode key/);
    expect(() => externalPspOf({ PSP_URL: "https://api.stripe.com" }, "stripe")).toThrow(
      /needs STRIPE_SECRET_KEY/,
    );
    expect(() => externalPspOf({ PSP_URL: "api.stripe.com" }, "stripe")).toThrow(/is not a URL/);
    expect(externalPspOf({}, "stripe")).toBeUndefined();
    expect(
      externalPspOf({ PSP_URL: "https://api.stripe.com/", STRIPE_SECRET_KEY: "sk_test_1" }, "stripe"),
    ).toEqual({
      url: "https://api.stripe.com",
      dialect: "stripe",
    });
  });
});
