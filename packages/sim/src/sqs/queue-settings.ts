import { invalidAttributeName, invalidAttributeValue, invalidParameterValue, sqsUnsupported } from "./errors";

/** The dead-letter settings of a source queue (its RedrivePolicy attribute). */
export interface RedrivePolicy {
  deadLetterTargetArn: string;
  maxReceiveCount: number;
}

/** A queue's settable attributes, parsed. */
export interface QueueSettings {
  fifo: boolean;
  contentBasedDeduplication: boolean;
  deduplicationScope: "queue" | "messageGroup";
  fifoThroughputLimit: "perQueue" | "perMessageGroupId";
  visibilityTimeoutS: number;
  delayS: number;
  retentionS: number;
  maximumMessageSize: number;
  receiveWaitS: number;
  redrive?: RedrivePolicy;
  sqsManagedSse: boolean;
}

/** The defaults AWS documents for CreateQueue's attributes. */
export function defaultSettings(fifo: boolean): QueueSettings {
  return {
    fifo,
    contentBasedDeduplication: false,
    deduplicationScope: "queue",
    fifoThroughputLimit: "perQueue",
    visibilityTimeoutS: 30,
    delayS: 0,
    retentionS: 345_600,
    maximumMessageSize: 1_048_576,
    receiveWaitS: 0,
    sqsManagedSse: true,
  };
}

/** Attributes with behaviour the model does not implement: refused by name, never stored silently. */
const UNSUPPORTED = new Set([
  "Policy",
  "KmsMasterKeyId",
  "KmsDataKeyReusePeriodSeconds",
  "RedriveAllowPolicy",
]);

const FIFO_ONLY = new Set(["ContentBasedDeduplication", "DeduplicationScope", "FifoThroughputLimit"]);

/** Applies CreateQueue/SetQueueAttributes attributes onto settings, validating each as SQS does. */
export function applyAttributes(base: QueueSettings, attrs: Record<string, string>): QueueSettings {
  const s = { ...base };
  for (const [name, value] of Object.entries(attrs)) {
    if (UNSUPPORTED.has(name)) throw sqsUnsupported(`the queue attribute ${name}`);
    if (FIFO_ONLY.has(name) && !s.fifo) throw invalidAttributeName(`Unknown Attribute ${name}.`);
    applyOne(s, name, value);
  }
  if (s.fifoThroughputLimit === "perMessageGroupId" && s.deduplicationScope !== "messageGroup")
    throw invalidAttributeValue(
      "Invalid value for the parameter FifoThroughputLimit. Reason: perMessageGroupId requires DeduplicationScope messageGroup.",
    );
  return s;
}

function applyOne(s: QueueSettings, name: string, value: string): void {
  switch (name) {
    case "FifoQueue":
      if (bool(name, value) !== s.fifo)
        throw invalidAttributeValue(
          "Invalid value for the parameter FifoQueue. Reason: Modifying queue type is not supported.",
        );
      return;
    case "ContentBasedDeduplication":
      s.contentBasedDeduplication = bool(name, value);
      return;
    case "DeduplicationScope":
      s.deduplicationScope = oneOf(name, value, ["queue", "messageGroup"] as const);
      return;
    case "FifoThroughputLimit":
      s.fifoThroughputLimit = oneOf(name, value, ["perQueue", "perMessageGroupId"] as const);
      return;
    case "VisibilityTimeout":
      s.visibilityTimeoutS = int(name, value, 0, 43_200);
      return;
    case "DelaySeconds":
      s.delayS = int(name, value, 0, 900);
      return;
    case "MessageRetentionPeriod":
      s.retentionS = int(name, value, 60, 1_209_600);
      return;
    case "MaximumMessageSize":
      s.maximumMessageSize = int(name, value, 1_024, 1_048_576);
      return;
    case "ReceiveMessageWaitTimeSeconds":
      s.receiveWaitS = int(name, value, 0, 20);
      return;
    case "RedrivePolicy":
      s.redrive = value === "" ? undefined : redrivePolicy(value);
      return;
    case "SqsManagedSseEnabled":
      s.sqsManagedSse = bool(name, value);
      return;
    default:
      throw invalidAttributeName(`Unknown Attribute ${name}.`);
  }
}

