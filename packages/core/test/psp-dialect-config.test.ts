import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import {
  ConfigError,
  loadConfig,
  pspDialectOf,
  STRIPE_API_URL,
  secretOfRole,
  stripeEndpointOf,
  withInvocationLinks,
} from "../src/config/config";
import { webhookSecretOf } from "../src/payment/webhook-secret-of";
import { HttpPsp } from "../src/psp/http-psp";
import { pspPortOf } from "../src/psp/psp-of-dialect";
import { StripePsp } from "../src/psp/stripe-psp";
import { signWebhook } from "../src/psp/webhook-signature";

const COMPLETE: NodeJS.ProcessEnv = {
  AWS_REGION: "us-east-1",
  REGION_ROLE: "primary",
  CONTROL_TABLE: "control-t",
  CLAIM_MODE: "home",
  CLAIM_TABLE: "claims-t",
  LEDGER_TABLE: "ledger-t",
  CONSUMER_TABLE: "consumer-t",
  EVENTS_QUEUE_URL: "https://sqs.us-east-1.amazonaws.com/123456789012/events.fifo",
  PSP_URL: "https://psp.example.com",
};

describe("PSP=stripe|generic: the stage's dialect", () => {
  it.each([
    [undefined, "generic"],
    ["", "generic"],
    ["generic", "generic"],
    ["stripe", "stripe"],
  ])("PSP=%s reads as %s", (raw, dialect) => {
    // act / assess
    expect(pspDialectOf(raw === undefined ? {} : { PSP: raw })).toBe(dialect);
    expect(loadConfig({ ...COMPLETE, ...(raw === undefined ? {} : { PSP: raw }) }).psp).toBe(dialect);
  });

  it.each(["Stripe", "STRIPE", "stripe ", "http", "adyen", "true"])(
    "PSP=%s is refused with a message naming the variable and both values",
    (raw) => {
      // act / assess
      expect(() => loadConfig({ ...COMPLETE, PSP: raw })).toThrow(ConfigError);
      expect(() => pspDialectOf({ PSP: raw })).toThrow(
        `PSP must be "generic" or "stripe" (got "${raw}"); refusing to start`,
      );
    },
  );

  it("a Stripe stage without PSP_URL talks to Stripe's API; a generic one still requires PSP_URL", () => {
    // prepare
    const { PSP_URL: _, ...noUrl } = COMPLETE;
    // act / assess
    expect(loadConfig({ ...noUrl, PSP: "stripe" }).pspUrl).toBe(STRIPE_API_URL);
    expect(loadConfig({ ...COMPLETE, PSP: "stripe" }).pspUrl).toBe("https://psp.example.com");
    expect(() => loadConfig(noUrl)).toThrow(/PSP_URL is not set/);
    expect(stripeEndpointOf(STRIPE_API_URL)).toEqual({
      host: "api.stripe.com",
      port: 443,
      protocol: "https",
    });
    expect(stripeEndpointOf("http://127.0.0.1:4010")).toEqual({
      host: "127.0.0.1",
      port: 4010,
      protocol: "http",
    });
  });

  it("the API key is Stripe's secret key on a Stripe stage, the PSP's own on a generic one", () => {
    // prepare
    const env = { ...COMPLETE, PSP_API_KEY: "sk_generic", STRIPE_SECRET_KEY: "sk_test_stripe" };
    // act / assess
    expect(loadConfig(env).pspApiKey).toBe("sk_generic");
    expect(loadConfig({ ...env, PSP: "stripe" }).pspApiKey).toBe("sk_test_stripe");
    expect(secretOfRole("apiKey", "stripe")).toBe("stripeSecretKey");
    expect(secretOfRole("apiKey", "generic")).toBe("apiKey");
    expect(secretOfRole("stripeWebhookSecret", "generic")).toBe("stripeWebhookSecret");
  });

  it("the port is Stripe's adapter on a Stripe stage and the HTTP client on a generic one", () => {
    // act / assess
    expect(pspPortOf({ psp: "stripe", pspUrl: STRIPE_API_URL, apiKey: "sk_test_x" })).toBeInstanceOf(
      StripePsp,
    );
    expect(pspPortOf({ psp: "generic", pspUrl: "http://127.0.0.1:1", apiKey: "sk_x" })).toBeInstanceOf(
      HttpPsp,
    );
  });
});

describe("a webhook route's secret, by the stage's dialect", () => {
  it("is read from its link on a stage of its dialect", () => {
    // prepare
    const config = loadConfig({ ...COMPLETE, PSP: "stripe" });
    // act
    const secret = withInvocationLinks({ StripeWebhookSecret: { value: "whsec_s" } }, () =>
      webhookSecretOf(config, "stripe"),
    );
    // assess
    expect(secret).toBe("whsec_s");
  });

  it("answers 404 naming the right route on a stage of the other dialect, where it is not linked", () => {
    // prepare
    const config = loadConfig(COMPLETE);
    // act / assess
    withInvocationLinks({ PspWebhookSecret: { value: "whsec_g" } }, () => {
      expect(() => webhookSecretOf(config, "stripe")).toThrow(
        expect.objectContaining({ kind: "not-found", detail: expect.stringContaining("POST /webhooks/psp") }),
      );
    });
  });

  it("the generic route on a Stripe stage answers 404 naming /webhooks/stripe", () => {
    // prepare
    const config = loadConfig({ ...COMPLETE, PSP: "stripe" });
    // act / assess
    withInvocationLinks({ StripeWebhookSecret: { value: "whsec_s" } }, () => {
      expect(() => webhookSecretOf(config, "generic")).toThrow(
        expect.objectContaining({
          kind: "not-found",
          detail: expect.stringContaining("POST /webhooks/stripe"),
        }),
      );
    });
  });

  it("stays a loud ConfigError on a stage of its own dialect without the link (a broken deployment)", () => {
    // prepare
    const config = loadConfig({ ...COMPLETE, PSP: "stripe" });
    // act / assess
    withInvocationLinks({}, () => expect(() => webhookSecretOf(config, "stripe")).toThrow(ConfigError));
  });
});

describe("Stripe-Signature is the same HMAC scheme as Psp-Signature", () => {
  it("the SDK's test header equals ours for the same secret, body and time, and the SDK accepts ours", () => {
    // prepare
    const body = JSON.stringify({ id: "evt_1", object: "event" });
    const t = 1_764_590_400;
    // act
    const sdk = Stripe.webhooks.generateTestHeaderString({ payload: body, secret: "whsec_x", timestamp: t });
    const ours = signWebhook("whsec_x", body, t);
    // assess
    expect(ours).toBe(sdk);
    expect(Stripe.webhooks.constructEvent(body, ours, "whsec_x", 300, undefined, t * 1000).id).toBe("evt_1");
  });
});
