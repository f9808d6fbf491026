import { SESv2Client } from "@aws-sdk/client-sesv2";
import { DeleteEndpointCommand, SetEndpointAttributesCommand, SNSClient } from "@aws-sdk/client-sns";
import {
  DynamoDeviceStore,
  documentClient,
  type EmailSender,
  loadConfig,
  merchantCredits,
  SesEmailSender,
  sesVerdict,
  workerDeps,
} from "@eo/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mintToken } from "../../packages/local/src/runtime/jwt";
import { LOCAL_CREDENTIALS } from "../../packages/local/src/stack/regions";
import type { LocalStack } from "../../packages/local/src/stack/start-stack";
import {
  type Buyer,
  buyer,
  emailsTo,
  intentOf,
  merchantId,
  merchantOf,
  pay,
  queueDepth,
  registerDevice,
  screenOf,
  settled,
  startAsyncStack,
  watchMetrics,
} from "./support/async-stack";
import { type RefusingSes, startRefusingSes } from "./support/refusing-ses";

/** Longer than the suite's 2 s, so that five visibility timeouts (20 s) stand well apart from "at once". */
const VISIBILITY_S = 4;

let stack: LocalStack;
let ses: RefusingSes;
let realEmail: EmailSender;

beforeAll(async () => {
  stack = await startAsyncStack({ EVENTS_VISIBILITY_TIMEOUT_S: String(VISIBILITY_S) });
  ses = await startRefusingSes(stack.emulators.endpoints.ses);
  // The port: the worker's sender, on a real SES v2 client whose endpoint refuses as SES does.
  const deps = workerDeps();
  realEmail = deps.email;
  deps.email = new SesEmailSender(sesClient(ses.url), "receipts@effectively-once.local");
});
afterAll(async () => {
  if (realEmail) workerDeps().email = realEmail;
  await ses?.stop();
  await stack?.stop();
});

function sesClient(endpoint: string): SESv2Client {
  const region = stack.emulators.regions.primary.region;
  return new SESv2Client({ endpoint, region, credentials: LOCAL_CREDENTIALS, maxAttempts: 1 });
}

/** A buyer with a phone whose token's email carries `tag`, which the refusing SES reads. */
async function mailedAt(name: string, tag: string): Promise<Buyer> {
  const b = await buyer(stack, name, { phone: "apns" });
  const email = `${b.caller}+${tag}@example.com`;
  return { ...b, email, token: await mintToken(b.caller, { email }) };
}

/** The SNS client of the local push provider, as the platform (APNs/FCM feedback) or an operator would act. */
function sns(): SNSClient {
  return new SNSClient({
    endpoint: process.env.AWS_ENDPOINT_URL_SNS,
    region: stack.emulators.regions.primary.region,
    credentials: LOCAL_CREDENTIALS,
  });
}

const devicesOf = (b: Buyer) =>
  new DynamoDeviceStore(documentClient(), loadConfig().consumerTable).list(b.caller);

/** Pays the merchant from `first`, then at once from `next`; both events are in the merchant's FIFO group. */
async function twoPayments(first: Buyer, next: Buyer, m: string) {
  const a = await pay(stack, first, { merchant: m, amount: 1000 });
  const b = await pay(stack, next, { merchant: m, amount: 2000 });
  await settled(stack, a.eventId, ["push", "email"]);
  await settled(stack, b.eventId, ["push", "email"]);
  const credits = await merchantCredits(m);
  const gapMs = (credits[1]?.applied_at ?? Number.POSITIVE_INFINITY) - (credits[0]?.applied_at ?? 0);
  return { a, b, gapMs };
}

const dlqDepth = () => queueDepth(stack, stack.emulators.regions.primary.queues.eventsDlq);

