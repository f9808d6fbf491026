import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import {
  DynamoInbox,
  DynamoIntentStore,
  eventRecordItem,
  eventRecordKey,
  intentMarkKey,
  intentsOf,
  loadConfig,
  type PaymentEvent,
  readMerchantBalance,
} from "@eo/core";
import { describe, expect, it } from "vitest";
import { CostMeter, type MeteredTable } from "../../bench/cost/cost-meter";
import { useLocalStack } from "../support/local-stack";

useLocalStack();

const SHARDS = 16;

function eventFor(merchant: string): PaymentEvent {
  return {
    event_id: `pay_${merchant}:SUCCEEDED`,
    type: "payment.succeeded",
    payment_id: `pay_${merchant}`,
    merchant_id: merchant,
    caller: "buyer-record",
    email: "buyer@example.com",
    amount: 3000,
    currency: "USD",
    occurred_at: 1_700_000_000_000,
  };
}

/** The worker's client, metered by AWS's billing rules on the consumer table. */
function metered() {
  const table = loadConfig().consumerTable;
  const shape: MeteredTable = { name: table, global: true, keys: ["pk", "sk"], indexes: [] };
  const db = DynamoDBDocumentClient.from(new DynamoDBClient({}), {
    marshallOptions: { removeUndefinedValues: true },
  });
  const images = DynamoDBDocumentClient.from(new DynamoDBClient({}));
  const meter = new CostMeter(new Map([[table, shape]]), (_t, _k, op) => op, images);
  meter.attach(db);
  const done = () => {
    db.destroy();
    images.destroy();
  };
  return { table, db, meter, done };
}

describe("the worker dies after acting (Part 6): the inbox, the credit and the intents are one event record", () => {
  it("applies ev_7 with one conditional put of one item under 1 KB, and drops its redelivery with nothing written", async () => {
    // prepare
    const { table, db, meter, done } = metered();
    const inbox = new DynamoInbox(db, table, SHARDS);
    const event = eventFor(`m-record-${Date.now()}`);
    // act
    const first = await inbox.applyOnce(event, intentsOf(event, 1), 1);
    const again = await inbox.applyOnce(event, intentsOf(event, 2), 2);
    // assess
    expect([first, again]).toEqual(["applied", "duplicate"]);
    const puts = meter.snapshot().get("put");
    expect(puts).toMatchObject({ calls: 2, writeUnits: 1 + 1 }); // the repeat's failed condition is billed once
    const record = await db.send(
      new GetCommand({ TableName: table, Key: eventRecordKey(event, SHARDS), ConsistentRead: true }),
    );
    expect(Buffer.byteLength(JSON.stringify(record.Item))).toBeLessThan(1024);
    expect(record.Item).toMatchObject({
      amount: 3000,
      applied_at: 1,
      intents: { push: { state: "PENDING" }, email: { state: "PENDING", to: "buyer@example.com" } },
    });
    expect(await readMerchantBalance(db, table, event.merchant_id, SHARDS)).toMatchObject({
      balance: 3000,
      credits: 1,
    });
    done();
  });

  it("marks each intent's end by compare-and-set: the push once, the email with its send record in one write", async () => {
    // prepare
    const { table, db, meter, done } = metered();
    const event = eventFor(`m-marks-${Date.now()}`);
    await new DynamoInbox(db, table, SHARDS).applyOnce(event, intentsOf(event, 1), 1);
    const intents = new DynamoIntentStore(db, table, SHARDS);
    const send = { event_id: event.event_id, message_id: "ses-1", to: "buyer@example.com", sent_at: 5 };
    // act
    const pushed = await intents.finish(event, "push", "SENT", 5);
    const pushedAgain = await intents.finish(event, "push", "SENT", 6);
    const emailed = await intents.markEmailSent(event, send, 5);
    const emailedAgain = await intents.markEmailSent(event, { ...send, message_id: "ses-2" }, 6);
    // assess
    expect([pushed, pushedAgain, emailed, emailedAgain]).toEqual([true, false, true, false]);
    const read = await intents.read(event);
    expect(read.push).toMatchObject({ state: "SENT", title: "Payment successful" });
    expect(read.email).toMatchObject({ state: "SENT", to: "buyer@example.com" });
    const mark = await db.send(
      new GetCommand({ TableName: table, Key: intentMarkKey(event, "email", SHARDS), ConsistentRead: true }),
    );
    expect(mark.Item?.email_send).toMatchObject({ message_id: "ses-1" });
    // The record put and four marks, each a put of one small item: a refused one is billed too.
    expect(meter.snapshot().get("put")).toMatchObject({ calls: 5, writeUnits: 5 });
    done();
  });
});

describe("a failover's replicated write of the event record (last writer wins, whole items)", () => {
  it("does not undo a SENT mark: this Region's redelivery still finds the push sent", async () => {
    // prepare: this Region applied the event and sent both intents
    const { table, db, done } = metered();
    const event = eventFor(`m-lww-${Date.now()}`);
    await new DynamoInbox(db, table, SHARDS).applyOnce(event, intentsOf(event, 1), 1);
    const intents = new DynamoIntentStore(db, table, SHARDS);
    await intents.finish(event, "push", "SENT", 5);
    await intents.markEmailSent(
      event,
      { event_id: event.event_id, message_id: "ses-1", to: "b@x", sent_at: 5 },
      5,
    );
    // act: the other Region's own record of the event arrives later, as replication applies it (whole, intents PENDING)
    await db.send(
      new PutCommand({ TableName: table, Item: eventRecordItem(event, intentsOf(event, 9), SHARDS, 9) }),
    );
    // assess: the record says PENDING again, and still the intents read as sent
    const record = await db.send(
      new GetCommand({ TableName: table, Key: eventRecordKey(event, SHARDS), ConsistentRead: true }),
    );
    expect(record.Item?.intents).toMatchObject({ push: { state: "PENDING" }, email: { state: "PENDING" } });
    const read = await intents.read(event);
    expect(read.push?.state).toBe("SENT");
    expect(read.email?.state).toBe("SENT");
    done();
  });
});
