import { randomUUID } from "node:crypto";
import { SQSClient } from "@aws-sdk/client-sqs";
import { describe, expect, it } from "vitest";
import { type PaymentEvent, SqsEventPublisher } from "../../packages/core/src";
import { LOCAL_CREDENTIALS } from "../../packages/local/src/stack/regions";
import { ApiClient, newKey, order42 } from "../support/api-client";
import { useLocalStack } from "../support/local-stack";
import { succeededEvent } from "../support/payment-events";
import { eventually } from "../support/tables";

// Part 9 with Part 5's rule: an event applied in both Regions during a failover (the primary's worker applied it,
// and the promoted standby re-sends it before the primary's inbox item has replicated) converges to one credit,
// because the inbox, the credit record and the balance are written whole under the event's derived id.
// The standby's worker reads its switch from its own environment, set for the whole stack (the case that needs it
// off sends nothing to the standby that a passive worker would apply).
const stack = useLocalStack({ standby: true, replicationLagMs: 1_500 });
const primary = () => new ApiClient(stack().apiUrl);
const standby = () => new ApiClient(stack().standbyUrl ?? "");

/** Sends an event to the standby's queue, as its sweep does after a promotion. */
async function sendInStandby(event: PaymentEvent): Promise<void> {
  const { endpoints, regions } = stack().emulators;
  const sqs = new SQSClient({
    endpoint: endpoints.sqs,
    region: regions.standby.region,
    credentials: LOCAL_CREDENTIALS,
  });
  await new SqsEventPublisher(sqs, regions.standby.queues.events).publish(event);
  sqs.destroy();
}

/** Pays once in the primary and waits for its worker's credit; answers the event the relay sent. */
async function paidAndCredited(merchant: string): Promise<PaymentEvent> {
  const token = await primary().token("u1");
  const paid = await primary().pay(token, newKey(), order42({ merchant_id: merchant }));
  await eventually(
    async () =>
      (await primary().local("GET", `/merchants/${merchant}`)).body.credits === 1 ? true : undefined,
    30_000, // a loaded 2-core machine runs the relay and the worker late
    "the primary's credit",
  );
  const id = String(paid.body.payment_id);
  return succeededEvent(id, merchant, 3000);
}

/** Both Regions' view of the merchant once replication is idle. */
async function converged(merchant: string) {
  await new Promise((r) => setTimeout(r, 500));
  await stack().replicator?.awaitIdle(15_000);
  const [p, s] = await Promise.all(
    [primary(), standby()].map((a) => a.local("GET", `/merchants/${merchant}`)),
  );
  return { primary: p?.body, standby: s?.body };
}

describe("branch F: the same event reaches both Regions' queues", () => {
  it("the passive standby hands it over to the primary, whose inbox drops it: one credit of 3,000 in both Regions", async () => {
    // prepare
    const merchant = `m-${randomUUID()}`;
    const event = await paidAndCredited(merchant);
    // act: the standby's sweep re-sent it, before the primary's inbox item reached the standby
    await sendInStandby(event);
    const seenInStandby = await eventually(
      async () => {
        const m = await standby().local("GET", `/merchants/${merchant}`);
        return m.body.credits === 1 ? m.body : undefined;
      },
      10_000,
      "the standby's credit",
    );
    const after = await converged(merchant);
    // assess
    expect(seenInStandby).toMatchObject({ credits: 1, balance: 3000 });
    expect(after.primary).toMatchObject({ credits: 1, balance: 3000 });
    expect(after.standby).toMatchObject({ credits: 1, balance: 3000 });
  }, 60_000);

  it("counterfactual: a random event id for the re-send is credited again (the seed's m1 = 18,000)", async () => {
    // prepare
    const merchant = `m-${randomUUID()}`;
    const event = await paidAndCredited(merchant);
    // act
    await sendInStandby({ ...event, event_id: randomUUID() });
    const after = await eventually(
      async () => {
        const c = await converged(merchant);
        return c.primary?.credits === 2 ? c : undefined;
      },
      20_000,
      "the second credit",
    );
    // assess
    expect(after.primary).toMatchObject({ credits: 2, balance: 6000 });
    expect(after.standby).toMatchObject({ credits: 2, balance: 6000 });
  }, 60_000);
});

describe("a passive Region's worker", () => {
  it("applies nothing on its own replica: it hands the event over to the active Region's queue", async () => {
    // prepare: the standby's replica knows nothing of the payment
    const merchant = `m-${randomUUID()}`;
    await primary().local("POST", "/replication", { paused: true });
    const event = await paidAndCredited(merchant);
    // act
    await sendInStandby(event);
    await new Promise((r) => setTimeout(r, 3_000));
    const standbyWhilePaused = (await standby().local("GET", `/merchants/${merchant}`)).body;
    const primaryWhilePaused = (await primary().local("GET", `/merchants/${merchant}`)).body;
    await primary().local("POST", "/replication", { paused: false });
    // assess
    expect(standbyWhilePaused).toMatchObject({ credits: 0 });
    expect(primaryWhilePaused).toMatchObject({ credits: 1, balance: 3000 });
    expect((await converged(merchant)).standby).toMatchObject({ credits: 1, balance: 3000 });
  }, 60_000);
});
