import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/config/config";
import { otherDeploymentOf } from "../src/payment/stripe-deployment";

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
