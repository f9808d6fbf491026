/**
 * The ledger stream's readers and failure queues (issue 41, items 1 and 2): one Lambda reader per stream in each
 * Region (AWS recommends one per shard of a global table's stream), an iterator-age alarm for every stream consumer,
 * and a failure queue per consumer, each alarmed on its visible messages.
 */
import { handlers } from "../../../stacks/handlers";
import type { CapturedResource } from "./capture";
import type { Invariant, View } from "./invariants";
import { arr, obj, str } from "./json";

type Role = "primary" | "standby";
const ROLES: Role[] = ["primary", "standby"];
const ESM = "aws:lambda/eventSourceMapping:EventSourceMapping";
const ALARM = "aws:cloudwatch/metricAlarm:MetricAlarm";

const isStreamMapping = (m: CapturedResource) =>
  /:dynamodb:.*\/stream\//.test(String(m.inputs.eventSourceArn));

/** Alarms in a Region on a metric whose dimension `dim` is `value`. */
function alarmsOn(v: View, role: Role, metric: string, dim: string, value: string | undefined) {
  return v
    .ofType(ALARM)
    .filter(
      (a) =>
        v.regionOf(a) === v.region(role) &&
        a.inputs.metricName === metric &&
        value !== undefined &&
        obj(a.inputs.dimensions)[dim] === value,
    );
}

/** Each stream in a Region has one Lambda reader at most, and the ledger's has exactly one. */
export const oneStreamReader: Invariant = {
  name: "one Lambda reader per stream",
  check(v) {
    const out: string[] = [];
    for (const role of ROLES) {
      const here = v.ofType(ESM).filter((m) => isStreamMapping(m) && v.regionOf(m) === v.region(role));
      const byStream = new Map<string, string[]>();
      for (const m of here) {
        const arn = String(m.inputs.eventSourceArn);
        byStream.set(arn, [...(byStream.get(arn) ?? []), m.name]);
      }
      for (const [arn, names] of byStream)
        if (names.length > 1)
          out.push(
            `${role}: ${names.length} Lambda readers on ${arn} (${names.join(", ")}); a global table's stream gets one`,
          );
      const ledger = v.tableIn(role, "LEDGER_TABLE").streamArn;
      if (!ledger || !byStream.has(ledger))
        out.push(`${role}: nothing reads the ledger stream in ${v.region(role)}`);
    }
    return out;
  },
};

/** Every function that reads a stream has an IteratorAge alarm in its Region. */
export const streamIteratorAge: Invariant = {
  name: "iterator age of every stream consumer",
  check(v) {
    const out: string[] = [];
    for (const role of ROLES) {
      const readers = v
        .ofType(ESM)
        .filter((m) => isStreamMapping(m) && v.regionOf(m) === v.region(role))
        .map((m) => v.functionsIn(role).find((f) => f.state.arn === m.inputs.functionName));
      for (const f of readers) {
        if (!f) continue;
        if (alarmsOn(v, role, "IteratorAge", "FunctionName", str(f.state.name)).length === 0)
          out.push(`${role}: ${f.name} reads a stream and has no IteratorAge alarm`);
      }
    }
    return out;
  },
};

/**
 * The relay's failure queue is its mapping's on-failure destination; the stream job's is its own, which the function
 * is told (STREAM_JOB_FAILURES_QUEUE_URL) and may send to; they are two queues, each alarmed on what it holds.
 */
export const failureQueuePerConsumer: Invariant = {
  name: "a failure queue per stream consumer, each alarmed",
  check(v) {
    const out: string[] = [];
    const consumers = handlers.filter((h) => h.trigger.kind === "ledger-stream");
    for (const role of ROLES)
      for (const h of consumers) {
        const f = v.fn(role, h.id);
        const m = v.ofType(ESM).find((x) => f && x.inputs.functionName === f.state.arn);
        if (!f || !m) {
          out.push(`${role}: no mapping of ${h.id}`);
          continue;
        }
        const relay = v.byArn(str(obj(obj(m.inputs.destinationConfig).onFailure).destinationArn));
        const job = v.queueByUrl(v.env(f).STREAM_JOB_FAILURES_QUEUE_URL);
        if (!job || v.regionOf(job) !== v.region(role) || job.inputs.fifoQueue === true)
          out.push(`${role}: ${h.id} is told no standard stream-job failure queue in ${v.region(role)}`);
        else if (!v.can(f, "sqs:SendMessage", String(job.state.arn)))
          out.push(`${role}: ${h.id} may not send to the stream job's failure queue`);
        if (relay && job && relay === job)
          out.push(`${role}: the relay and the stream job share one failure queue`);
        for (const [what, q] of [
          ["relay", relay],
          ["stream job", job],
        ] as const) {
          const visible = alarmsOn(
            v,
            role,
            "ApproximateNumberOfMessagesVisible",
            "QueueName",
            str(q?.state.name),
          );
          if (
            q &&
            !visible.some(
              (a) => a.inputs.threshold === 0 && /GreaterThan/.test(String(a.inputs.comparisonOperator)),
            )
          )
            out.push(`${role}: the ${what} failure queue ${q.name} has no alarm on visible messages > 0`);
        }
      }
    return out;
  },
};

/** The filters of the ledger stream mapping fit Lambda's default quota of five per mapping. */
export const filtersWithinQuota: Invariant = {
  name: "ledger stream filters within Lambda's five",
  check(v) {
    return v
      .ofType(ESM)
      .filter(isStreamMapping)
      .filter((m) => arr(obj(m.inputs.filterCriteria).filters).length > 5)
      .map(
        (m) => `${m.name} has ${arr(obj(m.inputs.filterCriteria).filters).length} filters; Lambda allows 5`,
      );
  },
};