function redrivePolicy(value: string): RedrivePolicy {
  let parsed: { deadLetterTargetArn?: unknown; maxReceiveCount?: unknown };
  try {
    parsed = JSON.parse(value);
  } catch {
    throw invalidAttributeValue(
      `Invalid value for the parameter RedrivePolicy. Reason: Redrive policy is not a valid JSON map.`,
    );
  }
  const count = Number(parsed.maxReceiveCount);
  if (typeof parsed.deadLetterTargetArn !== "string" || !Number.isInteger(count) || count < 1 || count > 1000)
    throw invalidAttributeValue(
      "Value for parameter RedrivePolicy is invalid. Reason: Redrive policy needs a deadLetterTargetArn and a maxReceiveCount from 1 to 1000.",
    );
  return { deadLetterTargetArn: parsed.deadLetterTargetArn, maxReceiveCount: count };
}

function bool(name: string, value: string): boolean {
  if (value === "true") return true;
  if (value === "false") return false;
  throw invalidAttributeValue(`Invalid value for the parameter ${name}.`);
}

function int(name: string, value: string, min: number, max: number): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max)
    throw invalidAttributeValue(`Invalid value for the parameter ${name}.`);
  return n;
}

function oneOf<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value))
    throw invalidAttributeValue(`Invalid value for the parameter ${name}.`);
  return value as T;
}

/** The settable attributes as GetQueueAttributes prints them. */
export function settingsAttributes(s: QueueSettings): Record<string, string> {
  const out: Record<string, string> = {
    VisibilityTimeout: String(s.visibilityTimeoutS),
    DelaySeconds: String(s.delayS),
    MessageRetentionPeriod: String(s.retentionS),
    MaximumMessageSize: String(s.maximumMessageSize),
    ReceiveMessageWaitTimeSeconds: String(s.receiveWaitS),
    SqsManagedSseEnabled: String(s.sqsManagedSse),
  };
  if (s.redrive) out.RedrivePolicy = JSON.stringify(s.redrive);
  if (s.fifo) {
    out.FifoQueue = "true";
    out.ContentBasedDeduplication = String(s.contentBasedDeduplication);
    out.DeduplicationScope = s.deduplicationScope;
    out.FifoThroughputLimit = s.fifoThroughputLimit;
  }
  return out;
}

/** Attribute names SQS knows that a queue may simply not have (no redrive policy, not FIFO). */
export const KNOWN_ABSENT = new Set([
  "RedrivePolicy",
  "FifoQueue",
  "ContentBasedDeduplication",
  "DeduplicationScope",
  "FifoThroughputLimit",
  "Policy",
  "KmsMasterKeyId",
  "KmsDataKeyReusePeriodSeconds",
  "RedriveAllowPolicy",
  "ApproximateNumberOfMessagesDelayed",
]);

/** Whether a new queue is FIFO, checking its name against its FifoQueue attribute as SQS does. */
export function fifoOf(name: string, attributes: Record<string, string>): boolean {
  const flag = attributes.FifoQueue;
  if (flag !== undefined && flag !== "true") throw invalidAttributeName("Unknown Attribute FifoQueue.");
  const fifo = flag === "true";
  const base = fifo ? name.replace(/\.fifo$/, "") : name;
  const ok = /^[A-Za-z0-9_-]+$/.test(base) && name.length <= 80 && (!fifo || name.endsWith(".fifo"));
  if (!ok || (!fifo && name.endsWith(".fifo")))
    throw invalidParameterValue(
      fifo
        ? "The name of a FIFO queue can only include alphanumeric characters, hyphens, or underscores, must end with .fifo suffix and be 1 to 80 in length."
        : "Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length",
    );
  return fifo;
}
