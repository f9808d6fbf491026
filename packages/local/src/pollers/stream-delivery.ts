import type { DynamoDBRecord } from "aws-lambda";
import { type Invocation, reportedFailures } from "./invoke-handler";
import { sleep } from "./timing";

/** What the on-failure destination receives for records that ran out of retries. */
export interface DiscardedRecords {
  records: DynamoDBRecord[];
  error: string;
  attempts: number;
}

/** How a stream event source mapping treats a failed batch. */
export interface DeliveryPolicy {
  /** Infinity retries until the function succeeds (AWS: -1 with no record age; records then expire at retention). */
  maxRetryAttempts: number;
  bisectBatchOnFunctionError: boolean;
  /** The first pause before a retry; it doubles per attempt, as Lambda backs off, up to `MAX_RETRY_DELAY_MS`. */
  retryDelayMs: number;
  onFailure: (info: DiscardedRecords) => Promise<void>;
  /** Aborted when the poller stops: the remaining records are then left unacknowledged, not discarded. */
  signal: AbortSignal;
  /** While true (the local Region is down), the batch waits undelivered; it counts no attempt. */
  paused?: () => boolean;
}

/** How often a paused delivery looks again. */
const PAUSED_POLL_MS = 100;

/** Invokes the function with one batch of records. */
export type InvokeBatch = (records: DynamoDBRecord[]) => Promise<Invocation<unknown>>;

type Verdict =
  | { kind: "ok" }
  | { kind: "error"; error: string }
  | { kind: "partial"; from: number; error: string };

interface Segment {
  records: DynamoDBRecord[];
  /** How many times these records have been sent to the function already. */
  attempts: number;
}

/** Caps the doubling retry pause so that a local run with many retries stays quick. */
export const MAX_RETRY_DELAY_MS = 1000;

/**
 * Delivers one shard batch as a stream event source mapping does (strictly in order; a failed batch retried with the
 * same records, halved on a function error when bisecting; a reported item failure retried from that record on;
 * records past `maxRetryAttempts` handed to `onFailure`) and resolves false if the poller stopped first.
 */
export async function deliverInOrder(
  records: DynamoDBRecord[],
  invoke: InvokeBatch,
  policy: DeliveryPolicy,
): Promise<boolean> {
  const pending: Segment[] = [{ records, attempts: 0 }];
  for (let seg = pending.shift(); seg; seg = pending.shift()) {
    while (policy.paused?.() && !policy.signal.aborted) await sleep(PAUSED_POLL_MS, policy.signal);
    if (policy.signal.aborted) return false;
    const verdict = judge(seg.records, await invoke(seg.records));
    if (verdict.kind === "ok") continue;
    const attempts = seg.attempts + 1;
    // Records before the first reported failure are checkpointed: only the rest are retried.
    const rest = verdict.kind === "partial" ? seg.records.slice(verdict.from) : seg.records;
    if (attempts > policy.maxRetryAttempts) {
      await discard(policy, { records: rest, error: verdict.error, attempts });
      continue;
    }
    const bisect = verdict.kind === "error" && policy.bisectBatchOnFunctionError && rest.length > 1;
    pending.unshift(...(bisect ? halves(rest, attempts) : [{ records: rest, attempts }]));
    await sleep(Math.min(policy.retryDelayMs * 2 ** (attempts - 1), MAX_RETRY_DELAY_MS), policy.signal);
  }
  return true;
}

/** Reads an invocation as Lambda does: an unknown or empty item identifier fails the whole batch. */
function judge(records: DynamoDBRecord[], invocation: Invocation<unknown>): Verdict {
  if (!invocation.ok) return { kind: "error", error: invocation.error };
  const failed = reportedFailures(invocation.result);
  if (!failed) return { kind: "ok" };
  const positions = failed.map((id) => records.findIndex((r) => r.dynamodb?.SequenceNumber === id));
  if (positions.some((p) => p < 0)) {
    return {
      kind: "error",
      error: `batchItemFailures named an unknown itemIdentifier: ${failed.join(", ")}`,
    };
  }
  // Records are in sequence-number order, so the lowest position is the lowest sequence number.
  const from = Math.min(...positions);
  return { kind: "partial", from, error: `the function reported a failure at ${failed.join(", ")}` };
}

function halves(records: DynamoDBRecord[], attempts: number): Segment[] {
  const mid = Math.ceil(records.length / 2);
  return [
    { records: records.slice(0, mid), attempts },
    { records: records.slice(mid), attempts },
  ];
}

async function discard(policy: DeliveryPolicy, info: DiscardedRecords): Promise<void> {
  try {
    await policy.onFailure(info);
  } catch (err) {
    // A broken destination must not stall the shard; AWS also moves on once the records are discarded.
    console.error(`[stream-poller] onFailure threw; ${info.records.length} record(s) dropped:`, err);
  }
}
