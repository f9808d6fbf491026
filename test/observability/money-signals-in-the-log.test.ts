/**
 * The signals that page on money and on buyers left without a message, read from the handlers' log output (the
 * embedded metric format) on the local stack: an anomaly from the PSP's webhook, a notification refused for good,
 * and the nightly reconcile's counts. Their alarms are PaymentAnomalies, NotificationsFailedForGood and the two
 * reconcile alarms (stacks/on-call-signals.ts).
 */
import { randomUUID } from "node:crypto";
import { SetEndpointAttributesCommand, SNSClient } from "@aws-sdk/client-sns";
import { DynamoDeviceStore, documentClient, loadConfig } from "@eo/core";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { advanceClock, clock } from "../../packages/core/src/clock/clock";
import { paymentIdOf } from "../../packages/core/src/ids/derive-ids";
import { signWebhook } from "../../packages/core/src/psp/webhook-signature";
import { LOCAL_CREDENTIALS } from "../../packages/local/src/stack/regions";
import { buyer, intentOf, merchantId, pay, settled } from "../async/support/async-stack";
import { ApiClient, newKey, order42 } from "../support/api-client";
import { watchEmf } from "../support/emf";
import { useLocalStack } from "../support/local-stack";
import { makeActive } from "../support/regions";

const emf = watchEmf();
const stack = useLocalStack();
const api = () => new ApiClient(stack().apiUrl);
const values = (name: string) => emf.of(name).map((m) => m.value);

afterEach(async () => {
  await makeActive(stack(), "primary");
  emf.clear();
});
afterAll(() => emf.stop());

describe("a charge.succeeded for a FAILED payment", () => {
  it("publishes one PaymentAnomalies from the webhook, and none for the same event sent again", async () => {
    // prepare: a declined payment, then the PSP says it charged it after all
    stack().psp.setWebhookUrl(undefined);
    const token = await api().token("u-anomaly");
    const declined = await api().pay(token, newKey(), order42({ payment_method: "pm_card_declined" }));
    const paymentId = String(declined.body.payment_id);
    const body = JSON.stringify({
      id: `evt_${randomUUID()}`,
      type: "charge.succeeded",
      data: { charge: { id: "ch_surprise", idempotency_key: `${paymentId}:charge`, reference: paymentId } },
    });
    const deliver = () =>
      api().send(
        "POST",
        "/webhooks/psp",
        { "psp-signature": signWebhook("whsec_local", body, Math.floor(clock.now() / 1000)) },
        body,
      );
    emf.clear();
    // act
    const first = await deliver();
    const again = await deliver();
    // assess
    expect([declined.status, first.status, again.status]).toEqual([402, 200, 200]);
    expect(values("PaymentAnomalies")).toEqual([1]);
    expect(emf.of("PaymentAnomalies")[0]?.dimensions.service).toBe("effectively-once");
  });
});

describe("a push that SNS refuses for good", () => {
  it("publishes NotificationsFailedPermanently from the worker, and the intent is FAILED", async () => {
    // prepare: the local push provider's test fault refuses every Publish to this buyer's endpoint
    const b = await buyer(stack(), "refused", { phone: "apns" });
    const [device] = await new DynamoDeviceStore(documentClient(), loadConfig().consumerTable).list(b.caller);
    const sns = new SNSClient({
      endpoint: process.env.AWS_ENDPOINT_URL_SNS,
      region: stack().emulators.regions.primary.region,
      credentials: LOCAL_CREDENTIALS,
    });
    await sns.send(
      new SetEndpointAttributesCommand({
        EndpointArn: device?.endpoint_arn,
        Attributes: { EO_TEST_FAULT: "InvalidParameter" },
      }),
    );
    sns.destroy();
    emf.clear();
    // act
    const paid = await pay(stack(), b, { merchant: merchantId("m-refused") });
    await settled(stack(), paid.eventId, ["push"]);
    // assess
    expect(await intentOf(paid.eventId, "push")).toMatchObject({ state: "FAILED" });
    expect(values("NotificationsFailedPermanently")).toEqual([1]);
  });
});

describe("the nightly reconcile", () => {
  it("publishes a lost payment as ReconcileDiscrepancies with its run, and a passive Region only its run", async () => {
    // prepare: a charge at the PSP under our reference with no ledger row, two minutes old
    const reference = paymentIdOf("u-reconcile", randomUUID());
    await fetch(`${stack().psp.url}/v1/charges`, {
      method: "POST",
      headers: {
        authorization: "Bearer sk_local",
        "idempotency-key": randomUUID(),
        "content-type": "application/json",
      },
      body: JSON.stringify({ amount: 3000, currency: "usd", payment_method: "pm_1", reference }),
    });
    advanceClock(2 * 60_000);
    const { handler } = await import("@eo/functions/cron/reconcile");
    emf.clear();
    // act
    await handler();
    const active = { found: values("ReconcileDiscrepancies"), runs: values("ReconcileRuns") };
    await makeActive(stack(), "standby");
    emf.clear();
    await handler();
    const passive = { found: values("ReconcileDiscrepancies"), runs: values("ReconcileRuns") };
    // assess
    expect(active.found).toEqual([1]);
    expect(active.runs).toEqual([1]);
    expect(passive).toEqual({ found: [], runs: [1] });
  });
});