describe("Email that SES refuses for good does not poison the event", () => {
  it("MessageRejected: the intent is FAILED with the reason, the credit and the push stand, nothing reaches the DLQ, and the merchant's next event is applied at once", async () => {
    // prepare
    const metrics = await watchMetrics();
    const [refused, next] = [await mailedAt("rejected", "rejected"), await mailedAt("next", "ok")];
    const m = merchantId("m-rejected");
    // act
    const { a, b, gapMs } = await twoPayments(refused, next, m);
    // assess
    expect(await intentOf(a.eventId, "email")).toMatchObject({
      state: "FAILED",
      reason: expect.stringMatching(/^MessageRejected: /),
    });
    expect(await intentOf(a.eventId, "push")).toMatchObject({ state: "SENT" });
    expect((await screenOf(stack, refused)).shown).toHaveLength(1);
    expect(await merchantOf(stack, m)).toMatchObject({ credits: 2, balance: 3000 });
    expect(gapMs).toBeLessThan(VISIBILITY_S * 1000);
    expect(await intentOf(b.eventId, "email")).toMatchObject({ state: "SENT" });
    expect(await emailsTo(stack, next.email as string)).toHaveLength(1);
    expect(await dlqDepth()).toEqual({ waiting: 0, inFlight: 0 });
    expect(metrics.count("NotificationsFailedPermanently")).toBe(1);
    expect(metrics.count("InboxDuplicatesDropped")).toBe(0);
    metrics.stop();
  });

  it("classifies the real SDK errors: refusals of the message, the sender or the account are permanent; throttling and 5xx are not", async () => {
    const client = sesClient(ses.url);
    const sender = new SesEmailSender(client, "receipts@effectively-once.local");
    const verdictFor = (tag: string) =>
      sender.send(`classify+${tag}@example.com`, "s", "t").then(
        () => "sent",
        (err: unknown) => sesVerdict(err),
      );
    const permanent = ["rejected", "paused", "suspended", "mailfrom", "bad"];
    for (const tag of permanent) expect(await verdictFor(tag)).toMatchObject({ permanent: true });
    expect(await verdictFor("limit")).toMatchObject({ permanent: false, code: "LimitExceeded" });
    expect(await verdictFor("throttled1")).toMatchObject({ permanent: false, code: "TooManyRequests" });
    expect(await verdictFor("unavailable1")).toMatchObject({ permanent: false });
    client.destroy();
  });
});

describe("Email that SES throttles, or answers with 5xx", () => {
  it("throttled twice: retried inside the invocation's time budget and sent once, with no redelivery", async () => {
    // prepare
    const metrics = await watchMetrics();
    const b = await mailedAt("throttled", "throttled2");
    // act
    const paid = await pay(stack, b, { merchant: merchantId("m-throttled") });
    await settled(stack, paid.eventId, ["push", "email"]);
    // assess
    expect(await intentOf(paid.eventId, "email")).toMatchObject({ state: "SENT" });
    expect(ses.refusals(b.email as string)).toBe(2);
    expect(await emailsTo(stack, b.email as string)).toHaveLength(1);
    expect(metrics.count("NotificationSendRetries")).toBe(2);
    expect(metrics.count("InboxDuplicatesDropped")).toBe(0);
    metrics.stop();
  });

  it("5xx past the budget: the event is left for redelivery (credited once) and the email goes out on a later delivery", async () => {
    // prepare
    const metrics = await watchMetrics();
    const b = await mailedAt("unavailable", "unavailable6");
    const m = merchantId("m-unavailable");
    // act
    const paid = await pay(stack, b, { merchant: m });
    await settled(stack, paid.eventId, ["push", "email"]);
    // assess
    expect(await intentOf(paid.eventId, "email")).toMatchObject({ state: "SENT" });
    expect(ses.refusals(b.email as string)).toBe(6);
    expect(await emailsTo(stack, b.email as string)).toHaveLength(1);
    expect(metrics.count("InboxDuplicatesDropped")).toBeGreaterThanOrEqual(1);
    expect(await merchantOf(stack, m)).toMatchObject({ credits: 1, balance: 3000 });
    expect(await dlqDepth()).toEqual({ waiting: 0, inFlight: 0 });
    metrics.stop();
  });
});

