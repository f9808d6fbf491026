import { randomUUID } from "node:crypto";
import { GetQueueAttributesCommand, SQSClient } from "@aws-sdk/client-sqs";
import { GetCommand, ScanCommand } from "@aws-sdk/lib-dynamodb";
import {
  CHARGE_JOURNAL_SK,
  type Channel,
  documentClient,
  type IntentMark,
  intentOfRecord,
  isOutboxIndexPk,
  loadConfig,
  type NotificationIntent,
  outboxKey,
  type PaymentEvent,
  paymentKey,
  REFUND_JOURNAL_SK,
  type StoredIntent,
} from "@eo/core";
import { vi } from "vitest";
import { mintToken } from "../../../packages/local/src/runtime/jwt";
import { LOCAL_CREDENTIALS } from "../../../packages/local/src/stack/regions";
import { type LocalStack, startLocalStack } from "../../../packages/local/src/stack/start-stack";

// The handlers' metrics are counted by a spy below; printing their EMF lines would only bury the test output.
process.env.POWERTOOLS_METRICS_DISABLED ??= "true";

/** A queue visibility timeout short enough that a crashed delivery comes back within the test's patience. */
export const TEST_VISIBILITY_S = 2;

/** Starts the whole local stack for one test file, with a short redelivery and any extra tunables. */
export async function startAsyncStack(env: Record<string, string> = {}): Promise<LocalStack> {
  Object.assign(process.env, { EVENTS_VISIBILITY_TIMEOUT_S: String(TEST_VISIBILITY_S), ...env });
  return startLocalStack({ resolverEveryMs: 0, standby: false });
}

/** A buyer: a caller of our own (unique per test), its token, and optionally an email and a phone. */
export interface Buyer {
  caller: string;
  token: string;
  email?: string;
}

/** Makes a buyer with a unique caller id; `phone` registers one device token on that platform. */
export async function buyer(
  stack: LocalStack,
  name: string,
  opts: { email?: boolean; phone?: "apns" | "fcm" } = {},
): Promise<Buyer> {
  const caller = `${name}-${randomUUID().slice(0, 8)}`;
  const email = opts.email ? `${caller}@example.com` : undefined;
  const b: Buyer = { caller, token: await mintToken(caller, email ? { email } : {}), email };
  if (opts.phone) await registerDevice(stack, b, opts.phone, `token-${caller}`);
  return b;
}

/** `POST /devices`, returning the status and body. */
export async function registerDevice(stack: LocalStack, b: Buyer, platform: string, token: string) {
  const res = await fetch(`${stack.apiUrl}/devices`, {
    method: "POST",
    headers: { authorization: `Bearer ${b.token}`, "content-type": "application/json" },
    body: JSON.stringify({ platform, token }),
  });
  return { status: res.status, body: (await res.json()) as { device_id?: string } };
}

/** A merchant id of our own, so that tests never share a balance. */
export const merchantId = (name: string) => `${name}-${randomUUID().slice(0, 8)}`;

/** `POST /payments` with a fresh key (or the one given, for a retry: the same key sends the same request). */
export async function pay(
  stack: LocalStack,
  b: Buyer,
  o: { merchant: string; amount?: number; key?: string },
) {
  const key = o.key ?? randomUUID();
  const res = await fetch(`${stack.apiUrl}/payments`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${b.token}`,
      "content-type": "application/json",
      "idempotency-key": key,
    },
    body: JSON.stringify({
      order_id: `order-${key}`,
      amount: o.amount ?? 3000,
      currency: "USD",
      payment_method: "pm_card",
      merchant_id: o.merchant,
    }),
  });
  const body = (await res.json()) as { payment_id: string; state: string };
  return { status: res.status, body, eventId: `${body.payment_id}:SUCCEEDED` };
}

/** Arms faults through `POST /_local/faults`. */
export async function armFaults(stack: LocalStack, faults: Record<string, number>): Promise<void> {
  const res = await fetch(`${stack.apiUrl}/_local/faults`, { method: "POST", body: JSON.stringify(faults) });
  if (res.status !== 200)
    throw new Error(`arming ${JSON.stringify(faults)} failed: ${res.status} ${await res.text()}`);
}

/** A GET on the local inspection API. */
export async function local<T>(stack: LocalStack, path: string): Promise<T> {
  const res = await fetch(`${stack.apiUrl}${path}`);
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** The phone's screen as `GET /_local/devices/{caller}` shows it. */
export type Screen = {
  shown: Array<{ replace_id: string | null; title: string; body: string }>;
  alerts: number;
};
/** The buyer's screen. */
export const screenOf = (stack: LocalStack, b: Buyer) =>
  local<Screen>(stack, `/_local/devices/${encodeURIComponent(b.caller)}`);
/** The merchant's balance and credit count. */
export const merchantOf = (stack: LocalStack, m: string) =>
  local<{ balance: number | null; credits: number }>(stack, `/_local/merchants/${m}`);
/** The emails SES accepted for an address. */
export const emailsTo = (stack: LocalStack, to: string) =>
  local<Array<{ subject: string; body: { text?: string } }>>(
    stack,
    `/_local/emails?to=${encodeURIComponent(to)}`,
  );

/** Polls `probe` until `done` holds, within a bounded deadline; the error names what was awaited and the last value. */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T>,
  done: (v: T) => boolean,
  timeoutMs = 20_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  while (Date.now() < deadline) {
    last = await probe();
    if (done(last)) return last;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last seen: ${JSON.stringify(last)}`);
}

