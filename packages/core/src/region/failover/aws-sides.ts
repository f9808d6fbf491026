import { CloudWatchClient, GetMetricStatisticsCommand } from "@aws-sdk/client-cloudwatch";
import { InvokeCommand, LambdaClient } from "@aws-sdk/client-lambda";
import { type DynamoDBDocumentClient, GetCommand } from "@aws-sdk/lib-dynamodb";
import type { RegionRole } from "../../config/switches";
import { dynamoSide, type RegionTables } from "./dynamo-side";
import type { AuthoritySide, FailoverSides, RegionSide } from "./region-side";

/** One Region of a stage as its outputs name it: its AWS Region, its tables and its scheduled functions. */
export interface AwsRegionNames extends RegionTables {
  region: string;
  resolver?: string;
  sweeps?: string;
}

/** A stage as the failover reaches it; the operator's target finder builds it from the outputs. */
export interface AwsStage {
  /** For the messages: `stage production (.sst/outputs.json)`. */
  where: string;
  regions: Record<RegionRole, AwsRegionNames>;
  authority: AuthoritySide;
  /** A document client on DynamoDB in a Region, with the operator's credentials. */
  dynamoIn(region: string): DynamoDBDocumentClient;
}

/**
 * Both Regions of a stage (its outputs), through DynamoDB, Lambda Invoke and CloudWatch reads only: nothing here
 * needs a control plane or a deploy.
 */
export function awsSides(target: AwsStage): FailoverSides {
  const side = (role: RegionRole): RegionSide => {
    const t = target.regions[role];
    const { resolver, sweeps } = t;
    if (!resolver || !sweeps) throw new Error(`${target.where} names no resolver or sweeps in ${role}`);
    // Short timeouts and few retries: a Region that does not answer is a finding, not a reason to hang at 3 a.m.
    const base = { region: t.region, maxAttempts: 2, requestHandler: { requestTimeout: 5_000 } };
    const db = target.dynamoIn(t.region);
    const lambda = new LambdaClient({ ...base, requestHandler: { requestTimeout: 120_000 } });
    const cloudwatch = new CloudWatchClient(base);
    const inner = dynamoSide(role, t.region, db, t, {
      health: async () => {
        // A strongly consistent read of the ledger's replica here answers only if the Region's DynamoDB does (the
        // control table may live in another Region: CONTROL_MODE=single-region).
        await db.send(
          new GetCommand({
            TableName: t.ledger,
            Key: { pk: "HEALTH#failover", sk: "HEALTH" },
            ConsistentRead: true,
          }),
        );
        return { ok: true, detail: `DynamoDB in ${t.region} answers` };
      },
      runJob: async (job, event) => {
        const out = await lambda.send(
          new InvokeCommand({
            FunctionName: job === "resolver" ? resolver : sweeps,
            Payload: JSON.stringify(event),
          }),
        );
        const text = out.Payload ? Buffer.from(out.Payload).toString("utf8") : "{}";
        if (out.FunctionError) throw new Error(`${job} in ${t.region} failed: ${text.slice(0, 300)}`);
        return JSON.parse(text || "{}") as Record<string, unknown>;
      },
    });
    return {
      ...inner,
      // The metric lives in the sending Region, one series per receiving Region (DynamoDB global tables).
      recentReplicationLatencyMs: async (receivingRegion) => {
        const out = await cloudwatch.send(
          new GetMetricStatisticsCommand({
            Namespace: "AWS/DynamoDB",
            MetricName: "ReplicationLatency",
            Dimensions: [
              { Name: "TableName", Value: t.ledger },
              { Name: "ReceivingRegion", Value: receivingRegion },
            ],
            StartTime: new Date(Date.now() - 15 * 60_000),
            EndTime: new Date(),
            Period: 60,
            Statistics: ["Maximum"],
          }),
        );
        const maxima = (out.Datapoints ?? []).map((d) => d.Maximum ?? 0);
        return maxima.length > 0 ? Math.max(...maxima) : undefined;
      },
    };
  };
  return { primary: side("primary"), standby: side("standby"), authority: target.authority };
}
