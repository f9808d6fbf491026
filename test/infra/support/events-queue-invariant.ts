/**
 * The events queue at scale, in each Region: high-throughput FIFO (deduplication and the throughput quota per message
 * group, without which a FIFO queue takes about 300 sends/s) and a visibility timeout of at least 6× the timeout of
 * the worker it invokes, as AWS advises for a queue a Lambda function reads. Held to the issue, not to the stacks.
 */
import type { Invariant, View } from "./invariants";

const ROLES = ["primary", "standby"] as const;

/** Contract: the attributes and the ratio the issue asks for. */
export const HIGH_THROUGHPUT_FIFO = {
  deduplicationScope: "messageGroup",
  fifoThroughputLimit: "perMessageGroupId",
  visibilityPerWorkerTimeout: 6,
} as const;

function queueProblems(v: View, role: (typeof ROLES)[number]): string[] {
  const q = v.queueByUrl(v.regionEnv(role, "EVENTS_QUEUE_URL"));
  if (!q) return [`${role}: no events queue`];
  const out: string[] = [];
  const { deduplicationScope, fifoThroughputLimit } = q.inputs;
  if (deduplicationScope !== HIGH_THROUGHPUT_FIFO.deduplicationScope)
    out.push(
      `${role}: the events queue deduplicates per ${deduplicationScope ?? "queue"}, not per message group`,
    );
  if (fifoThroughputLimit !== HIGH_THROUGHPUT_FIFO.fifoThroughputLimit)
    out.push(
      `${role}: the events queue's throughput quota is per ${fifoThroughputLimit ?? "queue"}, not per group`,
    );
  const worker = v.fn(role, "NotifyWorker");
  if (!worker) return [...out, `${role}: no worker on the events queue`];
  const timeout = Number(worker.inputs.timeout);
  const visibility = Number(q.inputs.visibilityTimeoutSeconds);
  const ratio = HIGH_THROUGHPUT_FIFO.visibilityPerWorkerTimeout;
  if (!(visibility >= ratio * timeout))
    out.push(
      `${role}: the events queue's visibility timeout is ${visibility} s, below ${ratio}× the worker's ${timeout} s`,
    );
  return out;
}

/** Each Region's events queue is high-throughput FIFO with a visibility timeout of at least 6× the worker's timeout. */
export const eventsQueueAtScale: Invariant = {
  name: "high-throughput FIFO events queue, visibility at least 6× the worker's timeout",
  check: (v) => ROLES.flatMap((role) => queueProblems(v, role)),
};