/** The events queue's depth: waiting and in flight. */
export async function queueDepth(
  stack: LocalStack,
  queueUrl = stack.emulators.regions.primary.queues.events,
) {
  const sqs = sqsOf(stack);
  try {
    const { Attributes: a } = await sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: queueUrl,
        AttributeNames: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"],
      }),
    );
    return {
      waiting: Number(a?.ApproximateNumberOfMessages ?? 0),
      inFlight: Number(a?.ApproximateNumberOfMessagesNotVisible ?? 0),
    };
  } finally {
    sqs.destroy();
  }
}

/** An SQS client on the stack's fauxqs (its queue URLs name a host that does not resolve). */
export function sqsOf(stack: LocalStack): SQSClient {
  const { endpoints, regions } = stack.emulators;
  return new SQSClient({
    endpoint: endpoints.sqs,
    region: regions.primary.region,
    credentials: LOCAL_CREDENTIALS,
    useQueueUrlAsEndpoint: false,
  });
}

/** Waits until the event's intents are final, its outbox item is gone and the queue holds nothing: nothing more can happen. */
export async function settled(
  stack: LocalStack,
  eventId: string,
  channels: Channel[] = ["push"],
): Promise<void> {
  await eventually(
    `the intents of ${eventId} to be final`,
    () => Promise.all(channels.map((c) => intentOf(eventId, c))),
    (xs) => xs.every((x) => x !== undefined && x.state !== "PENDING"),
  );
  await drained(stack, eventId);
}

/** Waits until the outbox item is gone and the events queue is empty (used where intents stay PENDING on purpose). */
export async function drained(stack: LocalStack, eventId: string): Promise<void> {
  await eventually(
    `the outbox item of ${eventId} to be relayed`,
    () => outboxItem(eventId),
    (x) => x === undefined,
  );
  await eventually(
    "the events queue to drain",
    () => queueDepth(stack),
    (d) => d.waiting + d.inFlight === 0,
  );
}

/**
 * The event's intent on a channel, read from its event record on the consumer table. The record is keyed by
 * the merchant's shard, which a test knows only through the event id, so it is found by a scan (test tables
 * are small); its text is made again from the record, and its end read from its mark item, as the worker does.
 */
export async function intentOf(eventId: string, channel: Channel): Promise<NotificationIntent | undefined> {
  let item: Record<string, unknown> | undefined;
  let from: Record<string, unknown> | undefined;
  do {
    const out = await documentClient().send(
      new ScanCommand({
        TableName: loadConfig().consumerTable,
        FilterExpression: "event_id = :e AND attribute_exists(intents)",
        ExpressionAttributeValues: { ":e": eventId },
        ConsistentRead: true,
        ExclusiveStartKey: from,
      }),
    );
    item = out.Items?.[0];
    from = out.LastEvaluatedKey;
  } while (!item && from);
  const stored = (item?.intents as Partial<Record<Channel, StoredIntent>> | undefined)?.[channel];
  if (!item || !stored) return undefined;
  const event = {
    ...(item as unknown as PaymentEvent),
    type: String(item.sk).startsWith("DEBIT#") ? "payment.refunded" : "payment.succeeded",
    email: stored.to,
  } as PaymentEvent;
  const mark = await documentClient().send(
    new GetCommand({
      TableName: loadConfig().consumerTable,
      Key: { pk: item.pk, sk: `MARK#${eventId}#${channel}` },
      ConsistentRead: true,
    }),
  );
  return intentOfRecord(event, channel, stored, mark.Item as IntentMark | undefined);
}

/**
 * The event while it is still in the outbox: its journal entry while that is listed in the outbox index, or an
 * outbox item of its own (a caught-up move's); undefined once the relay has taken it out.
 */
export async function outboxItem(eventId: string): Promise<Record<string, unknown> | undefined> {
  const get = async (Key: Record<string, string>) =>
    (
      await documentClient().send(
        new GetCommand({ TableName: loadConfig().ledgerTable, Key, ConsistentRead: true }),
      )
    ).Item;
  const own = await get(outboxKey(eventId));
  if (own) return own;
  const cut = eventId.lastIndexOf(":");
  const sk = eventId.slice(cut + 1) === "REFUNDED" ? REFUND_JOURNAL_SK : CHARGE_JOURNAL_SK;
  const entry = await get({ pk: paymentKey(eventId.slice(0, cut)).pk, sk });
  return isOutboxIndexPk(entry?.gsi1pk) ? entry : undefined;
}

/** Counts the Powertools metrics the handlers add while a test runs (the handlers run in this process). */
export async function watchMetrics() {
  // Imported here, not at the top, so that the Metrics instance is created after the switch above.
  const { metrics } = await import("@eo/functions/shared/observability");
  const spy = vi.spyOn(metrics, "addMetric");
  return {
    count: (name: string) =>
      spy.mock.calls.filter((c) => c[0] === name).reduce((n, c) => n + Number(c[2]), 0),
    stop: () => spy.mockRestore(),
  };
}

/** The seed's P4 assessment of a phone: one notification shown, for this payment, after at most `maxAlerts` alerts. */
export function assertOneShown(screen: Screen, paymentId: string, maxAlerts: number): void {
  if (screen.shown.length !== 1)
    throw new Error(`expected one notification on the screen, saw ${screen.shown.length}`);
  if (screen.shown[0]?.replace_id !== paymentId)
    throw new Error(`expected replace id ${paymentId}, saw ${screen.shown[0]?.replace_id}`);
  if (screen.alerts < 1 || screen.alerts > maxAlerts)
    throw new Error(`expected 1..${maxAlerts} alerts, saw ${screen.alerts}`);
}