describe("A push that SNS refuses for good does not poison the event", () => {
  it("InvalidParameter on the endpoint: the push is FAILED, the credit and the email stand, and the merchant's next event is applied at once", async () => {
    // prepare: the local provider's test fault makes every Publish to this endpoint fail as SNS refuses one
    const metrics = await watchMetrics();
    const [refused, next] = [await mailedAt("push-refused", "ok"), await mailedAt("push-next", "ok")];
    const [device] = await devicesOf(refused);
    const client = sns();
    await client.send(
      new SetEndpointAttributesCommand({
        EndpointArn: device?.endpoint_arn,
        Attributes: { EO_TEST_FAULT: "InvalidParameter" },
      }),
    );
    const m = merchantId("m-push-refused");
    // act
    const { a, gapMs } = await twoPayments(refused, next, m);
    // assess
    expect(await intentOf(a.eventId, "push")).toMatchObject({
      state: "FAILED",
      reason: expect.stringMatching(/^InvalidParameter: /),
    });
    expect(await intentOf(a.eventId, "email")).toMatchObject({ state: "SENT" });
    expect(await merchantOf(stack, m)).toMatchObject({ credits: 2, balance: 3000 });
    expect(gapMs).toBeLessThan(VISIBILITY_S * 1000);
    expect((await screenOf(stack, next)).shown).toHaveLength(1);
    expect(metrics.count("NotificationsFailedPermanently")).toBe(1);
    expect(await dlqDepth()).toEqual({ waiting: 0, inFlight: 0 });
    client.destroy();
    metrics.stop();
  });

  it("EndpointDisabled (the platform disabled it) and an endpoint deleted at SNS are refusals of that device only: the buyer's other phone still gets the push", async () => {
    // prepare: three phones; the platform disabled one, another was deleted at SNS
    const b = await mailedAt("two-dead", "ok");
    await registerDevice(stack, b, "fcm", `fcm-${b.caller}`);
    await registerDevice(stack, b, "apns", `second-${b.caller}`);
    const [first, second, third] = await devicesOf(b);
    const client = sns();
    await client.send(
      new SetEndpointAttributesCommand({
        EndpointArn: first?.endpoint_arn,
        Attributes: { Enabled: "false" },
      }),
    );
    await client.send(new DeleteEndpointCommand({ EndpointArn: second?.endpoint_arn }));
    // act
    const paid = await pay(stack, b, { merchant: merchantId("m-two-dead") });
    await settled(stack, paid.eventId, ["push", "email"]);
    // assess
    expect(await intentOf(paid.eventId, "push")).toMatchObject({ state: "SENT" });
    expect(third).toBeDefined();
    expect((await screenOf(stack, b)).shown).toHaveLength(1);
    // and with no working phone left, the push is FAILED with each device's reason
    await client.send(
      new SetEndpointAttributesCommand({
        EndpointArn: third?.endpoint_arn,
        Attributes: { Enabled: "false" },
      }),
    );
    const again = await pay(stack, b, { merchant: merchantId("m-none-left"), amount: 4200 });
    await settled(stack, again.eventId, ["push", "email"]);
    const intent = await intentOf(again.eventId, "push");
    expect(intent).toMatchObject({ state: "FAILED" });
    expect(intent?.reason).toMatch(/EndpointDisabled: .*NotFound: .*EndpointDisabled: /);
    client.destroy();
  });

  it("Throttled twice: retried inside the budget and pushed once, with no redelivery", async () => {
    // prepare
    const metrics = await watchMetrics();
    const b = await mailedAt("push-throttled", "ok");
    const [device] = await devicesOf(b);
    const client = sns();
    await client.send(
      new SetEndpointAttributesCommand({
        EndpointArn: device?.endpoint_arn,
        Attributes: { EO_TEST_FAULT: "Throttled:2" },
      }),
    );
    // act
    const paid = await pay(stack, b, { merchant: merchantId("m-push-throttled") });
    await settled(stack, paid.eventId, ["push", "email"]);
    // assess
    expect(await intentOf(paid.eventId, "push")).toMatchObject({ state: "SENT" });
    expect(await screenOf(stack, b)).toMatchObject({ alerts: 1 });
    expect(metrics.count("NotificationSendRetries")).toBe(2);
    expect(metrics.count("InboxDuplicatesDropped")).toBe(0);
    client.destroy();
    metrics.stop();
  });
});
