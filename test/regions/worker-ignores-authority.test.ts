import { randomUUID } from "node:crypto";
import { SQSClient } from "@aws-sdk/client-sqs";
import { describe, expect, it } from "vitest";
import { SqsEventPublisher } from "../../packages/core/src";
import { LOCAL_CREDENTIALS } from "../../packages/local/src/stack/regions";
import { ApiClient, newKey, order42 } from "../support/api-client";
import { useLocalStack } from "../support/local-stack";
import { succeededEvent } from "../support/payment-events";
import { eventually } from "../support/tables";

// The counterfactual of the worker's gate: the standby's worker applies what reaches its queue although the
// authority names the primary (EO_TEST_UNSAFE_WORKER_IGNORES_AUTHORITY, in the standby's environment alone).
const stack = useLocalStack({
  standby: true,
  replicationLagMs: 1_500,
  standbyEnv: { EO_TEST_UNSAFE_WORKER_IGNORES_AUTHORITY: "1" },
});
const primary = () => new ApiClient(stack().apiUrl);
const standby = () => new ApiClient(stack().standbyUrl ?? "");

describe("a passive Region's worker, counterfactual: it ignores the authority", () => {
  it("credits the event on its own replica beside the primary's inbox: the effect happens in two Regions", async () => {
    // prepare: a payment credited in the primary, none of it replicated
    const merchant = `m-${randomUUID()}`;
    await primary().local("POST", "/replication", { paused: true });
    const token = await primary().token("u1");
    const paid = await primary().pay(token, newKey(), order42({ merchant_id: merchant }));
    await eventually(
      async () =>
        (await primary().local("GET", `/merchants/${merchant}`)).body.credits === 1 ? true : undefined,
      10_000,
      "the primary's credit",
    );
    const id = String(paid.body.payment_id);
    // act: the standby's queue receives the same event (its sweep's re-send)
    const { endpoints, regions } = stack().emulators;
    const sqs = new SQSClient({
      endpoint: endpoints.sqs,
      region: regions.standby.region,
      credentials: LOCAL_CREDENTIALS,
    });
    await new SqsEventPublisher(sqs, regions.standby.queues.events).publish(
      succeededEvent(id, merchant, 3000),
    );
    sqs.destroy();
    const standbyCredit = await eventually(
      async () => {
        const m = (await standby().local("GET", `/merchants/${merchant}`)).body;
        return m.credits === 1 ? m : undefined;
      },
      10_000,
      "the standby's own credit",
    );
    await primary().local("POST", "/replication", { paused: false });
    // assess: applied in the passive Region while the primary had applied it too
    expect(standbyCredit).toMatchObject({ credits: 1, balance: 3000 });
  }, 60_000);
});
