import { afterEach, describe, expect, it } from "vitest";
import { type FakePsp, startFakePsp } from "../../psp/src/index";
import { loadConfig } from "../src/config/config";
import { otherDeploymentOf } from "../src/payment/stripe-deployment";
import { PSP_BODY_VERSION } from "../src/psp/psp-port";
import { StripePsp } from "../src/psp/stripe-psp";
import { chargeOf } from "./support/stripe-fake";

const event = (metadata: unknown) => ({
  id: "evt_1",
  type: "payment_intent.succeeded",
  data: { object: { id: "pi_1", object: "payment_intent", metadata } },
});

describe("one Stripe account, several stages", () => {
  it("takes an event of another deployment as another's, and one of ours or of none as possibly ours", () => {
    // act
    const theirs = otherDeploymentOf(event({ payment_id: "pay_1", deployment: "eo-staging" }), "eo-dev");
    const ours = otherDeploymentOf(event({ payment_id: "pay_1", deployment: "eo-dev" }), "eo-dev");
    const unnamed = otherDeploymentOf(event({ payment_id: "pay_1" }), "eo-dev");
    const noName = otherDeploymentOf(event({ deployment: "eo-staging" }), undefined);
    // assess
    expect(theirs).toMatch(/deployment eo-staging, not eo-dev/);
    expect(ours).toBeUndefined();
    expect(unnamed).toBeUndefined();
    expect(noName).toBeUndefined();
  });

  it("reads the deployment's name from DEPLOYMENT_NAME and refuses one that cannot go into a key", () => {
    const env = {
      AWS_REGION: "us-east-1",
      CONTROL_TABLE: "c",
      CLAIM_TABLE: "k",
      LEDGER_TABLE: "l",
      CONSUMER_TABLE: "n",
      EVENTS_QUEUE_URL: "q",
      PSP_URL: "http://127.0.0.1:1",
      REGION_ROLE: "primary",
      CLAIM_MODE: "home",
    };
    expect(loadConfig({ ...env, DEPLOYMENT_NAME: "effectively-once-dev" }).deployment).toBe(
      "effectively-once-dev",
    );
    expect(loadConfig(env).deployment).toBeUndefined();
    expect(() => loadConfig({ ...env, DEPLOYMENT_NAME: "a b" })).toThrow(/DEPLOYMENT_NAME=a b must be/);
  });
});

