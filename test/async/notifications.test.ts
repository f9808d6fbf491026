import { admitMessage, type DedupStore, DynamoDedupStore, documentClient, loadConfig } from "@eo/core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { LocalStack } from "../../packages/local/src/stack/start-stack";
import {
  armFaults,
  assertOneShown,
  buyer,
  drained,
  emailsTo,
  intentOf,
  merchantId,
  merchantOf,
  pay,
  registerDevice,
  screenOf,
  settled,
  startAsyncStack,
  watchMetrics,
} from "./support/async-stack";

let stack: LocalStack;

beforeAll(async () => {
  stack = await startAsyncStack();
});
afterAll(async () => {
  await stack?.stop();
});
afterEach(async () => {
  await fetch(`${stack.apiUrl}/_local/faults`, { method: "DELETE" });
});

describe("P4: the worker dies after the commit and after the push", () => {
  it("credits once, and the next delivery finishes the push with the same replace id: one shown, at most two alerts", async () => {
    // prepare
    const metrics = await watchMetrics();
    const b = await buyer(stack, "p4", { phone: "apns", email: true });
    const m = merchantId("m-p4");
    await armFaults(stack, { worker_crash_after_send: 1 });
    // act
    const { eventId, body } = await pay(stack, b, { merchant: m });
    await settled(stack, eventId, ["push", "email"]);
    // assess
    assertOneShown(await screenOf(stack, b), body.payment_id, 2);
    expect(await merchantOf(stack, m)).toMatchObject({ credits: 1, balance: 3000 });
    expect(metrics.count("InboxDuplicatesDropped")).toBe(1);
    expect(metrics.count("NotificationsFinishedByRedelivery")).toBe(2);
    expect(await emailsTo(stack, b.email as string)).toHaveLength(1);
    metrics.stop();
  });
});

describe("Branch R: marked done, crashed before sending", () => {
  it("the redelivery finds the inbox done and still notifies: ready means notified", async () => {
    // prepare
    const metrics = await watchMetrics();
    const b = await buyer(stack, "branch-r", { phone: "fcm", email: true });
    const m = merchantId("m-r");
    await armFaults(stack, { worker_crash_after_commit: 1 });
    // act
    const { eventId, body } = await pay(stack, b, { merchant: m });
    await settled(stack, eventId, ["push", "email"]);
    // assess
    assertOneShown(await screenOf(stack, b), body.payment_id, 1);
    expect(await emailsTo(stack, b.email as string)).toHaveLength(1);
    expect(await merchantOf(stack, m)).toMatchObject({ credits: 1, balance: 3000 });
    expect(metrics.count("NotificationsFinishedByRedelivery")).toBe(2);
    metrics.stop();
  });

  it("when the duplicate is only acknowledged (guard off), m1 is credited and the phone shows nothing", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_DUPLICATE_ONLY_ACKS = "1";
    const b = await buyer(stack, "branch-r-off", { phone: "fcm" });
    const m = merchantId("m-r-off");
    await armFaults(stack, { worker_crash_after_commit: 1 });
    try {
      // act: the crash, then the redelivery after the visibility timeout
      const { eventId } = await pay(stack, b, { merchant: m });
      await drained(stack, eventId);
      // assess
      expect(await merchantOf(stack, m)).toMatchObject({ credits: 1, balance: 3000 });
      expect((await screenOf(stack, b)).shown).toHaveLength(0);
      expect(await intentOf(eventId, "push")).toMatchObject({ state: "PENDING" });
    } finally {
      delete process.env.EO_TEST_UNSAFE_DUPLICATE_ONLY_ACKS;
    }
  });
});

describe("Branch N: the notification record switched off", () => {
  afterEach(() => {
    delete process.env.EO_TEST_UNSAFE_NO_NOTIFICATION_RECORD;
    delete process.env.EO_TEST_UNSAFE_NO_REPLACE_ID;
  });

  it("without the replace id either, every delivery stacks a notification: the P4 assessment fails (the test can fail)", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_NO_NOTIFICATION_RECORD = "1";
    process.env.EO_TEST_UNSAFE_NO_REPLACE_ID = "1";
    const b = await buyer(stack, "branch-n", { phone: "apns" });
    await armFaults(stack, { worker_crash_after_send: 2 });
    // act: three deliveries (two die after pushing)
    const { eventId, body } = await pay(stack, b, { merchant: merchantId("m-n") });
    await drained(stack, eventId);
    // assess
    const screen = await screenOf(stack, b);
    expect(screen).toMatchObject({ alerts: 3 });
    expect(screen.shown).toHaveLength(3);
    expect(() => assertOneShown(screen, body.payment_id, 2)).toThrow(/one notification on the screen, saw 3/);
  });

  it("with the replace id but no record, one notification is shown after several alerts", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_NO_NOTIFICATION_RECORD = "1";
    const b = await buyer(stack, "branch-n-id", { phone: "fcm" });
    await armFaults(stack, { worker_crash_after_send: 2 });
    // act
    const { eventId, body } = await pay(stack, b, { merchant: merchantId("m-n-id") });
    await drained(stack, eventId);
    // assess
    const screen = await screenOf(stack, b);
    assertOneShown(screen, body.payment_id, 3);
    expect(screen.alerts).toBe(3);
  });
});

