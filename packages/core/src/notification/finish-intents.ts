import type { Clock } from "../clock/clock";
import type { DeviceStore } from "../device/device-store";
import { crashIfArmed } from "../inbox/injected-crash";
import type { PaymentEvent } from "../outbox/payment-event";
import type { EmailSender } from "./email-sender";
import { type Channel, intentsOf, type NotificationIntent } from "./intent";
import type { IntentStore } from "./intent-store";
import { admitMessage, type DedupPolicy, type DedupStore } from "./logical-dedup";
import type { PushSender } from "./push-sender";
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
  /** Pushes that went out only because the dedup store failed (fail open). */
  failedOpen: number;
}

/** The template a push is deduplicated under. */
const PUSH_TEMPLATE = "payment.succeeded/push";

/**
 * The notification step (Part 7), after the commit and again on every redelivery: each intent still PENDING is
 * sent, then marked SENT by compare-and-set. A crash between the send and the mark is the one case that sends
 * twice, and the push's replace id makes that second copy land on top of the first.
 */
export async function finishIntents(deps: NotifyDeps, event: PaymentEvent): Promise<NotifyReport> {
  const report: NotifyReport = { sent: [], suppressed: [], failedOpen: 0 };
  await finishPush(deps, event, report);
  await finishEmail(deps, event, report);
  return report;
}

async function finishPush(deps: NotifyDeps, event: PaymentEvent, report: NotifyReport): Promise<void> {
  const unsafe = unsafeSwitches();
  // Branch N: with no record, every delivery pushes, whatever the intent says.
  const intent = unsafe.noNotificationRecord
    ? intentsOf(event, deps.clock.now())[0]
    : await deps.intents.get(event.event_id, "push");
  if (intent?.state !== "PENDING") return;
  const logical = {
    recipient: intent.caller,
    template: PUSH_TEMPLATE,
    businessKey: intent.dedup_key,
    owner: intent.event_id,
  };
  const admission = await admitMessage(deps.dedup, deps.policy, logical, deps.clock.now());
  if (!admission.admit) return suppress(deps, intent, admission.reason, report);
  if (admission.failedOpen) report.failedOpen += 1;
  const devices = await deps.devices.list(intent.caller);
  const message = {
    title: intent.title,
    body: intent.body,
    replaceId: unsafe.noReplaceId ? undefined : intent.replace_id,
  };
  let sent = 0;
  for (const d of devices)
    if ((await deps.push.publish(d.endpoint_arn, d.platform, message)) === "sent") sent += 1;
  if (sent === 0) return suppress(deps, intent, "no-enabled-device", report);
  crashIfArmed("worker_crash_after_send");
  if (!unsafe.noNotificationRecord)
    await deps.intents.finish(intent.event_id, "push", "SENT", deps.clock.now());
  report.sent.push("push");
}

/**
 * The email has no replace id, so its send record (keyed by the intent, written as soon as SES accepted the
 * email) stops our own repeats; a crash between SES accepting and the record being written can still repeat.
 */
async function finishEmail(deps: NotifyDeps, event: PaymentEvent, report: NotifyReport): Promise<void> {
  const intent = await deps.intents.get(event.event_id, "email");
  if (intent?.state !== "PENDING") return;
  if (!intent.to) return suppress(deps, intent, "no-address", report);
  if (!(await deps.intents.getEmailSend(event.event_id))) {
    const messageId = await deps.email.send(intent.to, intent.title, intent.body);
    await deps.intents.putEmailSend({
      event_id: event.event_id,
      message_id: messageId,
      to: intent.to,
      sent_at: deps.clock.now(),
    });
    crashIfArmed("worker_crash_after_send");
  }
  await deps.intents.finish(intent.event_id, "email", "SENT", deps.clock.now());
  report.sent.push("email");
}

async function suppress(
  deps: NotifyDeps,
  intent: NotificationIntent,
  reason: string,
  report: NotifyReport,
): Promise<void> {
  await deps.intents.finish(intent.event_id, intent.channel, "SUPPRESSED", deps.clock.now(), reason);
  report.suppressed.push({ channel: intent.channel, reason });
}
