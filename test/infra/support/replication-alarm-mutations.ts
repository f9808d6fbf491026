/** Break-on-purpose cases for issue 41, item 3: replication alarms that page only when replication stops. */
import type { Capture, JsonObject } from "./capture";
import { type Mutation, resourceOf } from "./mutation";
import { replicationAlarms } from "./replication-alarm-invariant";
import { SCENARIOS } from "./scenarios";

const scenario = (name: string) => {
  const found = SCENARIOS.find((s) => s.scenario.name === name);
  if (!found) throw new Error(`no scenario ${name}`);
  return found;
};
const queriesOf = (c: Capture, name: string) =>
  resourceOf(c, "aws:cloudwatch/metricAlarm:MetricAlarm", name).inputs.metricQueries as JsonObject[];

export const REPLICATION_ALARM_MUTATIONS: Mutation[] = [
  {
    what: "the replication-missing alarm gated on ConsumedWriteCapacityUnits (the passive Region pages all day)",
    invariant: replicationAlarms,
    on: scenario("home-dev"),
    breakIt: (c) => {
      const queries = queriesOf(c, "StandbyReplicationMissingLedgerAlarm");
      const table = ((queries[0]?.metric ?? {}) as JsonObject).dimensions as JsonObject;
      const kept = queries.filter((q) => !/^w\d$/.test(String(q.id)) && q.id !== "writes");
      kept.splice(1, 0, {
        id: "writes",
        metric: {
          namespace: "AWS/DynamoDB",
          metricName: "ConsumedWriteCapacityUnits",
          dimensions: { TableName: table.TableName ?? "" },
          stat: "Sum",
          period: 300,
        },
        returnData: false,
      });
      queries.splice(0, queries.length, ...kept);
    },
    expectViolation:
      /standby: StandbyReplicationMissingLedgerAlarm pages while the Region is passive, receiving the active Region's writes/,
  },
  {
    what: "the gate counting no transactions (a Region whose writes are all transactions is never judged)",
    invariant: replicationAlarms,
    on: scenario("mrsc-production"),
    breakIt: (c) => {
      const queries = queriesOf(c, "PrimaryReplicationMissingConsumerAlarm");
      const tx = queries.findIndex(
        (q) =>
          ((q.metric as JsonObject | undefined)?.dimensions as JsonObject)?.Operation ===
          "TransactWriteItems",
      );
      const id = String(queries[tx]?.id);
      queries.splice(tx, 1);
      const writes = queries.find((q) => q.id === "writes") as JsonObject;
      writes.expression = String(writes.expression)
        .split(" + ")
        .filter((t) => t !== `FILL(${id}, 0)`)
        .join(" + ");
    },
    expectViolation:
      /primary: PrimaryReplicationMissingConsumerAlarm does not count this Region's TransactWriteItems/,
  },
];