describe("Email: the same intent processed twice", () => {
  it("sends one email, which carries the payment id", async () => {
    // prepare: no phone, so the first send of the step is the email, and the worker dies right after it
    const b = await buyer(stack, "email", { email: true });
    await armFaults(stack, { worker_crash_after_send: 1 });
    // act
    const { eventId, body } = await pay(stack, b, { merchant: merchantId("m-email") });
    await settled(stack, eventId, ["push", "email"]);
    // assess
    const emails = await emailsTo(stack, b.email as string);
    expect(emails).toHaveLength(1);
    expect(emails[0]?.body.text).toContain(body.payment_id);
    expect(await intentOf(eventId, "email")).toMatchObject({ state: "SENT" });
    expect(await intentOf(eventId, "push")).toMatchObject({
      state: "SUPPRESSED",
      reason: "no-enabled-device",
    });
  });
});

describe("Devices: POST /devices", () => {
  it("returns the same device for the same token, and refuses a body it cannot read", async () => {
    const b = await buyer(stack, "devices");
    const first = await registerDevice(stack, b, "apns", "apns-token-1");
    const again = await registerDevice(stack, b, "apns", "apns-token-1");
    const other = await registerDevice(stack, b, "fcm", "fcm-token-1");
    expect(first.status).toBe(201);
    expect(again).toEqual(first);
    expect(other.body.device_id).not.toBe(first.body.device_id);
    expect((await registerDevice(stack, b, "sms", "x")).status).toBe(400);
  });
});

describe("Logical duplicates: the same buyer pays the same merchant the same amount twice within the window", () => {
  it("credits and emails both payments, but raises one 'paid' alert", async () => {
    // prepare
    const metrics = await watchMetrics();
    const b = await buyer(stack, "logical", { phone: "apns", email: true });
    const m = merchantId("m-logical");
    // act: two taps that made two payments (two keys)
    const first = await pay(stack, b, { merchant: m });
    await settled(stack, first.eventId, ["push", "email"]);
    const second = await pay(stack, b, { merchant: m });
    await settled(stack, second.eventId, ["push", "email"]);
    // assess
    expect(await merchantOf(stack, m)).toMatchObject({ credits: 2, balance: 6000 });
    expect(await emailsTo(stack, b.email as string)).toHaveLength(2);
    assertOneShown(await screenOf(stack, b), first.body.payment_id, 1);
    expect(await intentOf(second.eventId, "push")).toMatchObject({
      state: "SUPPRESSED",
      reason: "logical-duplicate",
    });
    expect(metrics.count("LogicalDuplicatesDropped")).toBe(1);
    metrics.stop();
  });

  it("checks expires_at on read, fails open when the store errors, and counts the per-user cap after dedup", async () => {
    const store = new DynamoDedupStore(documentClient(), loadConfig().consumerTable);
    const policy = { windowS: 60, capPerHour: 2 };
    const msg = (owner: string, businessKey: string) => ({
      recipient: `cap-${Date.now()}`,
      template: "t",
      businessKey,
      owner,
    });
    const t = Date.now();
    const a = msg("ev-a", "k-a");
    expect(await admitMessage(store, policy, a, t)).toEqual({ admit: true, failedOpen: false });
    // the same intent asking again (a redelivery) is not a duplicate of itself, and is not counted twice
    expect(await admitMessage(store, policy, a, t)).toEqual({ admit: true, failedOpen: false });
    const dup = { ...a, owner: "ev-a2" };
    expect(await admitMessage(store, policy, dup, t)).toEqual({ admit: false, reason: "logical-duplicate" });
    expect(await admitMessage(store, policy, { ...a, owner: "ev-b", businessKey: "k-b" }, t)).toMatchObject({
      admit: true,
    });
    expect(await admitMessage(store, policy, { ...a, owner: "ev-c", businessKey: "k-c" }, t)).toEqual({
      admit: false,
      reason: "user-cap",
    });
    // past the window the key is absent by its expires_at, whether or not TTL has deleted it yet
    expect(await store.hold("never-deleted", "x", 100, 160)).toBe(true);
    expect(await store.hold("never-deleted", "y", 150, 210)).toBe(false);
    expect(await store.hold("never-deleted", "y", 161, 221)).toBe(true);
    const broken: DedupStore = {
      hold: () => Promise.reject(new Error("store down")),
      count: () => Promise.reject(new Error("store down")),
    };
    expect(await admitMessage(broken, policy, msg("ev-z", "k-z"), t)).toEqual({
      admit: true,
      failedOpen: true,
    });
  });
});
