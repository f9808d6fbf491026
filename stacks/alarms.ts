import type { RegionFunctions } from "./functions";
import { handlers } from "./handlers";
import { type OnCall, onCallActions } from "./on-call";
import {
  APP_DIMENSIONS,
  alarmDescription,
  alarmName,
  ON_CALL_SIGNALS,
  type OnCallSignal,
} from "./on-call-signals";
import type { RegionContext } from "./region-context";

/** What a Region's alarms and dashboard point at: its functions, its API and (through the context) its queues. */
export interface Watched {
  functions: RegionFunctions;
  api: sst.aws.ApiGatewayV2;
}

/** One concrete metric of a signal in a Region: the alarm's name part and the dimensions' values. */
export interface SignalInstance {
  part: string;
  dimensions: Record<string, $util.Input<string>>;
}

/** The global tables whose replication the Region's alarms watch (the claim table in MRSC mode replicates strongly). */
const GLOBAL_TABLES = ["ledger", "consumer"] as const;

/** The other Region of the pair, by name: where this Region's replicas receive. */
function otherRegion(ctx: Pick<RegionContext, "role" | "config">): string {
  return ctx.config.regions[ctx.role === "primary" ? "standby" : "primary"];
}

/** The concrete metrics of a signal in a Region: one, or one per function, per global table. */
export function instancesOf(
  signal: OnCallSignal,
  ctx: Pick<RegionContext, "role" | "config" | "queues" | "tables">,
  watched: Watched,
): SignalInstance[] {
  switch (signal.target) {
    case "app":
      return [{ part: "", dimensions: { ...APP_DIMENSIONS } }];
    case "each-function":
      return Object.entries(watched.functions).map(([id, fn]) => ({
        part: id,
        dimensions: { FunctionName: fn.name },
      }));
    case "stream-consumers":
      return streamConsumers(watched).map(([id, fn]) => ({
        part: id,
        dimensions: { FunctionName: fn.name },
      }));
    case "relay-failures":
      return [{ part: "", dimensions: { QueueName: ctx.queues.relayFailures.nodes.queue.name } }];
    case "stream-job-failures":
      return [{ part: "", dimensions: { QueueName: ctx.queues.streamJobFailures.nodes.queue.name } }];
    case "api":
      return [{ part: "", dimensions: { ApiId: watched.api.nodes.api.id } }];
    case "events-queue":
      return [{ part: "", dimensions: { QueueName: ctx.queues.events.nodes.queue.name } }];
    case "events-dlq":
      return [{ part: "", dimensions: { QueueName: ctx.queues.eventsDlq.nodes.queue.name } }];
    case "global-tables":
      return GLOBAL_TABLES.map((t) => ({
        part: t === "ledger" ? "Ledger" : "Consumer",
        dimensions: { TableName: ctx.tables[t].name, ReceivingRegion: otherRegion(ctx) },
      }));
  }
}

/**
 * The write operations a client can make on a table, as DynamoDB's `SuccessfulRequestLatency` names them: its sample
 * counts are requests made to this Region's endpoint, so a write replicated in from the other Region is not one.
 */
export const CLIENT_WRITE_OPERATIONS = [
  "PutItem",
  "UpdateItem",
  "DeleteItem",
  "BatchWriteItem",
  "TransactWriteItems",
] as const;

/**
 * The signal's metric judged only in periods in which this Region's own clients wrote to the table: there a missing
 * value counts as 0 (FILL), so "< threshold" breaches; elsewhere the expression has no value (missing, not
 * breaching). Not `ConsumedWriteCapacityUnits`: replicated writes consume capacity in the receiving Region too, so a
 * passive Region, which originates no write and publishes no `ReplicationLatency`, would breach all day (issue 41).
 */
export function whileWrittenQueries(
  signal: OnCallSignal,
  dimensions: Record<string, $util.Input<string>>,
): aws.types.input.cloudwatch.MetricAlarmMetricQuery[] {
  const { TableName } = dimensions;
  const period = signal.periodS;
  const writes = CLIENT_WRITE_OPERATIONS.map((operation, i) => ({
    id: `w${i}`,
    metric: {
      namespace: "AWS/DynamoDB",
      metricName: "SuccessfulRequestLatency",
      dimensions: { TableName: TableName ?? "", Operation: operation },
      stat: "SampleCount",
      period,
    },
    returnData: false,
  }));
  return [
    {
      id: "signal",
      metric: {
        namespace: signal.namespace,
        metricName: signal.name,
        dimensions,
        stat: signal.statistic,
        period,
      },
      returnData: false,
    },
    ...writes,
    {
      id: "writes",
      expression: writes.map((w) => `FILL(${w.id}, 0)`).join(" + "),
      label: "writes by this Region's clients",
      returnData: false,
    },
    // IF gives no value where the condition has none (no writes here), so those periods are missing, not breaching.
    {
      id: "whileWritten",
      expression: "IF(writes > 0, FILL(signal, 0))",
      label: `${signal.name} while written here`,
      returnData: true,
    },
  ];
}

/** Every function that reads the ledger's stream (one per Region, by construction): each has its iterator age. */
function streamConsumers(watched: Watched): Array<[string, sst.aws.Function]> {
  const ids = handlers.filter((h) => h.trigger.kind === "ledger-stream").map((h) => h.id);
  const found = ids.map((id): [string, sst.aws.Function | undefined] => [id, watched.functions[id]]);
  const missing = found.filter(([, fn]) => !fn).map(([id]) => id);
  if (found.length === 0 || missing.length > 0)
    throw new Error(`no stream consumer to watch (missing: ${missing.join(", ") || "none declared"})`);
  return found as Array<[string, sst.aws.Function]>;
}

/** The signals deployed in this configuration: the generator's own (not a module's) and the claim mode's. */
export function signalsFor(claimMode: string): OnCallSignal[] {
  return ON_CALL_SIGNALS.filter((s) => !s.builtBy && (!s.claimMode || s.claimMode === claimMode));
}

/**
 * The Region's alarms, one per signal of the shared list (and per function or table where the signal says so),
 * each paging the Region's on-call topic on ALARM and on OK. Both Regions get all of them: which one is active is
 * data, and a passive Region's silence is what the missing-data rules allow for.
 */
export function createAlarms(
  ctx: RegionContext,
  watched: Watched,
  onCall: OnCall,
): aws.cloudwatch.MetricAlarm[] {
  const opts = { provider: ctx.provider };
  const alarms: aws.cloudwatch.MetricAlarm[] = [];
  for (const signal of signalsFor(ctx.config.claimMode)) {
    for (const { part, dimensions } of instancesOf(signal, ctx, watched)) {
      const metric = signal.whileWritten
        ? { metricQueries: whileWrittenQueries(signal, dimensions) }
        : {
            namespace: signal.namespace,
            metricName: signal.name,
            dimensions,
            statistic: signal.statistic,
            period: signal.periodS,
          };
      const alarm = new aws.cloudwatch.MetricAlarm(
        alarmName(ctx.prefix, signal, part),
        {
          alarmDescription: alarmDescription(ctx.role, signal),
          ...metric,
          evaluationPeriods: signal.evaluationPeriods,
          datapointsToAlarm: signal.datapointsToAlarm ?? signal.evaluationPeriods,
          comparisonOperator: signal.comparison,
          threshold: signal.threshold,
          treatMissingData: signal.missingData,
          ...onCallActions(onCall),
        },
        opts,
      );
      alarms.push(alarm);
    }
  }
  return alarms;
}