describe("two stages on one Stripe account derive the same payment id", () => {
  let psp: FakePsp | undefined;
  afterEach(async () => {
    delete process.env.EO_TEST_UNSAFE_ANY_DEPLOYMENT;
    await psp?.stop();
    psp = undefined;
  });
  const endpoint = (p: FakePsp) => ({ host: "127.0.0.1", port: p.port, protocol: "http" as const });
  const payment = (amount: number) => ({ ...chargeOf("pay_same"), amount, bodyVersion: PSP_BODY_VERSION });

  it("charges each stage's payment under its own key, prefixed with its deployment", async () => {
    // prepare
    psp = await startFakePsp({ webhookSecret: "whsec_test", dialect: "stripe" });
    const dev = new StripePsp("sk_test_1", endpoint(psp), undefined, "eo-dev");
    const staging = new StripePsp("sk_test_1", endpoint(psp), undefined, "eo-staging");
    // act
    const a = await dev.charge("pay_same:charge", payment(3000), 5_000);
    const b = await staging.charge("pay_same:charge", payment(3500), 5_000);
    // assess
    expect(a.kind).toBe("done");
    expect(b.kind).toBe("done");
    expect(psp.charges().map((c) => c.idempotency_key)).toEqual([
      "eo-dev/pay_same:charge",
      "eo-staging/pay_same:charge",
    ]);
    expect(psp.charges().map((c) => c.amount)).toEqual([3000, 3500]);
  });

  it("without a deployment name the second stage hears the first's saved answer (the collision it prevents)", async () => {
    // prepare
    psp = await startFakePsp({ webhookSecret: "whsec_test", dialect: "stripe" });
    const dev = new StripePsp("sk_test_1", endpoint(psp));
    const staging = new StripePsp("sk_test_1", endpoint(psp));
    // act
    await dev.charge("pay_same:charge", payment(3000), 5_000);
    const b = await staging.charge("pay_same:charge", payment(3500), 5_000);
    // assess: staging's payment is never charged; it meets dev's key with another body
    expect(b).toMatchObject({ kind: "saved-error", code: "idempotency_error" });
    expect(psp.charges()).toHaveLength(1);
  });

  it("looks a charge up as its own stage's: the other stage's intent under the same payment id is not found", async () => {
    // prepare: dev charged pay_same; staging's pay_same never reached Stripe
    psp = await startFakePsp({ webhookSecret: "whsec_test", dialect: "stripe" });
    const dev = new StripePsp("sk_test_1", endpoint(psp), undefined, "eo-dev");
    const staging = new StripePsp("sk_test_1", endpoint(psp), undefined, "eo-staging");
    await dev.charge("pay_same:charge", payment(3000), 5_000);
    // act
    const ours = await dev.findCharge("pay_same", 5_000);
    const theirs = await staging.findCharge("pay_same", 5_000);
    process.env.EO_TEST_UNSAFE_ANY_DEPLOYMENT = "1";
    const unfiltered = await staging.findCharge("pay_same", 5_000);
    // assess: with the filter off (guard off), staging takes dev's charge for its own payment, which nobody charged
    expect(ours.kind).toBe("done");
    expect(theirs).toEqual({ kind: "not-found" });
    expect(unfiltered.kind).toBe("done");
  });

  it("refunds under the deployment's key prefix, with its name in the refund's metadata", async () => {
    // prepare
    psp = await startFakePsp({ webhookSecret: "whsec_test", dialect: "stripe" });
    const dev = new StripePsp("sk_test_1", endpoint(psp), undefined, "eo-dev");
    const charged = await dev.charge("pay_same:charge", payment(3000), 5_000);
    const intent = charged.kind === "done" ? charged.id : "";
    // act
    const refunded = await dev.refund(
      "pay_same:cancel:refund",
      intent,
      "pay_same",
      5_000,
      "live",
      PSP_BODY_VERSION,
    );
    const v1 = await dev.charge("pay_old:charge", { ...chargeOf("pay_old"), bodyVersion: 1 }, 5_000);
    await dev.refund("pay_old:cancel:refund", v1.kind === "done" ? v1.id : "", "pay_old", 5_000, "live", 1);
    // assess
    const refundId = refunded.kind === "done" ? refunded.id : "";
    const read = await fetch(`http://127.0.0.1:${psp.port}/v1/refunds/${refundId}`, {
      headers: { authorization: "Bearer sk_test_1" },
    }).then((r) => r.json() as Promise<{ metadata: Record<string, string> }>);
    expect(refunded.kind).toBe("done");
    expect(psp.refunds().map((r) => r.idempotency_key)).toEqual([
      "eo-dev/pay_same:cancel:refund",
      "pay_old:cancel:refund",
    ]);
    expect(read.metadata).toEqual({ payment_id: "pay_same", deployment: "eo-dev" });
  });

  it("keeps a version-1 payment's unprefixed key and body after the upgrade", async () => {
    // prepare
    psp = await startFakePsp({ webhookSecret: "whsec_test", dialect: "stripe" });
    const before = new StripePsp("sk_test_1", endpoint(psp));
    const after = new StripePsp("sk_test_1", endpoint(psp), undefined, "eo-dev");
    const v1 = { ...chargeOf("pay_old"), bodyVersion: 1 };
    const first = await before.charge("pay_old:charge", v1, 5_000);
    // act
    const replay = await after.charge("pay_old:charge", v1, 5_000, "resolver");
    // assess
    expect(replay).toEqual(first);
    expect(psp.charges()).toHaveLength(1);
  });
});
