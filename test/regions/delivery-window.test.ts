import { randomUUID } from "node:crypto";
import { GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { afterEach, describe, expect, it } from "vitest";
import {
  type OutboxItem,
  outboxIndexKey,
  outboxKey,
  type RegionControl,
  type RegionRole,
} from "../../packages/core/src";
import { clock } from "../../packages/core/src/clock/clock";
import { authorityStore, regionDocumentClient } from "../../packages/local/src/region/control-table";
import { ApiClient } from "../support/api-client";
import { useLocalStack } from "../support/local-stack";
import { controlSeen } from "../support/regions";
import { eventually } from "../support/tables";

// The primary runs in this process: its EO_TEST_UNSAFE_… switches are this process's environment. A short control
// cache keeps the file quick (the window is still its default, 30 s of delivery before the switch).
Object.assign(process.env, { REGION_CONTROL_CACHE_MS: "300" });
const stack = useLocalStack({ standby: true, replicationLagMs: 200 });
const api = (role: RegionRole) =>
  new ApiClient((role === "primary" ? stack().apiUrl : stack().standbyUrl) ?? "");

// The blip's tests run first, while the authority names the primary; the failovers' leave it naming the standby.
afterEach(async () => {
  delete process.env.EO_TEST_UNSAFE_DRAIN_UNTIL_SWITCH;
  delete process.env.EO_TEST_UNSAFE_RELAY_DROPS_UNREAD;
  await api("primary").local("POST", "/regions/primary/heal");
  await api("primary").local("POST", "/replication", { paused: false });
});

/** A committed `payment.succeeded` event of the primary's, not yet relayed, in the given Regions' ledgers. */
async function committedEvent(merchant: string, regions: RegionRole[]): Promise<OutboxItem> {
  const paymentId = `pay_${randomUUID()}`;
  const now = Date.now();
  const event: OutboxItem = {
    event_id: `${paymentId}:SUCCEEDED`,
    type: "payment.succeeded",
    payment_id: paymentId,
    merchant_id: merchant,
    caller: "u1",
    amount: 3000,
    currency: "USD",
    created_at: now,
    origin_region: "primary",
  };
  for (const role of regions) {
    const r = stack().emulators.regions[role];
    await regionDocumentClient(stack().emulators, role).send(
      new PutCommand({
        TableName: r.ledgerTable,
        Item: { ...outboxKey(event.event_id), ...event, ...outboxIndexKey(paymentId, now) },
      }),
    );
  }
  return event;
}

const creditsIn = async (role: RegionRole, merchant: string): Promise<number> =>
  Number((await api(role).local("GET", `/merchants/${merchant}`)).body.credits ?? 0);

const stillInOutbox = async (role: RegionRole, event: OutboxItem): Promise<boolean> => {
  const r = stack().emulators.regions[role];
  const got = await regionDocumentClient(stack().emulators, role).send(
    new GetCommand({ TableName: r.ledgerTable, Key: outboxKey(event.event_id), ConsistentRead: true }),
  );
  return got.Item !== undefined;
};

/**
 * The primary's relay meets a committed event while it cannot read the authority, for about `blipMs`, then can
 * again. Answers whether the event was credited within `waitMs` of the blip's end, and whether it is still in the
 * outbox then (waiting for a sweep, minutes away).
 */
async function relayDuringAnAuthorityBlip(blipMs: number, waitMs: number) {
  const merchant = `m-${randomUUID()}`;
  await api("primary").local("POST", "/regions/primary/partition");
  await controlSeen(); // the relay's last good read is past its cache
  const event = await committedEvent(merchant, ["primary"]);
  await new Promise((r) => setTimeout(r, blipMs));
  await api("primary").local("POST", "/regions/primary/heal");
  const credited = await eventually(
    async () => ((await creditsIn("primary", merchant)) === 1 ? true : undefined),
    waitMs,
    "the relayed event's credit",
  ).catch(() => false);
  return { credited, inOutbox: await stillInOutbox("primary", event) };
}

describe("an authority blip: the relay's batch is retried, not dropped", () => {
  it("the relay that cannot read the authority fails its batch; the retry after the blip delivers it at once", async () => {
    // act
    const seen = await relayDuringAnAuthorityBlip(800, 10_000);
    // assess
    expect(seen).toEqual({ credited: true, inOutbox: false });
  }, 30_000);

  it("counterfactual (EO_TEST_UNSAFE_RELAY_DROPS_UNREAD): the relay answers success and the event waits for a sweep, minutes late", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_RELAY_DROPS_UNREAD = "1";
    // act
    const seen = await relayDuringAnAuthorityBlip(800, 2_000);
    // assess: well past the retried batch's delivery above, the event is still in the outbox
    expect(seen).toEqual({ credited: false, inOutbox: true });
  }, 30_000);
});

/**
 * A planned failover primary → standby whose switch is `inMs` away: the primary is drained, and the event it
 * committed (in both Regions' ledgers; its relay's delete and its inbox not yet replicated) lands in the window.
 * The standby's resume sweep runs once it acts. Answers the merchant's credits in each Region.
 */
async function plannedFailoverWithADeliveryInTheWindow(inMs: number) {
  const merchant = `m-${randomUUID()}`;
  await api("primary").local("POST", "/replication", { paused: true });
  const authority = authorityStore(stack().emulators);
  const epoch = ((await authority.read())?.epoch ?? 0) + 1;
  // On the stack's clock, which the gates compare `active_from` with (an earlier test here moved it).
  const activeFrom = clock.now() + inMs;
  const next: RegionControl = {
    active: "standby",
    epoch,
    updated_at: Date.now(),
    reason: "planned failover (test)",
    active_from: activeFrom,
    drains: "primary",
  };
  await authority.write(next);
  await controlSeen();
  // act: the primary's relay meets the event inside the window
  await committedEvent(merchant, ["primary", "standby"]);
  await new Promise((r) => setTimeout(r, Math.max(0, activeFrom - clock.now())));
  await controlSeen();
  await api("primary").local("POST", "/clock", { advance_s: 180 });
  await api("standby").local("POST", "/run/sweeps");
  await eventually(
    async () => ((await creditsIn("standby", merchant)) === 1 ? true : undefined),
    10_000,
    "the standby's credit of the swept event",
  );
  return {
    primary: await creditsIn("primary", merchant),
    standby: await creditsIn("standby", merchant),
  };
}

describe("a planned failover: delivery ends before the target starts", () => {
  it("the drained primary delivers nothing past active_from minus its longest delivery: one receipt, the standby's", async () => {
    // act
    const credits = await plannedFailoverWithADeliveryInTheWindow(1_500);
    // assess
    expect(credits).toEqual({ primary: 0, standby: 1 });
  }, 60_000);

  it("counterfactual (EO_TEST_UNSAFE_DRAIN_UNTIL_SWITCH): the primary delivers up to the switch and the standby's sweep sends it again: two receipts", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_DRAIN_UNTIL_SWITCH = "1";
    // act
    const credits = await plannedFailoverWithADeliveryInTheWindow(1_500);
    // assess
    expect(credits).toEqual({ primary: 1, standby: 1 });
  }, 60_000);
});
