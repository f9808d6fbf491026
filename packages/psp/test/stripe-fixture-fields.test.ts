import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import type { StripeEvent } from "../src/index";
import { intentParams, type StripeRig, startRig } from "./stripe-harness";

/** The top-level field names of Stripe's published fixtures, derived with their source (see the file's `source`). */
interface FixtureFields {
  source: { repo: string; path: string; commit: string };
  fields: Record<"payment_intent" | "charge" | "refund" | "event", string[]>;
}

const FIXTURES = JSON.parse(
  readFileSync(new URL("./fixtures/stripe-fixture-fields.json", import.meta.url), "utf8"),
) as FixtureFields;

/** The fixture's fields an object lacks (none when it carries them all). */
function missingFields(object: object, fields: string[]): string[] {
  return fields.filter((f) => !(f in object));
}

let rig: StripeRig | undefined;

afterEach(async () => {
  await rig?.psp.stop();
  rig = undefined;
});

async function objectsOfTheFake(r: StripeRig) {
  const params = intentParams("pay_1", { expand: ["latest_charge"] });
  const intent = await r.stripe.paymentIntents.create(params, { idempotencyKey: "k1" });
  const refund = await r.stripe.refunds.create({ payment_intent: intent.id }, { idempotencyKey: "r1" });
  const charge = await r.stripe.charges.retrieve(refund.charge as string);
  const [event] = r.psp.webhookEvents() as StripeEvent[];
  return { intent, refund, charge, event: event as StripeEvent };
}

describe("the fake's objects against Stripe's published fixtures", () => {
  it("carry every field of the fixtures of PaymentIntent, Charge, Refund and Event", async () => {
    // prepare
    rig = await startRig({ dialect: "stripe" });
    // act
    const { intent, refund, charge, event } = await objectsOfTheFake(rig);
    // assess
    expect(FIXTURES.source).toMatchObject({ repo: "stripe/openapi", path: "openapi/fixtures3.json" });
    expect(missingFields(intent, FIXTURES.fields.payment_intent)).toEqual([]);
    expect(missingFields(intent.latest_charge as object, FIXTURES.fields.charge)).toEqual([]);
    expect(missingFields(charge, FIXTURES.fields.charge)).toEqual([]);
    expect(missingFields(refund, FIXTURES.fields.refund)).toEqual([]);
    expect(missingFields(event, FIXTURES.fields.event)).toEqual([]);
    expect(missingFields(event.data.object, FIXTURES.fields.payment_intent)).toEqual([]);
    expect(charge.refunds?.data.map((r) => r.id)).toEqual([refund.id]);
  });

  it("is a check that fails when the fake drops a field", async () => {
    // prepare
    rig = await startRig({ dialect: "stripe" });
    const { intent } = await objectsOfTheFake(rig);
    const broken: Record<string, unknown> = { ...intent };
    // act
    delete broken.client_secret;
    // assess
    expect(missingFields(broken, FIXTURES.fields.payment_intent)).toEqual(["client_secret"]);
  });
});
