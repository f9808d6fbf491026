import type { Clock } from "../clock/clock";
import type { Device } from "../device/device";
import type { DeviceStore } from "../device/device-store";
import { crashPoint } from "../faults/crash-point";
import { crashIfArmed } from "../inbox/injected-crash";
import type { PaymentEvent } from "../outbox/payment-event";
import type { EmailSender } from "./email-sender";
import { type Channel, intentsOf, type NotificationIntent, pushTemplateOf } from "./intent";
import type { IntentStore } from "./intent-store";
import { admitMessage, type DedupPolicy, type DedupStore } from "./logical-dedup";
import { type ProviderVerdict, sesVerdict, snsPublishVerdict } from "./provider-errors";
import type { PushMessage, PushSender } from "./push-sender";
import { sendWithinBudget, type TimeBudget } from "./send-within-budget";
import { unsafeSwitches } from "./test-switches";

/** What the notification step runs on. */
export interface NotifyDeps {
  intents: IntentStore;
  devices: DeviceStore;
  push: PushSender;
  email: EmailSender;
  dedup: DedupStore;
  policy: DedupPolicy;
  clock: Clock;
}

/** What one run of the notification step finished, per channel. */
export interface NotifyReport {
  sent: Channel[];
  suppressed: Array<{ channel: Channel; reason: string }>;
  /** Intents the provider refused for good: marked FAILED with the reason, and the event went on. */
  failed: Array<{ channel: Channel; codes: string[]; reason: string }>;
  /** Provider calls tried again after a transient error (throttling, a 5xx) inside this run. */
  retries: number;
  /** Pushes that went out only because the dedup store failed (fail open). */
  failedOpen: number;
}

/**
 * The notification step (Part 7), after the commit and again on every redelivery: each intent still PENDING is
 * sent, then marked SENT by compare-and-set. A crash between the send and the mark is the one case that sends
 * twice, and the push's replace id makes that second copy land on top of the first. A provider's permanent
 * refusal marks the intent FAILED, so it never holds the event (and the merchant's queue group) hostage; a
 * transient error is retried inside `budget`, then thrown for redelivery.
 */
export async function finishIntents(
  deps: NotifyDeps,
  event: PaymentEvent,
  budget: TimeBudget,
): Promise<NotifyReport> {
  const report: NotifyReport = { sent: [], suppressed: [], failed: [], retries: 0, failedOpen: 0 };
  // Both channels' intents live on the event's record: one read serves both, and each mark is a compare-and-set.
  const intents = await deps.intents.read(event);
  await finishPush(deps, event, intents.push, budget, report);
  await finishEmail(deps, event, intents.email, budget, report);
  return report;
}

async function finishPush(
  deps: NotifyDeps,
  event: PaymentEvent,
  stored: NotificationIntent | undefined,
  budget: TimeBudget,
  report: NotifyReport,
): Promise<void> {
  const unsafe = unsafeSwitches();
  // Branch N: with no record, every delivery pushes, whatever the intent says.
  const intent = unsafe.noNotificationRecord ? intentsOf(event, deps.clock.now())[0] : stored;
  if (intent?.state !== "PENDING") return;
  const logical = {
    recipient: intent.caller,
    template: pushTemplateOf(event),
    businessKey: intent.dedup_key,
    owner: intent.event_id,
  };
  const admission = await admitMessage(deps.dedup, deps.policy, logical, deps.clock.now());
  if (!admission.admit) return suppress(deps, event, intent, admission.reason, report);
  if (admission.failedOpen) report.failedOpen += 1;
  const devices = await deps.devices.list(intent.caller);
  if (devices.length === 0) return suppress(deps, event, intent, "no-enabled-device", report);
  const message = {
    title: intent.title,
    body: intent.body,
    replaceId: unsafe.noReplaceId ? undefined : intent.replace_id,
  };
  const refusals = await pushToDevices(deps, devices, message, budget, report);
  if (refusals.length === devices.length) return fail(deps, event, intent, refusals, report);
  crashIfArmed("worker_crash_after_send");
  await crashPoint("worker.after_send");
  if (!unsafe.noNotificationRecord) {
    await deps.intents.finish(event, "push", "SENT", deps.clock.now());
    await crashPoint("worker.after_sent_mark");
  }
  report.sent.push("push");
}

/** Pushes to each device; the answer is the permanent refusals (one device refusing never stops the others). */
async function pushToDevices(
  deps: NotifyDeps,
  devices: Device[],
  message: PushMessage,
  budget: TimeBudget,
  report: NotifyReport,
): Promise<ProviderVerdict[]> {
  const refusals: ProviderVerdict[] = [];
  for (const d of devices) {
    const result = await sendWithinBudget(
      () => deps.push.publish(d.endpoint_arn, d.platform, message),
      snsPublishVerdict,
      budget,
    );
    report.retries += result.retries;
    if (!result.ok) refusals.push(result.refusal);
  }
  return refusals;
}

/**
 * The email has no replace id, so its send record, written with the SENT mark as soon as SES accepted the
 * email, stops our own repeats; a crash between SES accepting and that write can still repeat.
 */
async function finishEmail(
  deps: NotifyDeps,
  event: PaymentEvent,
  intent: NotificationIntent | undefined,
  budget: TimeBudget,
  report: NotifyReport,
): Promise<void> {
  if (intent?.state !== "PENDING") return;
  const to = intent.to;
  if (!to) return suppress(deps, event, intent, "no-address", report);
  const result = await sendWithinBudget(
    () => deps.email.send(to, intent.title, intent.body),
    sesVerdict,
    budget,
  );
  report.retries += result.retries;
  if (!result.ok) return fail(deps, event, intent, [result.refusal], report);
  const now = deps.clock.now();
  await deps.intents.markEmailSent(
    event,
    { event_id: event.event_id, message_id: result.value, to, sent_at: now },
    now,
  );
  crashIfArmed("worker_crash_after_send");
  await crashPoint("worker.after_send");
  await crashPoint("worker.after_sent_mark");
  report.sent.push("email");
}

async function suppress(
  deps: NotifyDeps,
  event: PaymentEvent,
  intent: NotificationIntent,
  reason: string,
  report: NotifyReport,
): Promise<void> {
  await deps.intents.finish(event, intent.channel, "SUPPRESSED", deps.clock.now(), reason);
  report.suppressed.push({ channel: intent.channel, reason });
}

async function fail(
  deps: NotifyDeps,
  event: PaymentEvent,
  intent: NotificationIntent,
  refusals: ProviderVerdict[],
  report: NotifyReport,
): Promise<void> {
  const reason = refusals.map((r) => r.reason).join("; ");
  await deps.intents.finish(event, intent.channel, "FAILED", deps.clock.now(), reason);
  report.failed.push({ channel: intent.channel, codes: refusals.map((r) => r.code), reason });
}
